/**
 * Which Argo CD version does the repository install? Read from the install as teams write it:
 * - kustomize remote bases / resources of argoproj/argo-cd pinned with `?ref=vX.Y.Z` (or a raw
 *   `…/argo-cd/vX.Y.Z/manifests/install.yaml` URL), and kustomize `images:` overrides of the argocd image;
 * - the argo-cd Helm chart: a `Chart.yaml` dependency, a Flux `HelmRelease`, an Argo CD `Application`
 *   with `chart: argo-cd` (the chart version → Argo CD minor from argo-helm's history, in
 *   `schemas/argocd-versions.json`), a vendored chart's own `appVersion`, or `global.image.tag` values;
 * - the image tag `quay.io/argoproj/argocd:vX.Y.Z` anywhere (Deployments, values files);
 * - the Argo CD Operator's `ArgoCD` resource `spec.version`.
 * Every finding keeps its file, span and namespace, so a result can say which file decided.
 */
import data from '../../../../schemas/argocd-versions.json';
import type { Json, Span } from '../types';
import type { IndexedFile, WorkspaceIndex } from '../workspace/index';
import { ARGOCD_INSTALL } from '../workspace/interests';
import { parseVersion, type ReleaseLine } from './releases';

export interface InstallEvidence {
  file: string;
  span: Span;
  line: ReleaseLine;
  /** The patch release the evidence names (`?ref=v3.2.5` → 5), when it names one. */
  patch?: number;
  /** What was read, e.g. `kustomize remote base ?ref=v3.2.5`. */
  description: string;
  /** Namespace the install goes to, when the file says. */
  namespace?: string;
  /** A version outside the supported range, clamped. */
  note?: string;
  /** Older than the oldest supported release (see ParsedVersion). */
  belowOldest?: true;
}

const MAX_EVIDENCE = 200;
const IMAGE_RE = /(?:quay\.io\/)?argoproj\/argocd:(v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)/g;
const REMOTE_RE = /argoproj\/argo-cd(?:\.git)?\/{1,2}manifests[^\s"'?]*\?(?:[^\s"']*&)?ref=(v?\d+\.\d+\.\d+[^\s"'&]*)/g;
const RAW_RE = /raw\.githubusercontent\.com\/argoproj\/argo-cd\/(v\d+\.\d+\.\d+[^/\s"']*)\/manifests/g;

type Obj = { [k: string]: Json };
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const get = (v: unknown, ...path: string[]): Json | undefined => {
  let cur: unknown = v;
  for (const p of path) {
    if (!isObj(cur) || !Object.prototype.hasOwnProperty.call(cur, p)) return undefined;
    cur = cur[p];
  }
  return cur as Json;
};

/** The Argo CD minor an argo-cd Helm chart version installs (argo-helm's Chart.yaml history). */
export function chartToLine(chartVersion: string): { line: ReleaseLine; note?: string; belowOldest?: true } | undefined {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(chartVersion) ?? /(\d+)\.(\d+)/.exec(chartVersion);
  if (!m) return undefined;
  const v = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  const table = (data as unknown as { helmChartFirstVersion?: [string, string][] }).helmChartFirstVersion ?? [];
  const cmp = (a: number[], b: number[]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  let found: string | undefined;
  for (const [first, line] of table) if (cmp(v, first.split('.').map(Number)) >= 0) found = line;
  if (!found)
    return table.length
      ? {
          line: table[0][1],
          note: `chart ${chartVersion} is older than chart ${table[0][0]} (Argo CD ${table[0][1]}); checked as ${table[0][1]}, without the fields ${table[0][1]} added`,
          belowOldest: true,
        }
      : undefined;
  return { line: found };
}

/** Spans of `needle` in `text` (the first occurrence after `from`), for evidence locations. */
function findSpan(text: string, needle: string, from = 0): Span {
  const i = text.indexOf(needle, from);
  return i < 0 ? { start: 0, end: 0 } : { start: i, end: i + needle.length };
}

function fromText(file: IndexedFile, out: InstallEvidence[]): void {
  const add = (re: RegExp, what: (v: string) => string) => {
    re.lastIndex = 0;
    for (let m = re.exec(file.text); m && out.length < MAX_EVIDENCE; m = re.exec(file.text)) {
      const p = parseVersion(m[1]);
      if (!p) continue;
      out.push({
        file: file.path,
        span: { start: m.index, end: m.index + m[0].length },
        line: p.line,
        ...(p.patch !== undefined ? { patch: p.patch } : {}),
        note: p.note,
        belowOldest: p.belowOldest,
        description: what(m[1]),
        namespace: namespaceAround(file, m.index),
      });
    }
  };
  if (file.text.includes('argoproj/argocd:')) add(IMAGE_RE, (v) => `image quay.io/argoproj/argocd:${v}`);
  if (file.text.includes('argoproj/argo-cd')) {
    add(REMOTE_RE, (v) => `kustomize remote base of argoproj/argo-cd ?ref=${v}`);
    add(RAW_RE, (v) => `install manifest of argoproj/argo-cd ${v}`);
  }
}

/** The namespace of the YAML document that contains `offset` (kustomization `namespace:`, metadata.namespace). */
function namespaceAround(file: IndexedFile, offset: number): string | undefined {
  const d = file.docs.find((x) => offset >= x.span.start && offset <= x.span.end);
  return d ? docNamespace(d.value) : undefined;
}

function docNamespace(v: Json): string | undefined {
  return (
    str(get(v, 'namespace')) ??
    str(get(v, 'metadata', 'namespace')) ??
    str(get(v, 'spec', 'targetNamespace')) ??
    str(get(v, 'spec', 'destination', 'namespace'))
  );
}

function fromDocs(file: IndexedFile, out: InstallEvidence[]): void {
  const base = file.path.split('/').pop() ?? '';
  for (const d of file.docs) {
    if (out.length >= MAX_EVIDENCE) return;
    const v = d.value;
    if (!isObj(v)) continue;
    const ns = docNamespace(v);
    const push = (
      version: { line: ReleaseLine; patch?: number; note?: string; belowOldest?: true } | undefined,
      needle: string,
      description: string,
      namespace = ns,
    ) => {
      if (!version) return;
      const at = findSpan(file.text, needle, d.span.start);
      out.push({
        file: file.path,
        span: at.end ? at : { start: d.span.start, end: d.span.start },
        line: version.line,
        ...(version.patch !== undefined ? { patch: version.patch } : {}),
        note: version.note,
        belowOldest: version.belowOldest,
        description,
        namespace,
      });
    };
    const kind = str(v.kind);
    // kustomize `images:` override of the argocd image.
    if ((kind === 'Kustomization' || /^kustomization\.ya?ml$/.test(base)) && Array.isArray(v.images)) {
      for (const img of v.images) {
        const name = str(get(img, 'name')) ?? '';
        const tag = str(get(img, 'newTag'));
        if (/argoproj\/argocd$/.test(name) && tag) push(parseVersion(tag), tag, `kustomize images: ${name} newTag ${tag}`);
      }
    }
    // The argo-cd chart itself (vendored) or a chart depending on it.
    if (/^Chart\.ya?ml$/.test(base)) {
      if (v.name === 'argo-cd' && str(v.appVersion))
        push(parseVersion(str(v.appVersion)!), str(v.appVersion)!, `argo-cd chart appVersion ${str(v.appVersion)}`);
      if (Array.isArray(v.dependencies)) {
        for (const dep of v.dependencies) {
          const version = str(get(dep, 'version'));
          if (get(dep, 'name') === 'argo-cd' && version)
            push(chartToLine(version), version, `argo-cd Helm chart ${version} (Chart.yaml dependency)`);
        }
      }
    }
    if (kind === 'HelmRelease') {
      const chart = get(v, 'spec', 'chart', 'spec');
      const version = str(get(chart, 'version'));
      if (get(chart, 'chart') === 'argo-cd' && version) push(chartToLine(version), version, `argo-cd Helm chart ${version} (HelmRelease)`);
    }
    if (kind === 'Application' && str(v.apiVersion)?.startsWith('argoproj.io/')) {
      const sources = [get(v, 'spec', 'source'), ...((get(v, 'spec', 'sources') as Json[] | undefined) ?? [])];
      for (const s of Array.isArray(sources) ? sources : []) {
        const rev = str(get(s, 'targetRevision'));
        if (get(s, 'chart') === 'argo-cd' && rev)
          push(
            chartToLine(rev),
            rev,
            `argo-cd Helm chart ${rev} (Application ${str(get(v, 'metadata', 'name')) ?? ''})`.replace(' )', ')'),
            str(get(v, 'spec', 'destination', 'namespace')) ?? ns,
          );
      }
    }
    if (kind === 'ArgoCD' && str(v.apiVersion)?.startsWith('argoproj.io/')) {
      const version = str(get(v, 'spec', 'version'));
      if (version)
        push(parseVersion(version), version, `Argo CD Operator ArgoCD ${str(get(v, 'metadata', 'name')) ?? ''} spec.version ${version}`);
    }
    // argo-cd chart values: global.image.tag (the chart's default is its appVersion).
    const tag = str(get(v, 'global', 'image', 'tag'));
    if (tag) push(parseVersion(tag), tag, `argo-cd Helm values global.image.tag ${tag}`);
  }
}

/** Every piece of install evidence in the workspace (files that pass `ARGOCD_INSTALL`), cached per index version. */
const cache = new WeakMap<WorkspaceIndex, { version: number; found: InstallEvidence[] }>();

export function detectInstalls(workspace: WorkspaceIndex): InstallEvidence[] {
  const hit = cache.get(workspace);
  if (hit && hit.version === workspace.version) return hit.found;
  const found: InstallEvidence[] = [];
  for (const file of workspace.matching(ARGOCD_INSTALL)) {
    if (found.length >= MAX_EVIDENCE) break;
    fromText(file, found);
    fromDocs(file, found);
  }
  // The same version written twice in one file (image and tag of one Deployment) is one finding.
  const seen = new Set<string>();
  const unique = found.filter((e) => {
    const k = `${e.file}|${e.span.start}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  cache.set(workspace, { version: workspace.version, found: unique });
  return unique;
}
