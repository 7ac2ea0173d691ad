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
  const b = utf8Bytes(text);
  let i = 0;
  const peek = () => (i < b.length ? b[i] : -1);
  const skip = () => {
    while (i < b.length && isSpace(b[i])) i++;
  };
  const need = () => {
    if (i >= b.length) throw EOF();
    return b[i];
  };
  // At the end of input Go's scanner is fed one space: inside a number or literal that is the
  // character it complains about; elsewhere it reports the unexpected end.
  const atOrSpace = () => (i < b.length ? b[i] : 0x20);
  const literal = (word: string) => {
    for (let k = 1; k < word.length; k++) {
      i++;
      const c = atOrSpace();
      if (c !== word.charCodeAt(k)) throw bad(c, `in literal ${word} (expecting ${quoteChar(word.charCodeAt(k))})`);
    }
    i++;
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      const c = need();
      if (c === 0x22) {
        i++;
        return;
      }
      if (c === 0x5c) {
        i++;
        const e = need();
        if (e === 0x75) {
          for (let k = 0; k < 4; k++) {
            i++;
            const h = need();
            if (!isHex(h)) throw bad(h, 'in \\u hexadecimal character escape');
          }
        } else if (!'bfnrt\\/"'.includes(String.fromCharCode(e))) throw bad(e, 'in string escape code');
        i++;
        continue;
      }
      if (c < 0x20) throw bad(c, 'in string literal');
      i++;
    }
  };
  const digits = () => {
    while (isDigit(peek())) i++;
  };
  const number = () => {
    if (peek() === 0x2d) {
      i++;
      const c = atOrSpace();
      if (!isDigit(c)) throw bad(c, 'in numeric literal');
    }
    if (peek() === 0x30) i++;
    else digits();
    if (peek() === 0x2e) {
      i++;
      const c = atOrSpace();
      if (!isDigit(c)) throw bad(c, 'after decimal point in numeric literal');
      digits();
    }
    if (peek() === 0x65 || peek() === 0x45) {
      i++;
      if (peek() === 0x2b || peek() === 0x2d) i++;
      const c = atOrSpace();
      if (!isDigit(c)) throw bad(c, 'in exponent of numeric literal');
      digits();
    }
  };
  const key = () => {
    skip();
    const k = need();
    if (k !== 0x22) throw bad(k, 'looking for beginning of object key string');
    string();
    skip();
    const colon = need();
    if (colon !== 0x3a) throw bad(colon, 'after object key');
    i++;
  };
  // Iterative, with Go's nesting limit, so deep input cannot exhaust the JavaScript stack.
  const value = (): void => {
    const stack: number[] = [];
    let expectValue = true;
    for (;;) {
      if (expectValue) {
        skip();
        const c = need();
        if (c === 0x7b || c === 0x5b) {
          if (stack.length >= 10000) throw bad(c, 'exceeded max depth');
          i++;
          skip();
          if (need() === (c === 0x7b ? 0x7d : 0x5d)) {
            i++;
            expectValue = false;
            continue;
          }
          stack.push(c);
          if (c === 0x7b) key();
          continue;
        }
        if (c === 0x22) string();
        else if (c === 0x2d || isDigit(c)) number();
        else if (c === 0x74) literal('true');
        else if (c === 0x66) literal('false');
        else if (c === 0x6e) literal('null');
        else throw bad(c, 'looking for beginning of value');
        expectValue = false;
        continue;
      }
      if (!stack.length) return;
      skip();
      const sep = need();
      const top = stack[stack.length - 1];
      if (sep === (top === 0x7b ? 0x7d : 0x5d)) {
        i++;
        stack.pop();
        continue;
      }
      if (sep !== 0x2c) throw bad(sep, top === 0x7b ? 'after object key:value pair' : 'after array element');
      i++;
      if (top === 0x7b) key();
      expectValue = true;
    }
  };
  try {
    value();
    skip();
    if (i < b.length) throw bad(b[i], 'after top-level value');
    return undefined;
  } catch (e) {
    if (e instanceof Syntax) return e.message;
    throw e;
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
