/**
 * Terraform's `helm_release` of the argo-cd chart (hashicorp/terraform-provider-helm), read from the
 * workspace's `.tf` files with the bounded HCL reader (install/hcl.ts). What an install of Argo CD needs:
 * - `chart` (`argo-cd`, `<repo>/argo-cd`, `oci://…/argo-cd`) and `version` (the chart version →
 *   the Argo CD release, versions/detect.ts `chartToLine`), `namespace` (a literal, or the name of a
 *   `kubernetes_namespace` resource of the same file);
 * - the values in Helm's order, as the provider builds them (`helm/resource_helm_release.go`
 *   getValues): each entry of `values` in order (a YAML text: `file("…")` of a file in the repository, a
 *   heredoc or string without interpolation, `yamlencode`/`jsonencode` of a literal object), then the
 *   `set` entries (blocks, or the list attribute of provider 3.x), then `set_sensitive`, each a Helm
 *   `--set` path (`\.` escapes a dot in a key, as in `helm --set`).
 * What it cannot read (a `var.…` or `templatefile(…)` values entry, a `dynamic "set"`, a value that is a
 * reference) is returned as such, so the verdict says it and stays unknown.
 */
import type { Json, Span } from '../types';
import type { IndexedFile, WorkspaceIndex } from '../workspace/index';
import type { FormSink, FormSite, Placement } from './sink';
import { installOf } from './instances';
import { attr, readHcl, type HclBlock, type HclBody, type HclValue } from './hcl';
import { dirname } from '../paths';
import { joinPath } from './installers';
import { put } from '../objects';
import { chartToLine, type InstallEvidence } from '../versions/detect';
import { numericLocals, numericTemplate } from './hclNumbers';

/** One entry of `values`, in order. */
export type TerraformValues =
  | { kind: 'file'; path: string; written: string; span: Span }
  | { kind: 'yaml'; text: string; span: Span }
  | { kind: 'object'; value: Json; span: Span }
  | { kind: 'unread'; what: string; span: Span };

/** One `set`/`set_sensitive` entry: the Helm path it sets and its value (undefined: not read). */
export interface TerraformSet {
  key: string;
  value?: string;
  span: Span;
  /** What the entry is, for messages (`set configs.params…`, `dynamic "set"`). */
  what: string;
}

export interface TerraformHelmRelease {
  name: string;
  span: Span;
  version?: { text: string; span: Span };
  namespace?: string;
  values: TerraformValues[];
  sets: TerraformSet[];
}

const MAX_RELEASES = 50;
const MAX_ENTRIES = 200;
const cache = new WeakMap<IndexedFile, TerraformHelmRelease[]>();

/** A literal string (a template that interpolates is not one). */
const literal = (v: HclValue | undefined): string | undefined =>
  v?.kind === 'string' && !v.template ? v.text : v?.kind === 'literal' && v.text !== 'null' ? v.text : undefined;

const isArgoChart = (chart: string | undefined) => !!chart && /(^|\/)argo-cd\/?$/.test(chart);

/** An HCL value built only of literals, as JSON (what `yamlencode` would write); undefined otherwise. */
function toJson(v: HclValue, depth = 0): Json | undefined {
  if (depth > 32) return undefined;
  if (v.kind === 'string') return v.template ? undefined : v.text;
  if (v.kind === 'literal') return v.text === 'true' ? true : v.text === 'false' ? false : v.text === 'null' ? null : Number(v.text);
  if (v.kind === 'list') {
    const out: Json[] = [];
    for (const item of v.items) {
      const j = toJson(item, depth + 1);
      if (j === undefined) return undefined;
      out.push(j);
    }
    return out;
  }
  if (v.kind === 'object') {
    const out: { [k: string]: Json } = {};
    for (const a of v.attrs) {
      const j = toJson(a.value, depth + 1);
      if (j === undefined) return undefined;
      put(out, a.name, j);
    }
    return out;
  }
  return undefined;
}

/** A `file()` path: relative to the module's folder; `${path.module}`/`${path.root}`/`${path.cwd}` are that folder. */
function filePath(arg: HclValue | undefined, dir: string): string | undefined {
  if (arg?.kind !== 'string') return undefined;
  const text = arg.text.replace(/^\$\{path\.(module|root|cwd)\}\/?/, '');
  if (/\$\{|%\{/.test(text)) return undefined;
  return joinPath(dir, text);
}

/** A controller setting the install model reads, named on a line (its value must not be a placeholder). */
const NAMES_SETTING =
  /progressive|PROGRESSIVE|applicationsetcontroller|APPLICATIONSET_CONTROLLER|argocd-cmd-params-cm|applicationset-controller|git\.file\.globbing|namespaces/;

/** Helm value paths of the argo-cd chart the install model reads (install/scanHelmValues.ts). */
const READ_PATHS = [['configs', 'params'], ['applicationSet'], ['global', 'env'], ['global', 'image']];

/** True when a computed value at `path` is, holds or lies inside a value the install model reads. */
const touchesSettings = (path: string[]) => READ_PATHS.some((r) => r.every((k, i) => i >= path.length || path[i] === k));

/** `toJson` for an object literal whose leaves may be computed: those are left out and their paths listed. */
function toJsonLoose(v: HclValue, path: string[], computed: string[][], depth = 0): Json | undefined {
  if (depth > 32 || computed.length > MAX_ENTRIES) return undefined;
  if (v.kind === 'object') {
    const out: { [k: string]: Json } = {};
    for (const a of v.attrs) {
      // A key Terraform computes (`(var.k) = …`) could be any key.
      if (/^\(|\$\{/.test(a.name)) return undefined;
      const j = toJsonLoose(a.value, [...path, a.name], computed, depth + 1);
      if (j !== undefined) put(out, a.name, j);
    }
    return out;
  }
  const j = toJson(v, depth);
  if (j === undefined) computed.push(path);
  return j;
}

function valuesEntry(v: HclValue, dir: string, numeric: ReadonlySet<string>): TerraformValues {
  const span = v.span;
  if (v.kind === 'string') {
    if (!v.template) return { kind: 'yaml', text: v.text, span };
    // Interpolations that can only be numbers keep the YAML's shape (install/hclNumbers.ts); a line naming a
    // controller setting that interpolates is still not read, since its value is what the model would read.
    const text = numericTemplate(v.text, numeric);
    const settingInterpolated = v.text.split('\n').some((l) => /\$\{/.test(l) && NAMES_SETTING.test(l));
    return text !== undefined && !settingInterpolated
      ? { kind: 'yaml', text, span }
      : { kind: 'unread', what: 'a values text that interpolates Terraform values', span };
  }
  if (v.kind === 'call' && v.name === 'file' && v.args.length === 1) {
    const path = filePath(v.args[0], dir);
    const written = v.args[0].kind === 'string' ? v.args[0].text : '…';
    return path ? { kind: 'file', path, written, span } : { kind: 'unread', what: `file("${written}"), a path Terraform computes`, span };
  }
  if (v.kind === 'call' && (v.name === 'yamlencode' || v.name === 'jsonencode') && v.args.length === 1) {
    const value = toJson(v.args[0]);
    if (value !== undefined) return { kind: 'object', value, span };
    // yamlencode quotes what Terraform computes: a computed value stays at its key and cannot add others
    // (Terraform's yamlencode/jsonencode marshal the value). Away from what the install model reads, it is
    // left out; at or above such a key, the entry is not read.
    const computed: string[][] = [];
    const loose = toJsonLoose(v.args[0], [], computed);
    if (loose !== undefined && !computed.some(touchesSettings)) return { kind: 'object', value: loose, span };
    return { kind: 'unread', what: `${v.name}(…) of values Terraform computes`, span };
  }
  if (v.kind === 'call') return { kind: 'unread', what: `${v.name}(…), computed by Terraform`, span };
  return { kind: 'unread', what: v.kind === 'expr' ? v.text.slice(0, 80) : 'a value it cannot read', span };
}

function setEntry(name: HclValue | undefined, value: HclValue | undefined, span: Span, kind: string): TerraformSet {
  const key = literal(name);
  if (key === undefined) return { key: '', span, what: `${kind} with a name Terraform computes` };
  const v = literal(value);
  return { key, ...(v !== undefined ? { value: v } : {}), span, what: `${kind} ${key}` };
}

/** The namespace a `namespace` attribute names: a literal, or a `kubernetes_namespace` resource's name in the same file. */
function namespaceOf(v: HclValue | undefined, top: HclBody): string | undefined {
  const lit = literal(v);
  if (lit !== undefined) return lit;
  const m = v?.kind === 'expr' ? /^(kubernetes_namespace(?:_v1)?)\.([A-Za-z0-9_-]+)\.metadata\[0\]\.name$/.exec(v.text) : null;
  if (!m) return undefined;
  const ns = top.blocks.find((b) => b.type === 'resource' && b.labels[0] === m[1] && b.labels[1] === m[2]);
  const meta = ns?.body.blocks.find((b) => b.type === 'metadata');
  return meta ? literal(attr(meta.body, 'name')) : undefined;
}

function release(block: HclBlock, top: HclBody, dir: string): TerraformHelmRelease | undefined {
  const body = block.body;
  if (!isArgoChart(literal(attr(body, 'chart')))) return undefined;
  const version = attr(body, 'version');
  const versionText = literal(version);
  const values: TerraformValues[] = [];
  const list = attr(body, 'values');
  const numeric = numericLocals(top);
  if (list?.kind === 'list') for (const item of list.items.slice(0, MAX_ENTRIES)) values.push(valuesEntry(item, dir, numeric));
  else if (list) values.push(valuesEntry(list, dir, numeric));
  const sets: TerraformSet[] = [];
  for (const kind of ['set', 'set_sensitive']) {
    for (const b of body.blocks.slice(0, MAX_ENTRIES)) {
      if (b.type === kind) sets.push(setEntry(attr(b.body, 'name'), attr(b.body, 'value'), b.span, kind));
      else if (b.type === 'dynamic' && b.labels[0] === kind)
        sets.push({ key: '', span: b.span, what: `dynamic "${kind}" (its entries are computed by Terraform)` });
    }
    const a = body.attrs.find((x) => x.name === kind);
    if (a?.value.kind === 'list')
      for (const item of a.value.items.slice(0, MAX_ENTRIES)) {
        if (item.kind !== 'object') sets.push({ key: '', span: item.span, what: `a ${kind} entry Terraform computes` });
        else {
          const get = (n: string) => item.attrs.find((x) => x.name === n)?.value;
          sets.push(setEntry(get('name'), get('value'), item.span, kind));
        }
      }
    else if (a)
      sets.push({
        key: '',
        span: a.span,
        what: `${kind} = ${a.value.kind === 'expr' ? a.value.text.slice(0, 80) : '…'} (computed by Terraform)`,
      });
  }
  return {
    name: block.labels[1] ?? '',
    span: block.span,
    ...(versionText !== undefined && version ? { version: { text: versionText, span: version.span } } : {}),
    namespace: namespaceOf(attr(body, 'namespace'), top),
    values,
    sets,
  };
}

/** The `helm_release` resources of the argo-cd chart in one `.tf` file (read once per file version). */
export function terraformHelmReleases(file: IndexedFile): TerraformHelmRelease[] {
  const hit = cache.get(file);
  if (hit) return hit;
  let out: TerraformHelmRelease[] = [];
  if (file.text.includes('helm_release') && file.text.includes('argo-cd')) {
    const top = readHcl(file.text);
    out = top.blocks
      .filter((b) => b.type === 'resource' && b.labels[0] === 'helm_release')
      .slice(0, MAX_RELEASES)
      .map((b) => release(b, top, dirname(file.path)))
      .filter((r): r is TerraformHelmRelease => !!r);
  }
  cache.set(file, out);
  return out;
}

/** The version each argo-cd `helm_release` states (its chart version), as the version detector's evidence. */
export function terraformVersions(files: readonly IndexedFile[]): InstallEvidence[] {
  const out: InstallEvidence[] = [];
  for (const file of files)
    for (const r of terraformHelmReleases(file)) {
      const line = r.version ? chartToLine(r.version.text) : undefined;
      if (!r.version || !line) continue;
      out.push({
        file: file.path,
        span: r.version.span,
        ...line,
        description: `argo-cd Helm chart ${r.version.text} (Terraform helm_release ${r.name})`,
        ...(r.namespace ? { namespace: r.namespace } : {}),
      });
    }
  return out;
}

/** The argo-cd helm_releases of the workspace's Terraform files, each with its install key (the file's folder's). */
export function terraformReleases(workspace: WorkspaceIndex): { file: IndexedFile; release: TerraformHelmRelease; key: string }[] {
  return workspace
    .terraformFiles()
    .flatMap((file) => terraformHelmReleases(file).map((release) => ({ file, release, key: installOf(file.path).key })));
}

type Releases = ReturnType<typeof terraformReleases>;

/** Before the scan: the values files a helm_release reads with `file(…)`, that install's, in Helm's order. */
export function selectTerraformValues(sink: FormSink, releases: Releases): void {
  for (const { release, key } of releases)
    release.values.forEach((v, i) => {
      if (v.kind === 'file')
        sink.select(
          v.path,
          { key, namespace: release.namespace, chain: `${key}#tf:${release.name}`, rank: i + 1 },
          `Terraform helm_release ${release.name} values file(${v.written})`,
        );
    });
}

/**
 * A helm_release of argo-cd is an install: its inline values and `set` entries are read in the
 * provider's order (values, then set), what it cannot read is said as not read (the verdict is then
 * unknown). Terraform files are not YAML: their findings carry their span.
 */
export function checkTerraform(sink: FormSink, releases: Releases): void {
  for (const { file, release, key } of releases) {
    const site = (span: Span): FormSite => ({ file, docIndex: -1, path: [], inner: true, span });
    const who = `Terraform helm_release ${release.name}`;
    const chain = `${key}#tf:${release.name}`;
    const place = (rank: number): Placement => ({ key, namespace: release.namespace, chain, rank });
    sink.install(site(release.span), { key, namespace: release.namespace });
    release.values.forEach((v, i) => {
      const at = place(i + 1);
      if (v.kind === 'unread') sink.unread(site(v.span), at, `${who} values: not read (${v.what})`);
      else if (v.kind === 'file' && !sink.workspace.file(v.path))
        sink.unread(site(v.span), at, `${who} values file(${v.written}): not read (not in the repository)`);
      else if (v.kind === 'object') sink.values(site(v.span), at, v.value, `${who} values`);
      else if (v.kind === 'yaml') for (const doc of sink.parse(v.text)) sink.values(site(v.span), at, doc, `${who} values`);
    });
    release.sets.forEach((st, i) => {
      const at = place(1000 + i);
      // Helm's --set path: `\.` is a dot inside a key.
      const name = st.key.replace(/\\/g, '');
      const kind = st.what.split(' ')[0];
      const relevant = name.startsWith('configs.params.') || /^applicationSet\.extra(Args|Env)\b/.test(name) || /^global\.env\b/.test(name);
      if (!st.key) sink.unread(site(st.span), at, `${who} ${st.what}: not read`);
      else if (relevant && st.value === undefined)
        sink.unread(site(st.span), at, `${who} ${st.what}: not read (its value is computed by Terraform)`);
      else if (st.value !== undefined && name.startsWith('configs.params.'))
        sink.param(site(st.span), at, name.slice('configs.params.'.length), st.value, `${who} ${kind}`);
      else if (st.value !== undefined && /^applicationSet\.extraArgs\[\d+\]$/.test(name))
        sink.arg(site(st.span), at, st.value, `${who} ${kind}`);
    });
  }
}
