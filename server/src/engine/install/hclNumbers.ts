/**
 * Terraform string templates whose interpolations can only be numbers (install/terraform.ts): a heredoc of
 * Helm values that interpolates `${local.memory_mib}` into a resource limit or a comment is still YAML of a
 * known shape, since a number renders as digits and cannot add a line, a key or a quote (Terraform's
 * string templates convert the value to a string: hashicorp/hcl `hclsyntax/expression_template.go`,
 * numbers through `cty/convert` to their decimal text). Any other interpolation (a `var.…`, which may hold
 * newlines, a function call, a reference to a resource) or a `%{…}` directive leaves the text unread.
 *
 * A value is numeric when it is a number literal, a `local.NAME` whose value is numeric (the locals of the
 * same file, followed to a fixed point), arithmetic of those, or `floor`/`ceil`/`abs`/`min`/`max`/
 * `signum` of numeric arguments.
 */
import type { HclBody, HclValue } from './hcl';

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const NUMERIC_CALLS = new Set(['floor', 'ceil', 'abs', 'min', 'max', 'signum']);
/** Arithmetic over numbers and `local.NAME` references, nothing else (no strings, no other references). */
const ARITHMETIC = /^[\s\d.+\-*/%()eE]*(?:local\.[A-Za-z_][A-Za-z0-9_-]*[\s\d.+\-*/%()eE]*)*$/;
const LOCAL_REF = /local\.([A-Za-z_][A-Za-z0-9_-]*)/g;

function numericExpr(text: string, numeric: ReadonlySet<string>): boolean {
  const t = text.trim();
  if (!t) return false;
  const call = /^([a-z]+)\((.*)\)$/s.exec(t);
  if (call) return NUMERIC_CALLS.has(call[1]) && splitArgs(call[2]).every((a) => numericExpr(a, numeric));
  if (!ARITHMETIC.test(t)) return false;
  for (const m of t.matchAll(LOCAL_REF)) if (!numeric.has(m[1])) return false;
  return /[\d]|local\./.test(t);
}

/** Top-level comma-separated arguments (parentheses nest). */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

function numericValue(v: HclValue, numeric: ReadonlySet<string>): boolean {
  if (v.kind === 'literal') return NUMBER.test(v.text);
  if (v.kind === 'call') return NUMERIC_CALLS.has(v.name) && v.args.length > 0 && v.args.every((a) => numericValue(a, numeric));
  if (v.kind === 'expr') return numericExpr(v.text, numeric);
  return false;
}

/** The names of the file's `locals` whose values are numbers. */
export function numericLocals(top: HclBody): Set<string> {
  const attrs = top.blocks.filter((b) => b.type === 'locals').flatMap((b) => b.body.attrs);
  const numeric = new Set<string>();
  // Each round may add locals defined from the ones found before; a chain longer than 8 stays unread.
  for (let round = 0; round < 8; round++) {
    const before = numeric.size;
    for (const a of attrs) if (!numeric.has(a.name) && numericValue(a.value, numeric)) numeric.add(a.name);
    if (numeric.size === before) break;
  }
  return numeric;
}

/**
 * The template's text with each numeric interpolation replaced by `0` (its digits are not known here, its
 * shape is), or undefined when an interpolation may be anything else or a directive is used. `$${` is
 * Terraform's escape for a literal `${`.
 */
export function numericTemplate(text: string, numeric: ReadonlySet<string>): string | undefined {
  if (/(^|[^%])%\{/.test(text)) return undefined;
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('$${', i)) {
      out += '${';
      i += 3;
      continue;
    }
    if (!text.startsWith('${', i)) {
      out += text[i++];
      continue;
    }
    const end = text.indexOf('}', i + 2);
    if (end < 0) return undefined;
    const expr = text.slice(i + 2, end).replace(/^~|~$/g, '');
    if (!numericExpr(expr, numeric)) return undefined;
    out += '0';
    i = end + 1;
  }
  return out;
}
