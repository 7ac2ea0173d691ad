/**
 * How the ApplicationSet controller turns the text of a setting into a value, one function per upstream
 * reader (Argo CD v3.5.1). Flags are parsed by pflag; without a flag, the flag's default is read from the
 * environment variable, which the upstream manifests fill from `argocd-cmd-params-cm` (`configMapKeyRef`),
 * so a ConfigMap value reaches these readers verbatim, untrimmed:
 * - `util/env/env.go` ParseBoolFromEnv: an empty value gives the default; otherwise only `true`/`false`
 *   compared with strings.EqualFold (any case, nothing trimmed: `"true "`, `true\n`, `"true"` with its
 *   quotes are not booleans); anything else gives the default;
 * - StringFromEnv: an empty value gives the default, any other is taken as is;
 * - StringsFromEnv: an empty value gives the default, otherwise split on "," and each part trimmed
 *   (its test table: `one, two   ,    three` → one, two, three);
 * - a bool flag's `=value`: strconv.ParseBool (1, t, T, TRUE, true, True and the false forms); any other
 *   value makes pflag fail, and the controller does not start;
 * - a string slice flag (`--applicationset-namespaces`): pflag reads the value as one CSV record, parts
 *   not trimmed.
 */

/**
 * strings.EqualFold against an ASCII word: ASCII letters in either case, plus the Unicode characters
 * whose simple case folding reaches an ASCII letter (U+017F long s → s, U+212A Kelvin sign → k).
 */
export function goEqualFold(text: string, word: string): boolean {
  const chars = [...text];
  if (chars.length !== word.length) return false;
  return chars.every((ch, i) => {
    const w = word[i].toLowerCase();
    const c = ch === '\u017f' ? 's' : ch === '\u212a' ? 'k' : ch.length === 1 && ch.charCodeAt(0) < 128 ? ch.toLowerCase() : ch;
    return c === w;
  });
}

/** ParseBoolFromEnv: true/false, or undefined when the controller keeps the default (empty or not a boolean). */
export function envBool(raw: string): boolean | undefined {
  if (raw === '') return undefined;
  if (goEqualFold(raw, 'true')) return true;
  if (goEqualFold(raw, 'false')) return false;
  return undefined;
}

/** strconv.ParseBool, as pflag parses `--flag=value` of a bool flag; undefined: not a boolean (pflag fails). */
export function flagBool(raw: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(raw)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) return false;
  return undefined;
}

/** StringsFromEnv(…, ","): undefined (the default) when empty, else the parts, trimmed. */
export function envStrings(raw: string): string[] | undefined {
  if (raw === '') return undefined;
  return raw.split(',').map((s) => s.trim());
}

/** A pflag string slice value: one CSV record (quotes group a part holding commas); parts kept as written. */
export function flagStrings(raw: string): string[] {
  if (raw === '') return [];
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (quoted) {
      if (ch === '"' && raw[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && cur === '') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}
