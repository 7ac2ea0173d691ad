/**
 * File and folder names as the workspace's readers compare them: which names are YAML or Terraform files,
 * which references are URLs, and ASCII case folding for names compared without regard to case.
 *
 * Plain string tests, not regular expressions: V8 compiles a pattern the first time it runs in a process
 * (and again, to machine code, the second time), and a case-insensitive one with a letter range or a long
 * alternation costs 0.1–0.2 ms to compile; the first answer of a small document ran about thirty of them
 * in the workspace and install code, 1.9 ms of its 13 ms (issue 39). Each function here gives what the
 * pattern it replaced gave (`test/unit/engine/workspace/names.test.ts` compares them).
 */

/**
 * `s` with A–Z lowered: what a case-insensitive (`/i`, not `/u`) pattern of ASCII characters compares, since
 * it folds no other character onto an ASCII one. `toLowerCase` does the same except for two characters it
 * lowers onto ASCII letters (U+0130 to `i` and a combining dot, the Kelvin sign U+212A to `k`).
 */
export function foldAscii(s: string): string {
  if (!s.includes('\u212a') && !s.includes('\u0130')) return s.toLowerCase();
  let out = '';
  for (const ch of s) out += ch >= 'A' && ch <= 'Z' ? ch.toLowerCase() : ch;
  return out;
}

/** A YAML file's name: `.yaml` or `.yml` at the end, in any case (`/\.ya?ml$/i`). */
export function isYamlName(p: string): boolean {
  const end = foldAscii(p.slice(-5));
  return end === '.yaml' || end.endsWith('.yml');
}

/** A Terraform file's name: `.tf` at the end, in any case (`/\.tf$/i`). */
export function isTerraformName(p: string): boolean {
  return foldAscii(p.slice(-3)) === '.tf';
}

/** A kustomization's file name at the end of `path`, in any case (`/(^|\/)kustomization\.ya?ml$/i`). */
export function isKustomizationName(path: string): boolean {
  const name = foldAscii(path.slice(path.lastIndexOf('/') + 1));
  return name === 'kustomization.yaml' || name === 'kustomization.yml';
}

/** Whether `s` starts with a URL scheme and `://` (`/^[a-zA-Z]+:\/\//`): a URL, not a path to join. */
export function startsWithScheme(s: string): boolean {
  let n = 0;
  for (let c = s.charCodeAt(0); (c >= 97 && c <= 122) || (c >= 65 && c <= 90); c = s.charCodeAt(++n));
  return n > 0 && s.startsWith('://', n);
}
