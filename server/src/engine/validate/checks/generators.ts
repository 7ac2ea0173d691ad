/**
 * Generator structure checks (Argo CD `applicationset/generators/matrix.go`, `merge.go`,
 * `generator_spec_processor.go`, `applicationset/utils/utils.go` `CheckInvalidGenerators`): matrix has exactly two children, merge at least two plus mergeKeys, each child sets
 * exactly one kind, matrix/merge nest one level at most, and entries that generate nothing.
 */
import type { EngineDiagnostic, Json, Span } from '../../types';
import { nodeAt, spanAt, type AppSetDoc, type JsonPath } from '../../yaml/document';
import { isObject, own } from '../describe';
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
