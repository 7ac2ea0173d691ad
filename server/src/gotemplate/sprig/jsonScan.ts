/**
 * The syntax errors of Go's encoding/json (its scanner runs over the whole input before decoding),
 * so `mustFromJson` fails with the same words as Argo CD: `invalid character 'g' looking for
 * beginning of value`, `unexpected end of JSON input`, …
 */
import { goQuote } from '../format';
import { utf8Bytes } from '../values';

/** json's quoteChar: a byte shown as the rune of the same number. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  return `'${goQuote(String.fromCharCode(c)).slice(1, -1)}'`;
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

class Syntax extends Error {}
const bad = (c: number, context: string) => new Syntax(`invalid character ${quoteChar(c)} ${context}`);
const EOF = () => new Syntax('unexpected end of JSON input');

/** Returns Go's error text for invalid JSON, or undefined when the text is valid JSON. */
export function goJSONSyntaxError(text: string): string | undefined {
  const scan = new JSONScan(utf8Bytes(text));
  try {
    scan.value();
    scan.skip();
    if (!scan.atEnd()) throw bad(scan.need(), 'after top-level value');
    return undefined;
  } catch (e) {
    if (e instanceof Syntax) return e.message;
    throw e;
  }
}

/** A cursor over the bytes of a JSON text that reads each kind of token, throwing Go's `Syntax` errors. */
class JSONScan {
  private i = 0;

  constructor(private readonly b: Uint8Array) {}

  atEnd(): boolean {
    return this.i >= this.b.length;
  }
  private peek(): number {
    return this.i < this.b.length ? this.b[this.i] : -1;
  }
  skip(): void {
    while (this.i < this.b.length && isSpace(this.b[this.i])) this.i++;
  }
  need(): number {
    if (this.i >= this.b.length) throw EOF();
    return this.b[this.i];
  }
  // At the end of input Go's scanner is fed one space: inside a number or literal that is the
  // character it complains about; elsewhere it reports the unexpected end.
  private atOrSpace(): number {
    return this.i < this.b.length ? this.b[this.i] : 0x20;
  }

  /** One value, iterative with Go's nesting limit, so deep input cannot exhaust the JavaScript stack. */
  value(): void {
    const stack: number[] = [];
    let expectValue = true;
    for (;;) {
      if (expectValue) {
        this.skip();
        const c = this.need();
        if (c === 0x7b || c === 0x5b) {
          if (this.open(c, stack)) expectValue = false;
          continue;
        }
        this.scalar(c);
        expectValue = false;
        continue;
      }
      if (!stack.length) return;
      expectValue = this.afterElement(stack);
    }
  }

  /** A `{` or `[` at the cursor: true when it closes at once (`{}`, `[]`), else it is pushed on `stack`. */
  private open(c: number, stack: number[]): boolean {
    if (stack.length >= 10000) throw bad(c, 'exceeded max depth');
    this.i++;
    this.skip();
    if (this.need() === (c === 0x7b ? 0x7d : 0x5d)) {
      this.i++;
      return true;
    }
    stack.push(c);
    if (c === 0x7b) this.key();
    return false;
  }

  /** After an element of the innermost collection: its end (false) or a `,` before the next element (true). */
  private afterElement(stack: number[]): boolean {
    this.skip();
    const sep = this.need();
    const top = stack[stack.length - 1];
    if (sep === (top === 0x7b ? 0x7d : 0x5d)) {
      this.i++;
      stack.pop();
      return false;
    }
    if (sep !== 0x2c) throw bad(sep, top === 0x7b ? 'after object key:value pair' : 'after array element');
    this.i++;
    if (top === 0x7b) this.key();
    return true;
  }

  /** A string, number or literal starting with `c`. */
  private scalar(c: number): void {
    if (c === 0x22) this.string();
    else if (c === 0x2d || isDigit(c)) this.number();
    else if (c === 0x74) this.literal('true');
    else if (c === 0x66) this.literal('false');
    else if (c === 0x6e) this.literal('null');
    else throw bad(c, 'looking for beginning of value');
  }

  private literal(word: string): void {
    for (let k = 1; k < word.length; k++) {
      this.i++;
      const c = this.atOrSpace();
      if (c !== word.charCodeAt(k)) throw bad(c, `in literal ${word} (expecting ${quoteChar(word.charCodeAt(k))})`);
    }
    this.i++;
  }

  private string(): void {
    this.i++; // opening quote
    for (;;) {
      const c = this.need();
      if (c === 0x22) {
        this.i++;
        return;
      }
      if (c === 0x5c) {
        this.i++;
        this.escape();
        continue;
      }
      if (c < 0x20) throw bad(c, 'in string literal');
      this.i++;
    }
  }

  /** The escape after a backslash in a string. */
  private escape(): void {
    const e = this.need();
    if (e === 0x75) {
      for (let k = 0; k < 4; k++) {
        this.i++;
        const h = this.need();
        if (!isHex(h)) throw bad(h, 'in \\u hexadecimal character escape');
      }
    } else if (!'bfnrt\\/"'.includes(String.fromCharCode(e))) throw bad(e, 'in string escape code');
    this.i++;
  }

  private digits(): void {
    while (isDigit(this.peek())) this.i++;
  }

  private number(): void {
    if (this.peek() === 0x2d) {
      this.i++;
      const c = this.atOrSpace();
      if (!isDigit(c)) throw bad(c, 'in numeric literal');
    }
    if (this.peek() === 0x30) this.i++;
    else this.digits();
    if (this.peek() === 0x2e) {
      this.i++;
      const c = this.atOrSpace();
      if (!isDigit(c)) throw bad(c, 'after decimal point in numeric literal');
      this.digits();
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.i++;
      if (this.peek() === 0x2b || this.peek() === 0x2d) this.i++;
      const c = this.atOrSpace();
      if (!isDigit(c)) throw bad(c, 'in exponent of numeric literal');
      this.digits();
    }
  }

  /** An object key and its colon. */
  private key(): void {
    this.skip();
    const k = this.need();
    if (k !== 0x22) throw bad(k, 'looking for beginning of object key string');
    this.string();
    this.skip();
    const colon = this.need();
    if (colon !== 0x3a) throw bad(colon, 'after object key');
    this.i++;
  }
}

/**
 * The deepest nesting of `[`/`{` outside strings in a text already known to be valid JSON, in one
 * pass; stops counting once past `stopAfter`.
 */
export function jsonDepth(s: string, stopAfter: number): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      // a string: skip to its closing quote
      for (i++; i < s.length && s.charCodeAt(i) !== 0x22; i++) if (s.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max && (max = depth) > stopAfter) return max;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}
