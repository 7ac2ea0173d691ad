/**
 * Generator structure checks (Argo CD `applicationset/generators/matrix.go`, `merge.go`,
 * `generator_spec_processor.go`, `applicationset/utils/utils.go` `CheckInvalidGenerators`): matrix has exactly two children, merge at least two plus mergeKeys, each child sets
 * exactly one kind, matrix/merge nest one level at most, and entries that generate nothing.
 */
import type { EngineDiagnostic, Json, Span } from '../../types';
import { nodeAt, spanAt, type AppSetDoc, type JsonPath } from '../../yaml';
import { isObj as isObject, own } from '../../objects';
import { checkLabelSelector } from './selectors';
import { diag } from './util';
import { kindsOf } from '../../rules/generators';

/** Bound on generator entries looked at per level (a hostile file could list millions). */
const MAX_ENTRIES = 1000;

export { GENERATOR_KINDS, kindsOf } from '../../rules/generators';

export function checkGenerators(doc: AppSetDoc, text: string): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const gens = own(own(doc.value, 'spec'), 'generators');
  if (!Array.isArray(gens)) return out;
  gens.slice(0, MAX_ENTRIES).forEach((entry: Json, i: number) => {
    const path: JsonPath = ['spec', 'generators', i];
    const kinds = kindsOf(entry);
    if (kinds.length === 0 && entry !== null) {
      // (a null entry is a schema type error already)
      out.push(
        diag(
          'appset/empty-generator',
          'this generator entry sets no generator (list, clusters, git, matrix, …), so it produces no Applications',
          itemSpan(doc, text, path),
        ),
      );
    } else if (kinds.length > 1) {
      out.push(
        diag(
          'appset/multiple-generator-kinds',
          `this entry sets ${kinds.length} generators (${kinds.join(', ')}); each runs separately and their Applications are added together, not combined — use a matrix to combine them`,
          spanAt(doc.doc, [...path, kinds[1]], 'key'),
        ),
      );
    }
    checkEntry(doc, text, entry, path, 1, out);
  });
  return out;
}

/** Checks one generator entry at nesting `level` (1 = top level) and recurses into matrix/merge. */
function checkEntry(doc: AppSetDoc, text: string, entry: Json, path: JsonPath, level: number, out: EngineDiagnostic[]): void {
  if (!isObject(entry)) return;
  const selector = own(entry, 'selector');
  if (selector !== undefined) out.push(...checkLabelSelector(doc, [...path, 'selector'], selector, 'post-selector'));
  const clusters = own(entry, 'clusters');
  if (isObject(clusters) && own(clusters, 'selector') !== undefined) {
    out.push(...checkLabelSelector(doc, [...path, 'clusters', 'selector'], own(clusters, 'selector'), 'cluster selector'));
  }
  const cdr = own(entry, 'clusterDecisionResource');
  if (isObject(cdr) && own(cdr, 'labelSelector') !== undefined) {
    out.push(
      ...checkLabelSelector(doc, [...path, 'clusterDecisionResource', 'labelSelector'], own(cdr, 'labelSelector'), 'label selector'),
    );
  }

  out.push(...gitNegations(doc, text, entry, path));
  const matrix = own(entry, 'matrix');
  if (isObject(matrix)) out.push(...matrixPathClash(doc, own(doc.value, 'spec'), own(matrix, 'generators'), [...path, 'matrix']));

  for (const kind of ['matrix', 'merge'] as const) {
    const g = own(entry, kind);
    if (!isObject(g)) continue;
    const gPath = [...path, kind];
    if (level >= 3) continue; // already reported by the parent as too deep
    const children = own(g, 'generators');
    if (Array.isArray(children)) {
      const n = children.length;
      const at = spanAt(doc.doc, [...gPath, 'generators'], 'key');
      if (kind === 'matrix' && n !== 2) {
        out.push(
          diag(
            'appset/matrix-children',
            `a matrix generator combines exactly two child generators, this one has ${n}${n > 2 ? ' (nest a matrix inside the matrix to combine more)' : ''}; the whole ApplicationSet fails`,
            at,
          ),
        );
      }
      if (kind === 'merge' && n < 2) {
        out.push(
          diag(
            'appset/merge-children',
            `a merge generator needs at least two child generators, this one has ${n}; the whole ApplicationSet fails`,
            at,
          ),
        );
      }
      children.slice(0, MAX_ENTRIES).forEach((child: Json, j: number) => {
        const cPath = [...gPath, 'generators', j];
        const kinds = kindsOf(child);
        if (level === 2) {
          for (const deep of kinds.filter((k) => k === 'matrix' || k === 'merge')) {
            out.push(
              diag(
                'appset/nesting-depth',
                `a ${deep} inside a nested ${kind} is not supported: matrix/merge can be nested only one level deep; the controller drops it, so this child generates nothing and the ${kind} fails`,
                spanAt(doc.doc, [...cPath, deep], 'key'),
              ),
            );
          }
        }
        if (kinds.length === 0) {
          out.push(
            diag(
              'appset/child-generator-kinds',
              `this ${kind} child sets no generator; the ${kind} fails with "child generator generated no parameters"`,
              itemSpan(doc, text, cPath),
            ),
          );
        } else if (kinds.length > 1) {
          out.push(
            diag(
              'appset/child-generator-kinds',
              `this ${kind} child sets ${kinds.length} generators (${kinds.join(', ')}); each ${kind} child must set exactly one, otherwise the ${kind} fails`,
              spanAt(doc.doc, [...cPath, kinds[1]], 'key'),
            ),
          );
        }
        checkEntry(doc, text, child, cPath, level + 1, out);
      });
    }
    if (kind === 'merge') {
      const keys = own(g, 'mergeKeys');
      if (Array.isArray(keys) && keys.length === 0) {
        out.push(
          diag(
            'appset/merge-keys',
            'mergeKeys is empty; a merge generator needs at least one key to match parameter sets on',
            spanAt(doc.doc, [...gPath, 'mergeKeys']),
          ),
        );
      }
    }
  }
}

/** The first line of a list item (or its key), for diagnostics about a whole entry. */
function itemSpan(doc: AppSetDoc, text: string, path: JsonPath): Span {
  const n = nodeAt(doc.doc, path);
  const v = n.value;
  if (v && v.end > v.start) {
    const nl = text.indexOf('\n', v.start);
    return { start: v.start, end: nl < 0 || nl > v.end ? v.end : Math.max(nl, v.start + 1) };
  }
  // `- ` with nothing after it: underline the dash of the item.
  const parent = nodeAt(doc.doc, path.slice(0, -1));
  const base = v?.start ?? parent.value?.start ?? 0;
  const dash = text.lastIndexOf('-', base);
  return dash >= 0 && base - dash < 200 ? { start: dash, end: dash + 1 } : spanAt(doc.doc, path.slice(0, -1), 'key');
}

/**
 * `path: '!apps/legacy'` in a git generator: neither Go's path.Match (directories,
 * applicationset/generators/git.go filterApps) nor a git pathspec (files, `git ls-files -- <path>`)
 * knows a `!` negation, so the pattern is a literal path starting with "!" that matches nothing,
 * and the directory meant to be left out is still selected by the other patterns. Exclusion is
 * `exclude: true` on an entry of its own. The quick fix's edits travel in `data`.
 */
function gitNegations(doc: AppSetDoc, text: string, entry: Json, path: JsonPath): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const git = own(entry, 'git');
  if (!isObject(git)) return out;
  for (const what of ['directories', 'files'] as const) {
    const list = own(git, what);
    if (!Array.isArray(list)) continue;
    list.slice(0, MAX_ENTRIES).forEach((item: Json, i: number) => {
      const pattern = own(item, 'path');
      if (typeof pattern !== 'string' || !pattern.startsWith('!')) return;
      const at = [...path, 'git', what, i];
      const meant = pattern.replace(/^!+/, '');
      const already = own(item, 'exclude') === true;
      out.push(
        diag(
          'appset/git-negation',
          already
            ? `"${pattern}" is a literal path starting with "!" (git generator ${what} patterns have no negation), so this exclude entry leaves out nothing; write "${meant}"`
            : `"${pattern}" is not a negation: git generator ${what} patterns (${what === 'directories' ? "Go's path.Match" : 'git pathspecs'}) have no "!", so it matches nothing and leaves nothing out (${meant} is still ${what === 'directories' ? 'deployed' : 'read'} wherever another pattern selects it); write "${meant}" with exclude: true`,
          spanAt(doc.doc, [...at, 'path']),
          { data: { fix: negationFix(doc, text, at, meant, already) } },
        ),
      );
    });
  }
  return out;
}

function getItem(doc: AppSetDoc, at: JsonPath): Json | undefined {
  let v: Json | undefined = doc.value;
  for (const k of at) v = Array.isArray(v) && typeof k === 'number' ? v[k] : typeof k === 'string' ? own(v, k) : undefined;
  return v;
}

/** The edits turning `path: '!x'` into `path: x` + `exclude: true` (block or flow entry). */
function negationFix(
  doc: AppSetDoc,
  text: string,
  at: JsonPath,
  meant: string,
  already: boolean,
): { title: string; edits: { span: Span; newText: string }[] } | undefined {
  const value = nodeAt(doc.doc, [...at, 'path']).value;
  const key = nodeAt(doc.doc, [...at, 'path']).key;
  if (!value || !key) return undefined;
  const old = text.slice(value.start, value.end);
  const quote = /^["']/.test(old) ? old[0] : /^[*&!%@`{[]/.test(meant) ? "'" : '';
  const edits = [{ span: value, newText: quote + meant + quote }];
  if (!already) {
    const excl = own(getItem(doc, at), 'exclude') !== undefined ? nodeAt(doc.doc, [...at, 'exclude']).value : undefined;
    if (excl) edits.push({ span: excl, newText: 'true' });
    else {
      const item = nodeAt(doc.doc, at).value;
      const flow = item !== undefined && text[item.start] === '{';
      const lineStart = text.lastIndexOf('\n', key.start - 1) + 1;
      const before = text.slice(lineStart, key.start);
      if (flow) edits.push({ span: { start: value.end, end: value.end }, newText: ', exclude: true' });
      else if (/^[ \t-]*$/.test(before)) {
        const indent = ' '.repeat(before.length);
        const eol = text.indexOf('\n', value.end);
        const end = eol < 0 ? text.length : eol;
        edits.push({ span: { start: end, end }, newText: `\n${indent}exclude: true` });
      } else return undefined;
    }
  }
  return { title: already ? `Write "${meant}"` : `Exclude ${meant} (exclude: true)`, edits };
}

/**
 * A matrix of two git generators that both set the same `pathParamPrefix` (or none): both define
 * `path`, `path.basename`, … . In fasttemplate mode the controller combines the two parameter sets
 * with utils.CombineStringMaps (applicationset/utils/map.go), which fails on a key with two different
 * values: "found duplicate key path with different value", and the whole ApplicationSet fails as soon
 * as both generators find something in different folders. In goTemplate mode mergo lets the first
 * generator's values win (applicationset/generators/matrix.go), which Argo CD documents as a way to
 * override parameters: not flagged. A second generator that reads the first's path (`{{path}}/config.json`) yields the
 * same path on each pair and is not flagged.
 */
function matrixPathClash(doc: AppSetDoc, spec: Json | undefined, children: Json | undefined, mPath: JsonPath): EngineDiagnostic[] {
  if (!Array.isArray(children) || children.length !== 2) return [];
  const gits = children.map((c) => own(c, 'git'));
  if (!gits.every(isObject)) return [];
  const prefix = (g: Json) => {
    const p = own(g, 'pathParamPrefix');
    return typeof p === 'string' ? p : '';
  };
  if (prefix(gits[0]) !== prefix(gits[1])) return [];
  const readsFirst = JSON.stringify([own(gits[1], 'directories') ?? null, own(gits[1], 'files') ?? null, own(gits[1], 'revision') ?? null]);
  // `/\{\{[^}]*\bpath\b/` without its rescan from every unclosed `{{` (quadratic, issue 25): between
  // a `{{` and the next `}`, the text after the segment's first `{{` is the longest candidate.
  if (readsFirst.split('}').some((seg) => seg.includes('{{') && /\bpath\b/.test(seg.slice(seg.indexOf('{{') + 2)))) return [];
  // goTemplate: the first generator's values override the second's, which Argo CD documents as a
  // feature (Generators-Matrix.md, "overriding parameters" with two git files generators): not flagged.
  if (own(spec, 'goTemplate') === true) return [];
  const key = prefix(gits[0]) ? `${prefix(gits[0])}.path` : 'path';
  return [
    diag(
      'appset/matrix-path-clash',
      `both git generators of this matrix set the ${key} parameters (no distinct pathParamPrefix): as soon as they find different folders the controller fails the whole ApplicationSet with "found duplicate key ${key} with different value"; give one of them a pathParamPrefix`,
      spanAt(doc.doc, [...mPath, 'generators', 1, 'git'], 'key'),
    ),
  ];
}
