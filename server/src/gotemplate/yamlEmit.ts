/**
 * The YAML text go-yaml v2 writes for a JSON-shaped value (what sigs.k8s.io/yaml's Marshal, and so
 * Argo CD's `toYaml`, produces): our own port of the emitter's rules for block mappings and
 * sequences — keys in go-yaml's natural order (`a2` before `a10`), sequences under a key not
 * indented, empty collections as `{}`/`[]`, scalar styles chosen from the string's content (plain,
 * 'single', "double" with go-yaml's escapes, `|` literal blocks with chomping hints), and long
 * scalars folded at 80 columns.
 */

/** A float64 that go-yaml prints with strconv 'g'. */
export class YamlFloat {
  constructor(readonly v: number) {}
}

export type YamlValue = null | boolean | bigint | YamlFloat | string | YamlValue[] | { [k: string]: YamlValue };

const BEST_WIDTH = 80;
/** go-yaml's short escapes in double-quoted scalars. */
const ESC: Record<number, string> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};
const BEST_INDENT = 2;

const isSpace = (c: number) => c === 0x20;
const isBlank = (c: number) => c === 0x20 || c === 0x09;
const isBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
/** go-yaml's is_printable (on code points; 4-byte characters are not printable for it). */
const isPrintable = (c: number) =>
  c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  singleAllowed: boolean;
  blockAllowed: boolean;
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      out.push(s.codePointAt(i)!);
      i++;
    } else out.push(c);
  }
  return out;
}

const utf8Length = (cps: number[]) => cps.reduce((n, c) => n + (c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4), 0);

function analyze(cps: number[]): Analysis {
  if (cps.length === 0) return { multiline: false, blockPlain: true, singleAllowed: true, blockAllowed: false };
  let blockInd = false,
    lineBreaks = false,
    special = false;
  let leadingSpace = false,
    leadingBreak = false,
    trailingSpace = false,
    trailingBreak = false,
    breakSpace = false,
    spaceBreak = false;
  let precededByWs = true,
    prevSpace = false,
    prevBreak = false;
  if (
    cps.length >= 3 &&
    ((cps[0] === 0x2d && cps[1] === 0x2d && cps[2] === 0x2d) || (cps[0] === 0x2e && cps[1] === 0x2e && cps[2] === 0x2e))
  )
    blockInd = true;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    const followedByWs = i + 1 >= cps.length || isBlank(cps[i + 1]) || isBreak(cps[i + 1]);
    if (i === 0) {
      if (c < 0x80 && '#,[]{}&*!|>\'"%@`'.includes(String.fromCharCode(c))) blockInd = true;
      else if ((c === 0x3f || c === 0x3a) && followedByWs) blockInd = true;
      else if (c === 0x2d && followedByWs) blockInd = true;
    } else if (c === 0x3a && followedByWs) blockInd = true;
    else if (c === 0x23 && precededByWs) blockInd = true;
    if (!isPrintable(c)) special = true;
    if (isSpace(c)) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = isBlank(c) || isBreak(c);
  }
  let blockPlain = true,
    singleAllowed = true,
    blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) blockPlain = singleAllowed = false;
  if (spaceBreak || special) blockPlain = singleAllowed = blockAllowed = false;
  if (lineBreaks) blockPlain = false;
  if (blockInd) blockPlain = false;
  return { multiline: lineBreaks, blockPlain, singleAllowed, blockAllowed };
}

/** Keys in yaml.v2's order; plain lower-case/upper-case letter keys (the usual case) compare fast. */
function sortKeys(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  if (keys.every((k) => /^[A-Za-z]*$/.test(k))) return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const runes = new Map(keys.map((k) => [k, [...k]]));
  return keys.sort((a, b) => (keyLess(runes.get(a)!, runes.get(b)!) ? -1 : keyLess(runes.get(b)!, runes.get(a)!) ? 1 : 0));
}

/** yaml.v2's keyList.Less for string keys: letters before other runes, digit runs compared as numbers. */
function keyLess(ar: string[], br: string[]): boolean {
  const isLetter = (r: string) => /^\p{L}$/u.test(r);
  const isDigit = (r: string | undefined) => r !== undefined && /^\p{Nd}$/u.test(r);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]),
      bl = isLetter(br[i]);
    if (al && bl) return ar[i].codePointAt(0)! < br[i].codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0n,
      bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = bn = 1n;
          break;
        }
      }
    }
    let ai = i,
      bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10n + BigInt(ar[ai].codePointAt(0)! - 0x30);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10n + BigInt(br[bi].codePointAt(0)! - 0x30);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i].codePointAt(0)! < br[i].codePointAt(0)!;
  }
  return ar.length < br.length;
}

export interface EmitOptions {
  /** Does go-yaml read this plain string back as something other than a string (null, bool, number, timestamp)? */
  resolvesAsNonString: (s: string) => boolean;
  formatFloat: (v: number) => string;
}

class Emitter {
  out = '';
  column = 0;
  indent = -1;
  indents: number[] = [];
  whitespace = true;
  indention = true;

  constructor(readonly o: EmitOptions) {}

  put(s: string): void {
    this.out += s;
    this.column += s.length === 1 || !/[\uD800-\uDBFF]/.test(s) ? s.length : [...s].length;
  }

  putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }

  writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  indicator(s: string, needWs: boolean, isWs: boolean, isIndention: boolean): void {
    if (needWs && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = isWs;
    this.indention = this.indention && isIndention;
  }

  increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  node(v: YamlValue, ctx: { mapping: boolean; simpleKey: boolean }): void {
    if (Array.isArray(v)) {
      if (v.length === 0) return this.flowEmpty('[]');
      this.increaseIndent(false, ctx.mapping && !this.indention);
      for (const item of v) {
        this.writeIndent();
        this.indicator('-', true, false, true);
        this.node(item, { mapping: false, simpleKey: false });
      }
      this.popIndent();
      return;
    }
    if (v !== null && typeof v === 'object' && !(v instanceof YamlFloat)) {
      const keys = sortKeys(Object.keys(v));
      if (keys.length === 0) return this.flowEmpty('{}');
      this.increaseIndent(false, false);
      for (const k of keys) {
        this.writeIndent();
        const cps = codePoints(k);
        const simple = !analyze(cps).multiline && utf8Length(cps) <= 128;
        if (simple) {
          this.scalar(k, true);
          this.indicator(':', false, false, false);
        } else {
          this.indicator('?', true, false, true);
          this.scalar(k, false);
          this.writeIndent();
          this.indicator(':', true, false, true);
        }
        this.node(v[k], { mapping: true, simpleKey: false });
      }
      this.popIndent();
      return;
    }
    this.scalar(v, ctx.simpleKey);
  }

  flowEmpty(s: string): void {
    this.indicator(s, true, false, false);
  }

  scalar(v: Exclude<YamlValue, YamlValue[] | { [k: string]: YamlValue }>, simpleKey: boolean): void {
    let text: string, style: 'plain' | 'single' | 'double' | 'literal';
    if (v === null) ((text = 'null'), (style = 'plain'));
    else if (typeof v === 'boolean') ((text = String(v)), (style = 'plain'));
    else if (typeof v === 'bigint') ((text = String(v)), (style = 'plain'));
    else if (v instanceof YamlFloat) ((text = this.o.formatFloat(v.v)), (style = 'plain'));
    else {
      text = v;
      const canPlain = !this.o.resolvesAsNonString(v) && !isBase60Float(v);
      style = v.includes('\n') ? 'literal' : canPlain ? 'plain' : 'double';
    }
    const cps = codePoints(text);
    const a = analyze(cps);
    if (style === 'plain') {
      if (!a.blockPlain) style = 'single';
      if (cps.length === 0 && simpleKey) style = 'single';
    }
    if (style === 'single' && !a.singleAllowed) style = 'double';
    if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';

    this.increaseIndent(true, false);
    const breaks = !simpleKey;
    if (style === 'plain' || style === 'single') this.writeFlowText(cps, breaks, style === 'single');
    else if (style === 'double') this.writeDouble(cps, breaks);
    else this.writeLiteral(cps);
    this.popIndent();
  }

  writeBreakChar(c: number): void {
    if (c === 0x0a) this.putBreak();
    else {
      this.out += String.fromCodePoint(c);
      this.column = 0;
    }
  }

  /** Plain and single-quoted scalars: the same folding and break rules; quotes double inside '...'. */
  writeFlowText(cps: number[], allowBreaks: boolean, quoted: boolean): void {
    if (quoted) this.indicator("'", true, false, false);
    else if (!this.whitespace) this.put(' ');
    let spaces = false,
      breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i];
      if (isSpace(c)) {
        const inside = !quoted || (i > 0 && i < cps.length - 1);
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && inside && !isSpace(cps[i + 1] ?? 0)) this.writeIndent();
        else this.put(' ');
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreakChar(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (quoted && c === 0x27) this.put("'");
        this.put(String.fromCodePoint(c));
        this.indention = false;
        spaces = breaks = false;
      }
    }
    if (quoted) this.indicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  writeDouble(cps: number[], allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i];
      if (!isPrintable(c) || c === 0xfeff || isBreak(c) || c === 0x22 || c === 0x5c) {
        const e = ESC[c];
        if (e !== undefined) this.put('\\' + e);
        else {
          const [letter, width] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
          this.put('\\' + letter + c.toString(16).toUpperCase().padStart(width, '0'));
        }
        spaces = false;
      } else if (isSpace(c)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1) {
          this.writeIndent();
          if (isSpace(cps[i + 1])) this.put('\\');
        } else this.put(' ');
        spaces = true;
      } else {
        this.put(String.fromCodePoint(c));
        spaces = false;
      }
    }
    this.indicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  writeLiteral(cps: number[]): void {
    this.indicator('|', true, false, false);
    if (isSpace(cps[0]) || isBreak(cps[0])) this.indicator(String(BEST_INDENT), false, false, false);
    const last = cps[cps.length - 1];
    let chomp = '';
    if (!isBreak(last)) chomp = '-';
    else if (cps.length === 1 || isBreak(cps[cps.length - 2])) chomp = '+';
    if (chomp) this.indicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const c of cps) {
      if (isBreak(c)) {
        this.writeBreakChar(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.put(String.fromCodePoint(c));
        this.indention = false;
        breaks = false;
      }
    }
  }
}

/** yaml.v2's isBase60Float: `1:20` would read back as a sexagesimal number, so it is quoted. */
function isBase60Float(s: string): boolean {
  if (s === '' || !/^[-+0-9]/.test(s) || !s.includes(':')) return false;
  return /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(s);
}

/** go-yaml v2 Marshal output for a JSON-shaped value, without the trailing newline. */
export function emitGoYaml(value: YamlValue, o: EmitOptions): string {
  const e = new Emitter(o);
  e.node(value, { mapping: false, simpleKey: false });
  return e.out;
}

// ---- go-yaml v2's resolve(): does a plain scalar read back as something other than a string? ------
const RESOLVE_MAP = new Set([
  'y',
  'Y',
  'yes',
  'Yes',
  'YES',
  'true',
  'True',
  'TRUE',
  'on',
  'On',
  'ON',
  'n',
  'N',
  'no',
  'No',
  'NO',
  'false',
  'False',
  'FALSE',
  'off',
  'Off',
  'OFF',
  '',
  '~',
  'null',
  'Null',
  'NULL',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
]);

/** strconv.ParseInt / ParseUint with base 0 (no underscores: resolve removed them). */
function parseGoInt(s: string, unsigned: boolean): boolean {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m || (unsigned && m[1] !== '')) return false;
  const body = m[2];
  const v = /^0[xXbB]/.test(body)
    ? BigInt(body)
    : /^0[oO]/.test(body)
      ? BigInt('0o' + body.slice(2))
      : body.length > 1 && body[0] === '0'
        ? BigInt('0o' + body.slice(1))
        : BigInt(body);
  const n = m[1] === '-' ? -v : v;
  return unsigned ? n <= 18446744073709551615n : n >= -9223372036854775808n && n <= 9223372036854775807n;
}

/** strconv.ParseFloat(s, 64) succeeds (finite, in range; decimal and hex forms, inf/nan words). */
function parseGoFloat(s: string): boolean {
  if (/^[+-]?(inf|infinity|nan)$/i.test(s)) return true;
  const dec = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s);
  const hex = /^[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+$/.test(s);
  if (!dec && !hex) return false;
  return Number.isFinite(dec ? Number(s) : 1); // out of range is an error in Go
}

export function goYamlResolvesNonString(s: string, isTimestamp: (s: string) => boolean): boolean {
  const c = s[0];
  const hint =
    s === '' ? 'N' : c === '+' || c === '-' ? 'S' : c >= '0' && c <= '9' ? 'D' : 'yYnNtTfFoO~'.includes(c) ? 'M' : c === '.' ? '.' : '';
  if (!hint) return false;
  if (RESOLVE_MAP.has(s)) return true;
  if (hint === '.') return parseGoFloat(s);
  if (hint === 'D' || hint === 'S') {
    if (isTimestamp(s)) return true;
    const plain = s.replace(/_/g, '');
    if (parseGoInt(plain, false) || parseGoInt(plain, true)) return true;
    if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain) && parseGoFloat(plain)) return true;
    if (plain.startsWith('0b')) return /^[01]+$/.test(plain.slice(2));
    if (plain.startsWith('-0b')) return /^[01]+$/.test(plain.slice(3));
  }
  return false;
}
