/**
 * Provenance of parameter sets in words and places: the generators tag every set with origins
 * (`spec/generators/0/list/elements/2`, `cluster:<name>`, `git:<path>`, `sample:<kind>/<n>`, see
 * GeneratedApp.origins); this turns them into `Source`s — a label a message can print and a location
 * (file + span) related information and hovers can point at.
 */
import type { SourceText } from '../inputs';
import type { Source, Span } from '../types';
import { lineOfOffset, lineStarts, type JsonPath } from '../yaml';
import type { AppSetDoc } from '../kinds';
import { fieldsOf } from '../fields/appset';
import { inGenerators } from '../fields/generatorFields';
import { loadInventory, type Cluster } from '../generators/inventory';

export type SourceResolver = (origins: readonly string[] | undefined) => Source[];

/** A resolver for one expansion (clusters looked up once; every origin resolved once). */
export function sourceResolver(
  doc: AppSetDoc,
  file: SourceText,
  originFiles: ReadonlyMap<string, { path: string; directory: boolean }>,
): SourceResolver {
  let clusters: Map<string, Cluster> | undefined;
  const memo = new Map<string, Source | null>();
  const here = file.path ?? file.uri;
  const roots = [...file.host.roots()].sort((a, b) => b.length - a.length);
  const rel = (p: string) => {
    const r = roots.find((x) => p.startsWith(x.endsWith('/') ? x : x + '/'));
    return r ? p.slice(r.length).replace(/^\/+/, '') : p.slice(p.lastIndexOf('/') + 1);
  };
  // Lines by binary search over each text's line starts, computed once per resolver: a list of
  // hundreds of elements must not scan the text from its start for every element.
  const starts = new Map<string, { text: string; starts: readonly number[] }>();
  const lineAt = (p: string, text: string, offset: number) => {
    let s = starts.get(p);
    if (!s || s.text !== text) starts.set(p, (s = { text, starts: lineStarts(text) }));
    return lineOfOffset(s.starts, offset) + 1;
  };
  // Another file's line: its text from the workspace index (where the inventory read it).
  const whereOf = (p: string, span?: { start: number }) => {
    const text = span ? (p === here ? file.text : file.workspace.file(p)?.text) : undefined;
    return `${rel(p)}${text !== undefined && span ? ':' + lineAt(p, text, span.start) : ''}`;
  };
  // This file's own name is made when a source is first read, not for every expansion (a resolver is
  // made for each ApplicationSet expanded; most answers read no Application's sources).
  let relHere: string | undefined;
  const one = (o: string): Source | null => {
    if (o.startsWith('cluster:')) {
      const name = o.slice('cluster:'.length);
      if (!clusters) {
        clusters = new Map();
        // Last wins, as the cluster generator de-duplicates by name.
        for (const c of loadInventory(file).clusters) clusters.set(c.name, c);
      }
      const c = clusters.get(name);
      if (!c) return { kind: 'cluster', label: name === 'in-cluster' ? 'the implicit in-cluster entry' : `cluster "${name}"` };
      return {
        kind: 'cluster',
        label: c.label ?? `cluster "${name}"`,
        location: { file: c.file, span: c.span },
        where: whereOf(c.file, c.span),
      };
    }
    if (o.startsWith('git:')) {
      const inRepo = o.slice('git:'.length);
      const f = originFiles.get(o);
      const isFile = f ? !f.directory : false;
      return {
        kind: isFile ? 'git-file' : 'git-directory',
        label: `git ${isFile ? 'file' : 'directory'} ${inRepo}`,
        location: f ? { file: f.path } : undefined,
        where: f ? rel(f.path) : inRepo,
      };
    }
    if (o.startsWith('sample:')) {
      const [kind, n] = o.slice('sample:'.length).split('/');
      return { kind: 'sample', label: `sample ${Number(n) + 1} of samples.${kind}` };
    }
    if (o.startsWith('spec/')) {
      const { path, span } = originPlace(doc, o);
      const last = path[path.length - 1];
      const label =
        typeof last === 'number'
          ? `list element ${last + 1}${path[path.length - 2] === 'elementsYaml' ? ' of elementsYaml' : ''}`
          : 'list element';
      return {
        kind: 'list-element',
        label,
        location: span ? { file: here, span: firstLine(file.text, span) } : { file: here },
        where: `${(relHere ??= rel(here))}${span ? ':' + lineAt(here, file.text, span.start) : ''}`,
      };
    }
    return null;
  };
  return (origins) => {
    const out: Source[] = [];
    for (const o of origins ?? []) {
      let s = memo.get(o);
      if (s === undefined) memo.set(o, (s = one(o)));
      if (s) out.push(s);
    }
    return out;
  };
}

/**
 * Where a list-element origin (`spec/generators/0/list/elements/2`) is written: its path and the span
 * of the element (its key's when it has no value). The generators run on values and tag a parameter
 * set with the element's path below its generator entry; the place is walked from that entry's field
 * in the located fields (`fields/generatorFields.ts` `inGenerators`), the one place such an origin becomes a place.
 */
export function originPlace(doc: AppSetDoc, origin: string): { path: JsonPath; span?: Span } {
  const path: JsonPath = origin.split('/').map((s) => (isIndex(s) ? Number(s) : s));
  const at = inGenerators(fieldsOf(doc).generatorList, path);
  return { path, span: at?.valueRange ?? at?.keyRange };
}

/** A path segment that is an array index (digits only). */
function isIndex(s: string): boolean {
  if (!s.length) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** A multi-line element is pointed at by its first line (a related-information link, not a block). */
function firstLine(text: string, span: { start: number; end: number }): { start: number; end: number } {
  const nl = text.indexOf('\n', span.start);
  return { start: span.start, end: nl >= 0 && nl < span.end ? nl : span.end };
}
