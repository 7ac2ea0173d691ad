/**
 * Generator structure checks (Argo CD `applicationset/generators/matrix.go`, `merge.go`,
 * `generator_spec_processor.go`, `applicationset/utils/utils.go` `CheckInvalidGenerators`): matrix has exactly two children, merge at least two plus mergeKeys, each child sets
 * exactly one kind, matrix/merge nest one level at most, and entries that generate nothing.
 */
import type { EngineDiagnostic, Json, Span } from '../../types';
import type { AppSetDoc } from '../../kinds';
import { isObj, own } from '../../objects';
import { checkLabelSelector } from './selectors';
import { finding } from '../../diagnostics/codes';
import { fieldsOf } from '../../fields/appset';
import { sub, type Field } from '../../fields/place';
import { MAX_LEVEL, type CombinedFields, type GeneratorEntryFields, type GitPatternFields } from '../../fields/generatorFields';

export { GENERATOR_KINDS, kindsOf } from '../../rules/generatorKinds';

export function checkGenerators(doc: AppSetDoc, text: string): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const view = fieldsOf(doc);
  for (const entry of view.generatorEntries) {
    const { kinds } = entry;
    if (kinds.length === 0 && entry.at.value !== null) {
      // (a null entry is a schema type error already)
      out.push(
        finding(
          'appset/empty-generator',
          'this generator entry sets no generator (list, clusters, git, matrix, …), so it produces no Applications',
          itemSpan(text, entry),
        ),
      );
    } else if (kinds.length > 1) {
      out.push(
        finding(
          'appset/multiple-generator-kinds',
          `this entry sets ${kinds.length} generators (${kinds.join(', ')}); each runs separately and their Applications are added together, not combined — use a matrix to combine them`,
          secondKind(entry).keySpan,
        ),
      );
    }
    checkEntry(text, view.goTemplate.value, entry, out);
  }
  return out;
}

/** The field of the second kind an entry sets (where a finding about too many kinds sits). */
function secondKind(entry: GeneratorEntryFields): Field {
  return entry.kindAt[entry.kinds[1]] as Field;
}

/** Checks one generator entry and recurses into its matrix/merge children (read to MAX_LEVEL by the located fields). */
function checkEntry(text: string, goTemplate: Json | undefined, entry: GeneratorEntryFields, out: EngineDiagnostic[]): void {
  if (!isObj(entry.at.value)) return;
  for (const selector of entry.selectors) out.push(...checkLabelSelector(selector));

  out.push(...gitNegations(text, entry));
  const matrix = entry.combined.find((c) => c.kind === 'matrix');
  if (matrix) out.push(...matrixPathClash(goTemplate, matrix));

  for (const { kind, generators, children, mergeKeys } of entry.combined) {
    if (entry.level >= MAX_LEVEL) continue; // already reported by the parent as too deep
    if (Array.isArray(generators.value)) {
      const n = generators.value.length;
      const at = generators.keySpan;
      if (kind === 'matrix' && n !== 2) {
        out.push(
          finding(
            'appset/matrix-children',
            `a matrix generator combines exactly two child generators, this one has ${n}${n > 2 ? ' (nest a matrix inside the matrix to combine more)' : ''}; the whole ApplicationSet fails`,
            at,
          ),
        );
      }
      if (kind === 'merge' && n < 2) {
        out.push(
          finding(
            'appset/merge-children',
            `a merge generator needs at least two child generators, this one has ${n}; the whole ApplicationSet fails`,
            at,
          ),
        );
      }
      for (const child of children) {
        const { kinds } = child;
        if (entry.level === 2) {
          for (const deep of kinds.filter((k) => k === 'matrix' || k === 'merge')) {
            out.push(
              finding(
                'appset/nesting-depth',
                `a ${deep} inside a nested ${kind} is not supported: matrix/merge can be nested only one level deep; the controller drops it, so this child generates nothing and the ${kind} fails`,
                (child.kindAt[deep] as Field).keySpan,
              ),
            );
          }
        }
        if (kinds.length === 0) {
          out.push(
            finding(
              'appset/child-generator-kinds',
              `this ${kind} child sets no generator; the ${kind} fails with "child generator generated no parameters"`,
              itemSpan(text, child),
            ),
          );
        } else if (kinds.length > 1) {
          out.push(
            finding(
              'appset/child-generator-kinds',
              `this ${kind} child sets ${kinds.length} generators (${kinds.join(', ')}); each ${kind} child must set exactly one, otherwise the ${kind} fails`,
              secondKind(child).keySpan,
            ),
          );
        }
        checkEntry(text, goTemplate, child, out);
      }
    }
    if (kind === 'merge') {
      if (Array.isArray(mergeKeys.value) && mergeKeys.value.length === 0) {
        out.push(
          finding(
            'appset/merge-keys',
            'mergeKeys is empty; a merge generator needs at least one key to match parameter sets on',
            mergeKeys,
          ),
        );
      }
    }
  }
}

/** The first line of a list item (or its key), for diagnostics about a whole entry. */
function itemSpan(text: string, { at, list }: GeneratorEntryFields): Span {
  const v = at.valueRange;
  if (v && v.end > v.start) {
    const nl = text.indexOf('\n', v.start);
    return { start: v.start, end: nl < 0 || nl > v.end ? v.end : Math.max(nl, v.start + 1) };
  }
  // `- ` with nothing after it: underline the dash of the item.
  const base = v?.start ?? list.valueRange?.start ?? 0;
  const dash = text.lastIndexOf('-', base);
  return dash >= 0 && base - dash < 200 ? { start: dash, end: dash + 1 } : list.keySpan;
}

/**
 * `path: '!apps/legacy'` in a git generator: neither Go's path.Match (directories,
 * applicationset/generators/git.go filterApps) nor a git pathspec (files, `git ls-files -- <path>`)
 * knows a `!` negation, so the pattern is a literal path starting with "!" that matches nothing,
 * and the directory meant to be left out is still selected by the other patterns. Exclusion is
 * `exclude: true` on an entry of its own. The quick fix's edits travel in `data`.
 */
function gitNegations(text: string, entry: GeneratorEntryFields): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  for (const pattern of entry.gitPatterns) {
    const written = pattern.path.value;
    if (typeof written !== 'string' || !written.startsWith('!')) continue;
    const { what } = pattern;
    const meant = written.replace(/^!+/, '');
    const already = pattern.exclude.value === true;
    out.push(
      finding(
        'appset/git-negation',
        already
          ? `"${written}" is a literal path starting with "!" (git generator ${what} patterns have no negation), so this exclude entry leaves out nothing; write "${meant}"`
          : `"${written}" is not a negation: git generator ${what} patterns (${what === 'directories' ? "Go's path.Match" : 'git pathspecs'}) have no "!", so it matches nothing and leaves nothing out (${meant} is still ${what === 'directories' ? 'deployed' : 'read'} wherever another pattern selects it); write "${meant}" with exclude: true`,
        pattern.path,
        { data: { fix: negationFix(text, pattern, meant, already) } },
      ),
    );
  }
  return out;
}

/** The edits turning `path: '!x'` into `path: x` + `exclude: true` (block or flow entry). */
function negationFix(
  text: string,
  pattern: GitPatternFields,
  meant: string,
  already: boolean,
): { title: string; edits: { span: Span; newText: string }[] } | undefined {
  const value = pattern.path.valueRange;
  const key = pattern.path.keyRange;
  if (!value || !key) return undefined;
  const old = text.slice(value.start, value.end);
  const quote = /^["']/.test(old) ? old[0] : /^[*&!%@`{[]/.test(meant) ? "'" : '';
  const edits = [{ span: value, newText: quote + meant + quote }];
  if (!already) {
    const excl = pattern.exclude.value !== undefined ? pattern.exclude.valueRange : undefined;
    if (excl) edits.push({ span: excl, newText: 'true' });
    else {
      const item = pattern.at.valueRange;
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

/** The one include pattern of a git generator as the pattern of its `path` parameter (a file's folder), or undefined. */
function pathPatternOf(git: Json): string | undefined {
  const only = (list: Json | undefined) => {
    const inc = Array.isArray(list) ? list.filter((p) => isObj(p) && own(p, 'exclude') !== true) : [];
    const p = inc.length === 1 ? own(inc[0], 'path') : undefined;
    return typeof p === 'string' ? p.replace(/^\.\//, '') : undefined;
  };
  const dir = only(own(git, 'directories'));
  if (dir !== undefined) return dir;
  const file = only(own(git, 'files'));
  return file === undefined ? undefined : file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
}

/**
 * Whether the second git generator's `path` differs from the first's although it reads it:
 * its pattern, with the first's `{{path}}`, `{{path.basename}}` and `{{path[N]}}` put in (fasttemplate's
 * flat keys, applicationset/generators/git.go generateParamsFromApps), is not the first's own pattern.
 * Anything else it reads, or several patterns, and nothing is claimed.
 */
function descendsBelowFirst(first: Json, second: Json): boolean {
  const p1 = pathPatternOf(first);
  const p2 = pathPatternOf(second);
  if (p1 === undefined || p2 === undefined) return false;
  const segs = p1.split('/');
  let unknown = false;
  const put = p2.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_, ref: string) => {
    if (ref === 'path') return p1;
    if (ref === 'path.basename') return segs[segs.length - 1];
    const n = /^path\[(\d+)\]$/.exec(ref);
    if (n && Number(n[1]) < segs.length) return segs[Number(n[1])];
    unknown = true;
    return '';
  });
  return !unknown && !put.includes('{{') && put !== p1;
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
function matrixPathClash(goTemplate: Json | undefined, matrix: CombinedFields): EngineDiagnostic[] {
  const children = matrix.generators.value;
  if (!Array.isArray(children) || children.length !== 2) return [];
  const gits = children.map((c) => own(c, 'git'));
  if (!gits.every(isObj)) return [];
  const prefix = (g: Json) => {
    const p = own(g, 'pathParamPrefix');
    return typeof p === 'string' ? p : '';
  };
  if (prefix(gits[0]) !== prefix(gits[1])) return [];
  const readsFirst = JSON.stringify([own(gits[1], 'directories') ?? null, own(gits[1], 'files') ?? null, own(gits[1], 'revision') ?? null]);
  // `/\{\{[^}]*\bpath\b/` without its rescan from every unclosed `{{` (quadratic, issue 25): between
  // a `{{` and the next `}`, the text after the segment's first `{{` is the longest candidate.
  if (readsFirst.split('}').some((seg) => seg.includes('{{') && /\bpath\b/.test(seg.slice(seg.indexOf('{{') + 2)))) {
    // Reading the first's path keeps the two paths equal only where the second's path comes out as the
    // first's (`{{path}}/config.json`, `clusters/{{path.basename}}` after `clusters/*`); a directories
    // pattern that descends below it (`clusters/{{path.basename}}/*`) yields deeper paths: the clash.
    if (!descendsBelowFirst(gits[0], gits[1])) return [];
  }
  // goTemplate: the first generator's values override the second's, which Argo CD documents as a
  // feature (Generators-Matrix.md, "overriding parameters" with two git files generators): not flagged.
  if (goTemplate === true) return [];
  const key = prefix(gits[0]) ? `${prefix(gits[0])}.path` : 'path';
  return [
    finding(
      'appset/matrix-path-clash',
      `both git generators of this matrix set the ${key} parameters (no distinct pathParamPrefix): as soon as they find different folders the controller fails the whole ApplicationSet with "found duplicate key ${key} with different value"; give one of them a pathParamPrefix`,
      sub(sub(matrix.generators, 1), 'git').keySpan,
    ),
  ];
}
