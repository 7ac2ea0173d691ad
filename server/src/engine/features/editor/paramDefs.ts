/**
 * Where a parameter is defined: the generators that put it into the parameter sets, placed in the
 * files the user wrote — the list element's key, the generator's `values:` entry, the cluster
 * Secret's `name`/`server`/label line, the git generator's pattern (for `path…` params) or the key
 * in the git file it read. Used by go to definition, find references, rename and completion (the
 * "source" of a parameter).
 *
 * Provenance comes from the expansion (`GeneratedApp.origins`: list element paths, `cluster:<name>`,
 * `git:<path>`); sources that need no data (list elements, `values`) are also found statically, so
 * go to definition works when the generators yield nothing offline.
 */
import { astOf, documentsWithValues, parseGoYamlDocument, type YamlDocument, nodeAt, type JsonPath } from '../../yaml';
import { sub, subPath, type Field } from '../../fields/place';
import type { AppSetContext } from '../context';
import type { Span } from '../../types';
import { has } from '../../generators/params';
import { isObj } from '../../objects';
import { loadInventory, type Cluster } from '../../generators/inventory';
import { resolveCheckout } from '../../generators/git';
import { generatorSpecs, goTemplateOf } from './paramUses';
import { valueSpan } from '../../yaml';

export interface ParamDef {
  /** Absolute path of another file, or the document's URI. */
  file: string;
  span: Span;
  /** Where it comes from, in words: `list element 2`, `cluster Secret prod-eu-1`, `values of the git generator`. */
  source: string;
  /** Keys written in the document or the workspace (list elements, literal elementsYaml, values, git files) can be renamed with their uses. */
  renamable: boolean;
}

/** Definitions shown by go to definition and references (an answer a person reads). */
const MAX_DEFS = 200;
/**
 * Definitions rename changes: every one a document can hold in practice (a list of 50,000 elements is
 * over 1 MB). Past it, rename refuses rather than change some and leave the others with the old key.
 */
export const MAX_RENAME_DEFS = 50_000;

/**
 * The definitions of a parameter. `path` is the reference's path (goTemplate: segments; fasttemplate:
 * one flat key, split here on the generators' own flattening rules). At most 200 (go to definition,
 * references); `paramDefinitionsUpTo` says whether there were more.
 */
export function paramDefinitions(ctx: AppSetContext, path: string[]): ParamDef[] {
  return paramDefinitionsUpTo(ctx, path, MAX_DEFS).defs;
}

/** The definitions of a parameter, at most `max`; `cut` when there were more (rename then refuses). */
export function paramDefinitionsUpTo(ctx: AppSetContext, path: string[], max: number): { defs: ParamDef[]; cut: boolean } {
  const goTemplate = goTemplateOf(ctx);
  const out: ParamDef[] = [];
  const seen = new Set<string>();
  let cut = false;
  const add = (d: ParamDef) => {
    const k = `${d.file}@${d.span.start}`;
    if (seen.has(k)) return;
    if (out.length >= max) {
      cut = true;
      return;
    }
    seen.add(k);
    out.push(d);
  };
  const uri = ctx.file.uri;
  const gens = generatorSpecs(ctx);

  // Static: list elements and `values:` of every generator.
  for (const g of gens) {
    if (g.kind === 'list' && Array.isArray(g.spec.elements)) {
      g.spec.elements.forEach((el, i) => {
        if (!isObj(el)) return;
        const keyPath = elementKeyPath(el, path, goTemplate);
        if (!keyPath) return;
        const n = subPath(sub(sub(g.at, 'elements'), i), keyPath);
        if (n.exact && n.keyRange) add({ file: uri, span: n.keyRange, source: `list element ${i + 1}`, renamable: true });
      });
    }
    if (g.kind === 'list' && typeof g.spec.elementsYaml === 'string')
      for (const d of elementsYamlDefs(ctx, sub(g.at, 'elementsYaml'), g.spec.elementsYaml, path, goTemplate, max + 1)) add(d);
    const valuesKey = valuesKeyOf(path, goTemplate);
    if (valuesKey !== undefined && isObj(g.spec.values) && has(g.spec.values, valuesKey)) {
      const n = sub(sub(g.at, 'values'), valuesKey);
      if (n.keyRange) add({ file: uri, span: n.keyRange, source: `values of the ${g.kind} generator`, renamable: true });
    }
    if ((g.kind === 'git' || g.kind === 'oci') && isGitPathParam(path, goTemplate, String(g.spec.pathParamPrefix ?? ''))) {
      for (const list of ['files', 'directories']) {
        const entries = g.spec[list];
        if (!Array.isArray(entries)) continue;
        entries.forEach((e, i) => {
          if (!isObj(e) || e.exclude === true) return;
          const n = sub(sub(sub(g.at, list), i), 'path');
          if (n.valueRange) add({ file: uri, span: n.valueRange, source: `git ${list} pattern`, renamable: false });
        });
      }
    }
  }

  // From the expansion: cluster Secrets and git files behind the parameter sets that have it.
  const exp = ctx.expansion();
  const origins = new Set<string>();
  for (const a of exp.apps) for (const o of a.origins ?? []) origins.add(o);
  const inv = [...origins].some((o) => o.startsWith('cluster:')) ? loadInventory(ctx.file) : undefined;
  for (const o of origins) {
    if (cut) break;
    if (o.startsWith('cluster:') && inv) {
      const key = clusterKeyOf(path, goTemplate);
      if (!key) continue;
      const name = o.slice('cluster:'.length);
      const c = inv.clusters.find((x) => x.name === name);
      if (!c) continue;
      const at = locateCluster(ctx, c, key);
      if (at) add({ file: c.file, span: at, source: `cluster ${c.name}`, renamable: false });
    } else if (o.startsWith('git:')) {
      const rel = o.slice('git:'.length);
      for (const g of gens) {
        if (g.kind !== 'git' || !Array.isArray(g.spec.files)) continue;
        const root = resolveCheckout(String(g.spec.repoURL ?? ''), ctx.file);
        if (!root) continue;
        for (const at of fileKeySpans(ctx, `${root}/${rel}`, path, goTemplate, max + 1))
          add({ file: `${root}/${rel}`, span: at, source: `git file ${rel}`, renamable: true });
      }
    }
  }

  // Nothing placed: the generator kinds that provide such a parameter (the cluster generator for `.name`).
  if (!out.length) {
    for (const g of gens) {
      if (
        (g.kind === 'clusters' && clusterKeyOf(path, goTemplate)) ||
        ((g.kind === 'git' || g.kind === 'oci') && isGitPathParam(path, goTemplate, String(g.spec.pathParamPrefix ?? '')))
      ) {
        if (g.at.keyRange) add({ file: uri, span: g.at.keyRange, source: `the ${g.kind} generator`, renamable: false });
      }
    }
  }
  return { defs: out, cut };
}

/** The key path inside a list element that defines `path`, or undefined. */
function elementKeyPath(el: Record<string, unknown>, path: string[], goTemplate: boolean): string[] | undefined {
  if (!goTemplate) {
    const flat = path[0];
    if (has(el, flat)) return [flat];
    if (flat.startsWith('values.') && isObj(el.values) && has(el.values, flat.slice(7))) return ['values', flat.slice(7)];
    return undefined;
  }
  // The deepest existing key of the path (`.config.replicas` → config.replicas, or config when it is not a map).
  let cur: unknown = el;
  const keys: string[] = [];
  for (const seg of path) {
    if (!isObj(cur) || !has(cur, seg)) break;
    keys.push(seg);
    cur = cur[seg];
  }
  return keys.length ? keys : undefined;
}

function valuesKeyOf(path: string[], goTemplate: boolean): string | undefined {
  if (goTemplate) return path[0] === 'values' && path.length >= 2 ? path[1] : undefined;
  return path[0].startsWith('values.') ? path[0].slice(7) : undefined;
}

type ClusterKey = { field: 'name' | 'server' | 'project' } | { labels: 'labels' | 'annotations'; key?: string };

/** Which part of a cluster Secret defines the parameter (name, server, project, a label or annotation). */
function clusterKeyOf(path: string[], goTemplate: boolean): ClusterKey | undefined {
  const segs = goTemplate ? path : splitClusterFlat(path[0]);
  const [first, second] = segs;
  if (first === 'name' || first === 'nameNormalized') return { field: 'name' };
  if (first === 'server' || first === 'project') return { field: first };
  if (first === 'metadata' && (second === 'labels' || second === 'annotations')) return { labels: second, key: segs[2] };
  return undefined;
}

/** fasttemplate's cluster keys are `metadata.labels.<key>` where the key may itself hold dots. */
function splitClusterFlat(flat: string): string[] {
  const m = /^metadata\.(labels|annotations)\.(.+)$/.exec(flat);
  return m ? ['metadata', m[1], m[2]] : [flat];
}

function isGitPathParam(path: string[], goTemplate: boolean, prefix: string): boolean {
  const want = prefix ? `${prefix}.path` : 'path';
  if (goTemplate) {
    const p = prefix ? [prefix, 'path'] : ['path'];
    return p.every((s, i) => path[i] === s);
  }
  return path[0] === want || path[0].startsWith(want + '.') || path[0].startsWith(want + '[');
}

/** The span of a cluster's name/server/label in its Secret (or inventory entry). */
function locateCluster(ctx: AppSetContext, c: Cluster, key: ClusterKey): Span | undefined {
  const f = ctx.file.workspace.file(c.file);
  if (!f) return undefined;
  for (const { doc, value: v } of documentsWithValues(f.text)) {
    if (!isObj(v)) continue;
    if (v.kind === 'Secret') {
      const sd = isObj(v.stringData) && has(v.stringData, 'name') ? 'stringData' : 'data';
      const name =
        sd === 'stringData'
          ? String((v.stringData as Record<string, unknown>).name ?? '')
          : decode((v.data as Record<string, unknown> | undefined)?.name);
      if (name !== c.name) continue;
      return spanIn(
        doc,
        'field' in key ? [sd, key.field] : key.key !== undefined ? ['metadata', key.labels, key.key] : ['metadata', key.labels],
        ['metadata', 'name'],
      );
    }
    if (v.kind === 'ClusterInventory' && Array.isArray(v.clusters)) {
      const i = v.clusters.findIndex((x) => isObj(x) && String(x.name ?? '') === c.name);
      if (i < 0) continue;
      return spanIn(
        doc,
        'field' in key
          ? ['clusters', i, key.field]
          : key.key !== undefined
            ? ['clusters', i, key.labels, key.key]
            : ['clusters', i, key.labels],
        ['clusters', i],
      );
    }
  }
  return undefined;
}

function spanIn(doc: YamlDocument, path: JsonPath, fallback: JsonPath): Span | undefined {
  const n = nodeAt(doc, path);
  if (n.exact) return n.key ?? n.value;
  const f = nodeAt(doc, fallback);
  return f.key ?? f.value;
}

function decode(v: unknown): string {
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/**
 * The keys of a git generator's parameter file that define `path` (the deepest existing key of the
 * path, in the file's object or in each item when the file holds a list).
 */
function fileKeySpans(ctx: AppSetContext, file: string, path: string[], goTemplate: boolean, max: number): Span[] {
  const text = ctx.file.host.readFile(file);
  if (text === undefined) return [];
  const d = parseGoYamlDocument(text);
  if (!d) return [];
  return keySpansIn(d, goTemplate ? path : path[0].split('.'), max);
}

/** In a parsed parameter document (an object, or a list of objects), the deepest key of `segs` in each. */
function keySpansIn(d: YamlDocument, segs: string[], max: number): Span[] {
  const tryAt = (prefix: JsonPath) => {
    for (let n = segs.length; n >= 1; n--) {
      const r = nodeAt(d, [...prefix, ...segs.slice(0, n)]);
      if (r.exact && r.key) return r.key;
    }
    return undefined;
  };
  const root = astOf(d);
  const out: Span[] = [];
  if (root?.kind === 'array') {
    for (let i = 0; i < root.items.length && out.length < max; i++) {
      const s = tryAt([i]);
      if (s) out.push(s);
    }
    return out;
  }
  const s = tryAt([]);
  return s ? [s] : [];
}

/**
 * Keys of a list generator's `elementsYaml` that define `path`, placed in the document. A templated
 * elementsYaml (`{{ .x | toJson }}`) has no keys of its own: its parameters come from elsewhere.
 */
function elementsYamlDefs(ctx: AppSetContext, at: Field, raw: string, path: string[], goTemplate: boolean, max: number): ParamDef[] {
  const value = at.valueRange;
  if (!at.exact || !value || !at.keyRange) return [];
  if (raw.includes('{{')) return [];
  const d = parseGoYamlDocument(raw);
  if (!d) return [];
  const segs = goTemplate ? path : path[0].startsWith('values.') ? ['values', path[0].slice(7)] : [path[0]];
  const out: ParamDef[] = [];
  for (const s of keySpansIn(d, segs, max)) {
    const span = valueSpan(ctx.file.text, value, raw, s.start, s.end - s.start);
    if (span) out.push({ file: ctx.file.uri, span, source: "the list's elementsYaml", renamable: true });
  }
  return out;
}
