/**
 * The case conversions sprig v3.3.0 takes from huandu/xstrings v1.5.0 (the versions Argo CD 2.13+ pins):
 * `camelcase` is xstrings.ToPascalCase (v1.5.0 renamed the old behaviour; it lower-cases the rest of
 * an all-caps word: GOLANG_IS_GREAT → GolangIsGreat), `snakecase`/`kebabcase` split words at case
 * changes, letters/digits and connectors (HTTPServer → http_server, Bld4Floor3rd → bld4_floor_3rd).
 * Argo CD 2.8–2.12 build sprig v3.2.3 with xstrings v1.3.3, whose `camelcase` is v1.3.3's
 * ToCamelCase (`toCamelCaseV133`: every letter not after a connector is lower-cased); its
 * snakecase/kebabcase rules are the same as v1.5.0's.
 * Our own port of those rules, rune by rune with Go's unicode classes.
 */

import { goToLower, goToUpper, isGoSpace } from './unicase';

const RUNE_ERROR = '\uFFFD';
const isUpper = (r: string) => /^\p{Lu}$/u.test(r);
const isLetter = (r: string) => /^\p{L}$/u.test(r);
const isNumber = (r: string) => /^\p{N}$/u.test(r);
const isPunct = (r: string) => /^\p{P}$/u.test(r);

const isConnector = (r: string) => r === '-' || r === '_' || isGoSpace(r);

/** A letter that is not a CJK ideograph (xstrings' isAlphabet). */
function isAlphabet(r: string): boolean {
  if (!isLetter(r)) return false;
  const c = r.codePointAt(0)!;
  if (c < 0x3400) return true;
  if (c >= 0x4e00 && c <= 0x9fcc) return false;
  if (c >= 0x3400 && c <= 0x4d85) return false;
  if (c >= 0x20000 && c <= 0x2b81d) return false;
  return true;
}

/** Runes of a Go string; a raw byte (U+DC80–U+DCFF) decodes as RuneError. */
function runes(s: string): string[] {
  return [...s].map((r) => (r.length === 1 && r >= '\uDC80' && r <= '\uDCFF' ? RUNE_ERROR : r));
}

type WordType = 'invalid' | 'number' | 'upper' | 'alphabet' | 'connector' | 'punct' | 'other';

/** nextValidRune: the next rune that is not RuneError and how many runes were consumed. */
function nextValid(rs: string[], at: number, prev: string): [string, number] {
  let size = 0;
  for (let i = at; i < rs.length; i++) {
    size++;
    if (rs[i] !== RUNE_ERROR) return [rs[i], size];
  }
  return [prev, size];
}

interface Word {
  wt: WordType;
  start: number;
  end: number;
  /** Index where the remaining text starts. */
  rest: number;
}

function nextWord(rs: string[], start: number): Word {
  if (start >= rs.length) return { wt: 'invalid', start, end: start, rest: start };
  let [r, size] = nextValid(rs, start, RUNE_ERROR);
  let offset = size;
  let rest = start;
  if (r === RUNE_ERROR) return { wt: 'invalid', start, end: start + offset, rest: start + offset };
  const run = (more: (x: string) => boolean) => {
    while (rest < rs.length) {
      [r, size] = nextValid(rs, rest, r);
      if (!more(r)) break;
      offset += size;
      rest += size;
    }
  };
  let wt: WordType;
  if (isConnector(r)) {
    wt = 'connector';
    rest += size;
    run(isConnector);
  } else if (isPunct(r)) {
    wt = 'punct';
    rest += size;
    run(isPunct);
  } else if (isUpper(r)) {
    wt = 'upper';
    rest += size;
    if (rest < rs.length) {
      [r, size] = nextValid(rs, rest, r);
      if (isUpper(r)) {
        let prevSize = size;
        offset += size;
        rest += size;
        while (rest < rs.length) {
          [r, size] = nextValid(rs, rest, r);
          if (!isUpper(r)) break;
          prevSize = size;
          offset += size;
          rest += size;
        }
        // "HTTPStatus" is "HTTP" + "Status": the last capital starts the next word.
        if (rest < rs.length && isAlphabet(r)) {
          offset -= prevSize;
          rest = start + offset;
        }
      } else if (isAlphabet(r)) {
        offset += size;
        rest += size;
        run((x) => isAlphabet(x) && !isUpper(x));
      }
    }
  } else if (isAlphabet(r)) {
    wt = 'alphabet';
    rest += size;
    run((x) => isAlphabet(x) && !isUpper(x));
  } else if (isNumber(r)) {
    wt = 'number';
    rest += size;
    run(isNumber);
  } else {
    wt = 'other';
    rest += size;
    while (rest < rs.length) {
      [r, size] = nextValid(rs, rest, r);
      if (size === 0 || isConnector(r) || isAlphabet(r) || isNumber(r) || isPunct(r)) break;
      offset += size;
      rest += size;
    }
  }
  return { wt, start, end: start + offset, rest };
}

function lowerInto(out: string[], w: Word, rs: string[], connector: string): void {
  const word = rs.slice(w.start, w.end);
  if (w.wt !== 'upper' && w.wt !== 'connector') {
    out.push(...word);
    return;
  }
  for (const r of word) out.push(isConnector(r) ? connector : isUpper(r) ? goToLower(r) : r);
}

/** xstrings' camelCaseToLowerCase (ToSnakeCase with '_', ToKebabCase with '-'). */
export function toLowerCaseWords(s: string, connector: string): string {
  if (s === '') return '';
  const rs = runes(s);
  const out: string[] = [];
  let w = nextWord(rs, 0);
  const word = (x: Word, wt: WordType = x.wt) => lowerInto(out, { ...x, wt }, rs, connector);
  while (w.rest < rs.length) {
    if (w.wt !== 'connector') word(w);
    const prev = w;
    w = nextWord(rs, w.rest);
    switch (prev.wt) {
      case 'number':
        while (w.wt === 'alphabet' || w.wt === 'number') {
          word(w);
          w = nextWord(rs, w.rest);
        }
        if (w.wt !== 'invalid' && w.wt !== 'punct' && w.wt !== 'connector') out.push(connector);
        break;
      case 'connector':
        word(prev);
        break;
      case 'punct':
        break;
      default: {
        if (w.wt !== 'number') {
          if (w.wt !== 'connector' && w.wt !== 'punct') out.push(connector);
          break;
        }
        if (w.rest >= rs.length) break;
        const num = w;
        w = nextWord(rs, w.rest);
        // A number followed by a non-letter belongs to the previous word ("Bld4Floor" → bld4_floor).
        if (w.wt !== 'alphabet') {
          word(num, 'number');
          if (w.wt !== 'connector' && w.wt !== 'punct') out.push(connector);
          break;
        }
        // Lower-case letters after a number start a new word with it ("HTTP2xx" → http_2xx).
        out.push(connector);
        word(num, 'number');
        while (w.wt === 'alphabet' || w.wt === 'number') {
          word(w);
          w = nextWord(rs, w.rest);
        }
        if (w.wt !== 'invalid' && w.wt !== 'connector' && w.wt !== 'punct') out.push(connector);
      }
    }
  }
  word(w);
  return out.join('');
}

/** xstrings.ToPascalCase (sprig's `camelcase`). */
export function toPascalCase(s: string): string {
  return capitalizeWords(s, false);
}

/**
 * xstrings v1.3.3 ToCamelCase (sprig v3.2.3's `camelcase`): the first rune after a run of
 * connectors is upper-cased, every other non-connector rune lower-cased (HTTP_SERVER → HttpServer,
 * fooBar → Foobar); leading connectors are kept and a connector-only input repeats its last one.
 */
export function toCamelCaseV133(s: string): string {
  return capitalizeWords(s, true);
}

/**
 * The walk both versions share: the first rune after connectors is upper-cased, a connector run
 * collapses to its last connector. The rest of a word is lower-cased always (`lowerAll`, v1.3.3) or,
 * as ToPascalCase does, only while the word's first letter and every letter since were upper case.
 */
function capitalizeWords(s: string, lowerAll: boolean): string {
  if (s === '') return '';
  const rs = runes(s);
  const out: string[] = [];
  let i = 0;
  let r0 = '';
  let firstUpper = false;
  // Leading connectors are kept as they are.
  for (; i < rs.length;) {
    r0 = rs[i++];
    if (!isConnector(r0)) {
      firstUpper = isUpper(r0);
      r0 = goToUpper(r0);
      break;
    }
    out.push(r0);
  }
  if (i >= rs.length) {
    out.push(r0); // as Go does, also when the input is only connectors (so the last one repeats)
    return out.join('');
  }
  while (i < rs.length) {
    const r1 = r0;
    r0 = rs[i++];
    if (isConnector(r0) && isConnector(r1)) {
      out.push(r1);
      continue;
    }
    if (isConnector(r1)) {
      firstUpper = isUpper(r0);
      r0 = goToUpper(r0);
    } else {
      if (lowerAll) r0 = goToLower(r0);
      else if (firstUpper) {
        if (isUpper(r0)) r0 = goToLower(r0);
        else firstUpper = false;
      }
      out.push(r1);
    }
  }
  out.push(r0);
  return out.join('');
}
