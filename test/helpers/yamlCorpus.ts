/**
 * The YAML files the parsing tests read both ways (the fast reader, the library in steps, the
 * library in one call): every `.yaml`/`.yml` file of this repository's tests and examples and of
 * ../shared (Argo CD's examples and CRDs, the golden corpus).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The YAML files under `dir` (node_modules and dot folders left out; files over 2 MB too). */
export function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/.test(name) && st.size < 2_000_000) out.push(p);
  }
  return out;
}

/**
 * The YAML files of the repository's tests and examples, and of ../shared when it is there (a clone of
 * the public repository has no ../shared: the repository's own files are then the whole corpus).
 */
export function repositoryYaml(): string[] {
  const root = resolve(__dirname, '..', '..');
  const shared = resolve(root, '..', 'shared');
  return [...yamlFiles(join(root, 'test')), ...yamlFiles(join(root, 'examples')), ...(existsSync(shared) ? yamlFiles(shared) : [])];
}

/**
 * Lines that mean something at a `---` boundary or to a one-entry re-parse: unterminated quotes and
 * flow collections (the library's error recovery may read them on past a `---`), comments before a
 * marker (they move where a document's range ends), block scalars, empty values, markers with content.
 */
export const BOUNDARY_LINES = [
  'a: 1',
  'b:',
  '  - x',
  '  -',
  '  c: "q',
  "  d: 'r",
  " 'r",
  ' "q',
  'e: [1,',
  'f: {g: 1,',
  '  [a,',
  ' {b',
  '# c',
  '  # c',
  'l: x # c',
  '',
  '  ',
  'h: |',
  '  text',
  'i: >-',
  'j: "ok"',
  '- 1',
  '- ',
  '? k',
  ': v',
  'n: &a 1',
  'o: *a',
  // An empty value with a comment on its line, and one after it (issue 25: a document's range).
  'p:  # c',
  '- # c',
  '---',
  '--- # x',
  '--- a',
  '---\t',
  '...',
  '\t',
];

/** A text of `BOUNDARY_LINES` holding at least one `---` line (and maybe an ApplicationSet part), from `rand`. */
export function boundaryText(rand: () => number, lines = BOUNDARY_LINES): string {
  const n = 2 + Math.floor(rand() * 9);
  const out = Array.from({ length: n }, () => lines[Math.floor(rand() * lines.length)]);
  if (!out.some((l) => l.startsWith('---'))) out.splice(Math.floor(rand() * n), 0, '---');
  const end = rand();
  return out.join(end < 0.1 ? '\r\n' : '\n') + (end < 0.8 ? '\n' : '');
}

/** One edit of `text` as an editor makes it: a line or a meaningful character typed, a range deleted, a value emptied. */
export function boundaryEdit(rand: () => number, text: string, lines = BOUNDARY_LINES): string {
  const at = Math.floor(rand() * (text.length + 1));
  const r = rand();
  if (r < 0.2) {
    // Empty a value: delete from after a `: ` or `- ` to the end of its line.
    const m = /(?:: |- )[^\n]+/g;
    const all = [...text.matchAll(m)];
    if (all.length) {
      const hit = all[Math.floor(rand() * all.length)];
      const from = hit.index + 2;
      const to = hit.index + hit[0].length;
      return text.slice(0, from - (rand() < 0.5 ? 1 : 0)) + text.slice(to);
    }
  }
  const typed =
    r < 0.55
      ? lines[Math.floor(rand() * lines.length)] + (rand() < 0.7 ? '\n' : '')
      : ['"', "'", '[', '{', '#', ' ', '\n', ':', '-', ''][Math.floor(rand() * 10)];
  const del = Math.floor(rand() * 4);
  return text.slice(0, at) + typed + text.slice(Math.min(text.length, at + del));
}
