/**
 * ApplicationSets declared as values of Argo CD's own `argocd-apps` Helm chart
 * (github.com/argoproj/argo-helm, charts/argocd-apps/templates/applicationsets.yaml):
 *
 *     applicationsets:            # chart 2.x: a map, the key is the ApplicationSet's name
 *       guestbook:
 *         namespace: argocd
 *         generators: [...]
 *         template: {...}
 *     applicationsets:            # chart 1.x: a list, each entry has a `name`
 *       - name: guestbook
 *         generators: [...]
 *
 * also one level down, under the chart's alias in an umbrella chart's values (`argocd-apps:`).
 * The chart renders each entry into an ApplicationSet: `namespace`, `additionalLabels`,
 * `additionalAnnotations` and `finalizers` become metadata; `goTemplate` (when the key is present),
 * `goTemplateOptions`, `generators`, `ignoreApplicationDifferences`, `strategy`, `syncPolicy`,
 * `template` and `templatePatch` become the spec (each only when set: the chart uses `with`); of
 * `template` it copies only metadata.{annotations, labels, name, namespace} and
 * spec.{project, source, sources, destination, syncPolicy, ignoreDifferences, info, sourceHydrator}.
 * Empty entries are skipped (chart 2.x `continue`s on them).
 *
 * Each entry becomes an `AppSetDoc` whose YAML document is virtual: new maps arranged as the rendered
 * ApplicationSet, holding the values file's own nodes, so every position the engine reports (spans of
 * `spec.generators[0]`, `metadata.name`, …) lands on the text the user wrote in the values file.
 */
import * as YAML from 'yaml';
import type { EngineDiagnostic, Json } from '../types';
import type { YamlDoc } from '../yaml';
import type { AppSetDoc, HelmValuesOrigin } from './documents';
import { finding } from '../diagnostics/codes';
import { hasKey, isObj, put } from '../objects';

type Obj = { [key: string]: Json };

const META_FIELDS: Record<string, string> = {
  additionalAnnotations: 'annotations',
  additionalLabels: 'labels',
  namespace: 'namespace',
  finalizers: 'finalizers',
};
const SPEC_FIELDS = [
  'goTemplate',
  'goTemplateOptions',
  'generators',
  'ignoreApplicationDifferences',
  'strategy',
  'syncPolicy',
  'template',
  'templatePatch',
];
const TEMPLATE_META_FIELDS = ['annotations', 'labels', 'name', 'namespace'];
const TEMPLATE_SPEC_FIELDS = ['project', 'source', 'sources', 'destination', 'syncPolicy', 'ignoreDifferences', 'info', 'sourceHydrator'];

/** True when the text may declare argocd-apps ApplicationSets (a cheap pre-filter for folder walks). */
export function mayHaveArgocdAppsValues(text: string): boolean {
  return /^[ \t]*applicationsets:/m.test(text);
}

/** Whether `applicationsets` is a key of the document or of one of its top-level mappings (where `argocdAppsAppSets` looks). */
function mentionsAppSets(value: { [key: string]: Json }): boolean {
  if (hasKey(value, 'applicationsets')) return true;
  for (const k in value) {
    const v = value[k];
    if (isObj(v) && hasKey(v, 'applicationsets')) return true;
  }
  return false;
}

/** The ApplicationSets an argocd-apps values document declares, plus findings about ignored fields. */
export function argocdAppsAppSets(yd: YamlDoc): { appsets: AppSetDoc[]; diagnostics: EngineDiagnostic[] } {
  const appsets: AppSetDoc[] = [];
  const diagnostics: EngineDiagnostic[] = [];
  // The value says whether there is anything to look for: most documents are not values files, and
  // a document read by fastRead.ts makes its nodes only when asked (document.ts).
  if (!isObj(yd.value) || !mentionsAppSets(yd.value)) return { appsets, diagnostics };
  const root = yd.doc.contents;
  if (!YAML.isMap(root)) return { appsets, diagnostics };
  const sites: { node: unknown; value: Json; path: (string | number)[] }[] = [];
  const top = pairOf(root, 'applicationsets');
  if (top) sites.push({ node: top.value, value: yd.value.applicationsets, path: ['applicationsets'] });
  for (const p of root.items) {
    const k = keyText(p.key);
    if (k === undefined || k === 'applicationsets' || !YAML.isMap(p.value)) continue;
    const inner = pairOf(p.value, 'applicationsets');
    const v = yd.value[k];
    if (inner && isObj(v)) sites.push({ node: inner.value, value: v.applicationsets, path: [k, 'applicationsets'] });
  }
  for (const site of sites) {
    if (YAML.isMap(site.node) && isObj(site.value)) {
      for (const p of site.node.items) {
        const name = keyText(p.key);
        if (name === undefined) continue;
        const entry = site.value[name];
        if (!YAML.isMap(p.value) || !isObj(entry) || !looksLikeEntry(entry)) continue;
        const made = makeAppSet(yd, p.value, entry, name, p.key as YAML.Scalar, { form: 'map', path: [...site.path, name] }, diagnostics);
        if (made) appsets.push(made);
      }
    } else if (YAML.isSeq(site.node) && Array.isArray(site.value)) {
      site.node.items.forEach((item, i) => {
        const entry = (site.value as Json[])[i];
        if (!YAML.isMap(item) || !isObj(entry) || !looksLikeEntry(entry)) return;
        const namePair = pairOf(item, 'name');
        const name = typeof entry.name === 'string' ? entry.name : '';
        const made = makeAppSet(
          yd,
          item,
          entry,
          name,
          namePair?.value as YAML.Node | undefined,
          { form: 'list', path: [...site.path, i] },
          diagnostics,
        );
        if (made) appsets.push(made);
      });
    }
  }
  return { appsets, diagnostics };
}

function looksLikeEntry(entry: Obj): boolean {
  return hasKey(entry, 'generators') || hasKey(entry, 'template');
}

function makeAppSet(
  yd: YamlDoc,
  node: YAML.YAMLMap,
  entry: Obj,
  name: string,
  nameNode: YAML.Node | undefined,
  origin: HelmValuesOrigin,
  diagnostics: EngineDiagnostic[],
): AppSetDoc | undefined {
  const metaNode = new YAML.YAMLMap();
  const meta: Obj = {};
  const specNode = new YAML.YAMLMap();
  const spec: Obj = {};
  // The chart writes annotations first, then labels, name, namespace, finalizers; order matters only for reading.
  for (const field of ['additionalAnnotations', 'additionalLabels']) copy(node, entry, field, META_FIELDS[field], metaNode, meta);
  const nameValue = nameNode ?? new YAML.Scalar(name);
  metaNode.items.push(new YAML.Pair(new YAML.Scalar('name'), nameValue));
  put(meta, 'name', name);
  for (const field of ['namespace', 'finalizers']) copy(node, entry, field, META_FIELDS[field], metaNode, meta);
  for (const field of SPEC_FIELDS) {
    if (field === 'template') continue;
    // goTemplate is copied whenever the key exists (hasKey), the rest only when set (with).
    copy(node, entry, field, field, specNode, spec, field === 'goTemplate');
  }
  const tplPair = pairOf(node, 'template');
  const tpl = entry.template;
  if (tplPair && YAML.isMap(tplPair.value) && isObj(tpl) && truthy(tpl)) {
    const tNode = new YAML.YAMLMap();
    const t: Obj = {};
    for (const [part, fields] of [
      ['metadata', TEMPLATE_META_FIELDS],
      ['spec', TEMPLATE_SPEC_FIELDS],
    ] as const) {
      const pp = pairOf(tplPair.value, part);
      const pv = tpl[part];
      if (!pp || !YAML.isMap(pp.value) || !isObj(pv) || !truthy(pv)) continue;
      const sub = new YAML.YAMLMap();
      const subV: Obj = {};
      for (const f of fields) copy(pp.value, pv, f, f, sub, subV, part === 'spec' && (f === 'project' || f === 'destination'));
      for (const p of pp.value.items) {
        const k = keyText(p.key);
        if (k !== undefined && !(fields as readonly string[]).includes(k)) diagnostics.push(ignored(p, `template.${part}.${k}`));
      }
      cover(sub);
      tNode.items.push(new YAML.Pair(pp.key, sub));
      put(t, part, subV);
    }
    for (const p of tplPair.value.items) {
      const k = keyText(p.key);
      if (k !== undefined && k !== 'metadata' && k !== 'spec') diagnostics.push(ignored(p, `template.${k}`));
    }
    cover(tNode);
    specNode.items.push(new YAML.Pair(tplPair.key, tNode));
    put(spec, 'template', t);
  }
  for (const p of node.items) {
    const k = keyText(p.key);
    if (k === undefined || k === 'template' || k in META_FIELDS || SPEC_FIELDS.includes(k) || (k === 'name' && origin.form === 'list'))
      continue;
    diagnostics.push(ignored(p, k));
  }
  const contents = new YAML.YAMLMap();
  contents.items.push(new YAML.Pair(new YAML.Scalar('apiVersion'), new YAML.Scalar('argoproj.io/v1alpha1')));
  contents.items.push(new YAML.Pair(new YAML.Scalar('kind'), new YAML.Scalar('ApplicationSet')));
  // The maps built here get the range their children cover, so that the located tree (ast.ts) finds
  // offsets inside them; spec comes first, as its range (generators … template) is what hovers need.
  cover(specNode);
  cover(metaNode);
  contents.items.push(new YAML.Pair(new YAML.Scalar('spec'), specNode));
  contents.items.push(new YAML.Pair(new YAML.Scalar('metadata'), metaNode));
  const start =
    nameNode?.range && origin.form === 'map' ? Math.min(nameNode.range[0], node.range?.[0] ?? Infinity) : (node.range?.[0] ?? 0);
  const end = node.range?.[2] ?? node.range?.[1] ?? start;
  const doc = new YAML.Document(null) as unknown as YAML.Document.Parsed;
  doc.contents = contents as unknown as YAML.Document.Parsed['contents'];
  doc.range = [start, end, end];
  const value: Obj = { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', metadata: meta, spec };
  return {
    index: yd.index,
    doc,
    span: { start, end },
    value,
    name,
    namespace: typeof meta.namespace === 'string' ? meta.namespace : '',
    helmValues: origin,
  };
}

/** Gives a map built in memory the range its keys and values cover in the values file. */
function cover(map: YAML.YAMLMap): void {
  let start = Infinity;
  let end = -Infinity;
  for (const p of map.items) {
    for (const n of [p.key, p.value]) {
      const r = YAML.isNode(n) ? n.range : undefined;
      if (!r || r[1] <= 0) continue;
      start = Math.min(start, r[0]);
      end = Math.max(end, r[2] ?? r[1]);
    }
  }
  if (start < end) map.range = [start, end, end];
}

/** Copies `from[field]` as `to[as]` (node and value) when the chart would render it. */
function copy(fromNode: YAML.YAMLMap, from: Obj, field: string, as: string, toNode: YAML.YAMLMap, to: Obj, whenPresent = false): void {
  const p = pairOf(fromNode, field);
  if (!p || !hasKey(from, field)) return;
  const v = from[field];
  if (!whenPresent && !truthy(v)) return;
  toNode.items.push(new YAML.Pair(p.key, p.value));
  put(to, as, v);
}

function ignored(p: YAML.Pair, what: string): EngineDiagnostic {
  const k = p.key as YAML.Node;
  const start = k.range?.[0] ?? 0;
  return finding(
    'helm/values-ignored-field',
    `the argocd-apps chart does not copy "${what}" into the ApplicationSet it renders, so it has no effect`,
    { start, end: k.range?.[1] ?? start + 1 },
  );
}

/** Go template `with`/`if` truthiness of a value from YAML. */
function truthy(v: Json | undefined): boolean {
  if (v === null || v === undefined || v === false || v === '' || v === 0) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

function pairOf(map: YAML.YAMLMap, key: string): YAML.Pair | undefined {
  return map.items.find((p) => keyText(p.key) === key) as YAML.Pair | undefined;
}

function keyText(k: unknown): string | undefined {
  if (YAML.isScalar(k)) return String(k.value);
  if (typeof k === 'string' || typeof k === 'number') return String(k);
  return undefined;
}
