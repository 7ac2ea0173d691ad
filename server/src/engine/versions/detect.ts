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
import { isObj, ownPath } from '../objects';
import { fluxArgoChart, lookupIn, type FluxSourceLookup } from './fluxChart';
import { hasArgoCdValuesKeys } from '../kinds/argoCdValues';

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
  /** The install it belongs to when that is not its file's folder: `app:<file>#<name>` for an Application. */
  instance?: string;
  /**
   * Read from a resource a GitOps controller keeps applied from the repository (an Argo CD
   * Application installing the chart, a Flux HelmRelease): deployed, not a one-off bootstrap.
   */
  reconciled?: true;
}

const MAX_EVIDENCE = 200;
const IMAGE_RE = /(?:quay\.io\/)?argoproj\/argocd:(v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?|latest\b|stable\b)/g;
const REMOTE_RE = /argoproj\/argo-cd(?:\.git)?\/{1,2}manifests[^\s"'?]*\?(?:[^\s"']*&)?ref=(v?\d+\.\d+\.\d+[^\s"'&]*)/g;
const RAW_RE = /raw\.githubusercontent\.com\/argoproj\/argo-cd\/(v\d+\.\d+\.\d+[^/\s"']*)\/manifests/g;

type Obj = { [k: string]: Json };
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const get = (v: unknown, ...path: string[]): Json | undefined => ownPath(v, path);

type Triple = [number, number, number];
const cmp3 = (a: Triple, b: Triple) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * The newest chart version a Helm constraint (Masterminds semver, as `helm dependency update` reads
 * Chart.yaml) can select, as an exclusive upper bound: `^7.0.0` → 8.0.0, `~7.7.0` → 7.8.0, `7.x` → 8.0.0,
 * `>=7 <8` → 8.0.0; undefined when unbounded (`>=7.0.0`, `*`). Undefined `kind` when it is a plain version.
 */
function rangeUpper(text: string): { upper?: Triple; inclusive?: boolean } | undefined {
  const alts = text.split('||').map((a) => a.trim());
  let best: { upper?: Triple; inclusive?: boolean } | undefined;
  let unbounded = false;
  for (const alt of alts) {
    let upper: Triple | undefined;
    let inclusive = false;
    const num = (m: RegExpExecArray, i: number) => (m[i] === undefined || /[xX*]/.test(m[i]) ? undefined : Number(m[i]));
    let m: RegExpExecArray | null;
    if ((m = /^\^\s*v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?/.exec(alt))) {
      const [a, b] = [Number(m[1]), num(m, 2)];
      upper = a > 0 || b === undefined ? [a + 1, 0, 0] : [0, b + 1, 0];
    } else if ((m = /^~>?\s*v?(\d+)(?:\.(\d+|[xX*]))?/.exec(alt))) {
      const b = num(m, 2);
      upper = b === undefined ? [Number(m[1]) + 1, 0, 0] : [Number(m[1]), b + 1, 0];
    } else if ((m = /<(=?)\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(alt))) {
      upper = [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)];
      inclusive = m[1] === '=';
    } else if ((m = /^\s*=?\s*v?(\d+)\.(\d+)\.(\d+)\s*-\s*v?(\d+)\.(\d+)\.(\d+)/.exec(alt))) {
      upper = [Number(m[4]), Number(m[5]), Number(m[6])];
      inclusive = true;
    } else if ((m = /^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.([xX*]))?$/.exec(alt)) && (m[2] === undefined || /[xX*]/.test(m[2]) || m[3])) {
      const b = num(m, 2);
      upper = b === undefined ? [Number(m[1]) + 1, 0, 0] : [Number(m[1]), b + 1, 0];
    } else if (/^(>|\*|[xX]$)/.test(alt) || alt === '') unbounded = true;
    else return undefined; // a plain version
    if (upper && (!best?.upper || cmp3(upper, best.upper) > 0)) best = { upper, inclusive };
  }
  return unbounded ? {} : best;
}

/**
 * The Argo CD minor an argo-cd Helm chart version installs (argo-helm's Chart.yaml history). A range
 * (`^7.0.0`, `~7.7.0`, `7.x`, `>=7.0.0 <8.0.0`) is resolved as Helm does: the newest chart matching it,
 * here the newest one the table knows.
 */
export function chartToLine(chartVersion: string): { line: ReleaseLine; note?: string; belowOldest?: true } | undefined {
  const table = (data as unknown as { helmChartFirstVersion?: [string, string][] }).helmChartFirstVersion ?? [];
  const rows = table.map(([first, line]) => [first.split('.').map(Number) as Triple, line] as const);
  const range = /^[\s^~<>=*xX|]|[xX*]$|\s-\s|\|\|/.test(chartVersion.trim()) ? rangeUpper(chartVersion.trim()) : undefined;
  if (range && rows.length) {
    const fits = rows.filter(([first]) => !range.upper || (range.inclusive ? cmp3(first, range.upper) <= 0 : cmp3(first, range.upper) < 0));
    const last = fits.at(-1);
    if (last)
      return {
        line: last[1],
        note: `chart range ${chartVersion}: Helm takes the newest chart that matches it; the newest known installs Argo CD ${last[1]}`,
      };
  }
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(chartVersion) ?? /(\d+)\.(\d+)/.exec(chartVersion);
  if (!m) return undefined;
  const v: Triple = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  let found: string | undefined;
  for (const [first, line] of rows) if (cmp3(v, first) >= 0) found = line;
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
    // Each pattern behind a literal it needs: one not run is not compiled (workspace/names.ts, issue 39).
    if (file.text.includes('ref=')) add(REMOTE_RE, (v) => `kustomize remote base of argoproj/argo-cd ?ref=${v}`);
    if (file.text.includes('raw.githubusercontent.com/argoproj/argo-cd/')) add(RAW_RE, (v) => `install manifest of argoproj/argo-cd ${v}`);
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

function fromDocs(workspace: WorkspaceIndex, file: IndexedFile, out: InstallEvidence[], lookup: FluxSourceLookup): void {
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
      instance?: string,
      reconciled = false,
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
        ...(instance ? { instance } : {}),
        ...(reconciled ? { reconciled: true as const } : {}),
      });
    };
    const kind = str(v.kind);
    // kustomize `images:` override of the argocd image.
    let imageTagged = false;
    if ((kind === 'Kustomization' || /^kustomization\.ya?ml$/.test(base)) && Array.isArray(v.images)) {
      for (const img of v.images) {
        const name = str(get(img, 'name')) ?? '';
        const tag = str(get(img, 'newTag'));
        if (/argoproj\/argocd$/.test(name) && tag) {
          push(parseVersion(tag), tag, `kustomize images: ${name} newTag ${tag}`);
          imageTagged = true;
        }
      }
    }
    // kustomize `helmCharts:` inflating the argo-cd chart (install/helmCharts.ts reads its values); its
    // namespace when the kustomization sets none (kustomize's `namespace:` wins over the release's). The
    // chart's Argo CD only where the same kustomization sets no argocd image tag: kustomize runs its
    // generators (helmCharts among them) before its transformers, so `images:` rewrites the chart's
    // Deployments and that tag is what runs (kustomize api/internal/target/kusttarget.go).
    if ((kind === 'Kustomization' || /^kustomization\.ya?ml$/.test(base)) && Array.isArray(v.helmCharts) && !imageTagged) {
      for (const h of v.helmCharts.slice(0, 50)) {
        const version = str(get(h, 'version'));
        if (isArgoHelmChart(h) && version)
          push(chartToLine(version), version, `argo-cd Helm chart ${version} (kustomize helmCharts)`, ns ?? str(get(h, 'namespace')));
      }
    }
    // The argo-cd chart itself (vendored) or a chart depending on it.
    if (base === 'Chart.yaml' || base === 'Chart.yml') {
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
      // `spec.chart.spec.version`, or the OCIRepository/HelmChart its `spec.chartRef` names (versions/fluxChart.ts).
      const version = fluxArgoChart(v, lookup)?.version;
      if (version) push(chartToLine(version), version, `argo-cd Helm chart ${version} (HelmRelease)`, ns, undefined, true);
    }
    if (kind === 'Application' && str(v.apiVersion)?.startsWith('argoproj.io/')) {
      const sources = [get(v, 'spec', 'source'), ...((get(v, 'spec', 'sources') as Json[] | undefined) ?? [])];
      for (const s of Array.isArray(sources) ? sources : []) {
        const rev = str(get(s, 'targetRevision'));
        if (isArgoChartSource(s) && rev)
          push(
            chartToLine(rev),
            rev,
            `argo-cd Helm chart ${rev} (Application ${str(get(v, 'metadata', 'name')) ?? ''})`.replace(' )', ')'),
            str(get(v, 'spec', 'destination', 'namespace')) ?? ns,
            `app:${file.path}#${str(get(v, 'metadata', 'name')) ?? ''}`,
            true,
          );
      }
    }
    if (kind === 'ArgoCD' && str(v.apiVersion)?.startsWith('argoproj.io/')) {
      const version = str(get(v, 'spec', 'version'));
      if (version)
        push(parseVersion(version), version, `Argo CD Operator ArgoCD ${str(get(v, 'metadata', 'name')) ?? ''} spec.version ${version}`);
    }
    // argo-cd chart values: global.image.tag (the chart's default is its appVersion), only where the
    // argo-cd chart reads them: an unrelated chart's global.image.tag is not Argo CD's version.
    if (kind === undefined && v.apiVersion === undefined) {
      for (const prefix of argoValuesKeys(workspace, file, v)) {
        const tag = str(get(v, ...prefix, 'global', 'image', 'tag'));
        const where = prefix.length ? `${prefix.join('.')}.global.image.tag` : 'global.image.tag';
        if (tag) push(parseVersion(tag), tag, `argo-cd Helm values ${where} ${tag}`);
      }
    }
  }
}

/**
 * An Argo CD Application source installs the argo-cd chart: `chart: argo-cd` (from a Helm repository), or
 * an OCI repository whose URL names the chart (`repoURL: oci://ghcr.io/argoproj/argo-helm/argo-cd`, Argo CD
 * 3.1's OCI sources, with `path:` inside the artifact and no `chart:`).
 */
export function isArgoChartSource(source: Json | undefined): boolean {
  if (get(source, 'chart') === 'argo-cd') return true;
  const url = str(get(source, 'repoURL')) ?? '';
  return get(source, 'chart') === undefined && /^oci:\/\/.*\/argo-cd\/?$/.test(url);
}

/** An OCI source: its `path:` is inside the artifact, not a folder of this repository. */
export const isOciSource = (source: Json | undefined): boolean => /^oci:\/\//.test(str(get(source, 'repoURL')) ?? '');

/**
 * A kustomize `helmCharts:` entry inflates the argo-cd chart: its `name`, or an OCI `repo` that names the
 * chart in its path (kustomize `api/types/helmchartargs.go`: `repo` is helm's `--repo`, or an `oci://` URL).
 */
export function isArgoHelmChart(entry: Json | undefined): boolean {
  if (get(entry, 'name') === 'argo-cd') return true;
  const repo = str(get(entry, 'repo')) ?? '';
  return /^oci:\/\/.*\/argo-cd\/?$/.test(repo);
}

/** The Chart.yaml beside a values file (also for `values/<env>.yaml` one folder down). */
export function chartBeside(workspace: WorkspaceIndex, file: string): { path: string; value: Json } | undefined {
  const dir = file.slice(0, file.lastIndexOf('/'));
  for (const d of [dir, dir.slice(0, dir.lastIndexOf('/'))]) {
    if (!d) continue;
    for (const name of ['Chart.yaml', 'Chart.yml']) {
      const f = workspace.file(`${d}/${name}`);
      const value = f?.docs[0]?.value;
      if (f && isObj(value)) return { path: f.path, value };
    }
  }
  return undefined;
}

/**
 * Where the argo-cd chart reads a values document: `[]` for the chart's own values, `[alias or
 * 'argo-cd']` for an umbrella chart's dependency (Helm passes a subchart the values under its name or
 * alias), nothing for another chart's values.
 */
export function argoValuesKeys(workspace: WorkspaceIndex, file: IndexedFile, v: Obj): string[][] {
  const chart = chartBeside(workspace, file.path);
  if (chart) {
    if (get(chart.value, 'name') === 'argo-cd') return [[]];
    const deps = get(chart.value, 'dependencies');
    return Array.isArray(deps) ? deps.filter((d) => get(d, 'name') === 'argo-cd').map((d) => [str(get(d, 'alias')) || 'argo-cd']) : [];
  }
  // No chart beside it: values files passed to the argo-cd chart, or an umbrella's values under argo-cd:.
  if (isObj(v['argo-cd'])) return [['argo-cd']];
  return hasArgoCdValuesKeys(v) ? [[]] : [];
}

/**
 * The Flux sources (`OCIRepository`, `HelmChart`) a HelmRelease's `chartRef` may name, among `files`: one
 * that installs argo-cd names it (`oci://…/argo-cd`, `chart: argo-cd`), so the install interest passes it.
 */
export function fluxSources(files: readonly IndexedFile[]): FluxSourceLookup {
  let docs: Json[] | undefined;
  return (kind, name, namespace) => {
    docs ??= files
      .filter((f) => /\b(OCIRepository|HelmChart)\b/.test(f.text))
      .flatMap((f) => f.docs.map((d) => d.value))
      .filter((v) => get(v, 'kind') === 'OCIRepository' || get(v, 'kind') === 'HelmChart');
    return lookupIn(docs)(kind, name, namespace);
  };
}

/** Every piece of install evidence in the workspace (files that pass `ARGOCD_INSTALL`), cached per index version. */
const cache = new WeakMap<WorkspaceIndex, { version: number; found: InstallEvidence[] }>();

export function detectInstalls(workspace: WorkspaceIndex): InstallEvidence[] {
  const hit = cache.get(workspace);
  if (hit && hit.version === workspace.version) return hit.found;
  const found: InstallEvidence[] = [];
  const files = workspace.matching(ARGOCD_INSTALL);
  const lookup = fluxSources(files);
  for (const file of files) {
    if (found.length >= MAX_EVIDENCE) break;
    fromText(file, found);
    fromDocs(workspace, file, found, lookup);
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
