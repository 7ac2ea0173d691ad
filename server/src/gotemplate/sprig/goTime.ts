/**
 * Go's time layouts, for sprig's date functions: our own port of the rules of time.Format and
 * time.Parse (layout chunks `2006 01 02 15 04 05 Jan Mon MST -0700 Z07:00 .000 .999 …`, range
 * checks, `extra text`, the `parsing time "…" as "…": cannot parse "…" as "…"` errors, fixed zones
 * for parsed offsets and unknown abbreviations). The controller's Local zone is UTC.
 */
import { GoTime, utf8Bytes } from '../values';
import { UTC, utcMs, type Zone } from './zones';

export { utcMs };

const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SHORT_DAYS = LONG_DAYS.map((d) => d.slice(0, 3));
const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const SHORT_MONTHS = LONG_MONTHS.map((m) => m.slice(0, 3));

type Std =
  | 'LongMonth'
  | 'Month'
  | 'NumMonth'
  | 'ZeroMonth'
  | 'LongWeekDay'
  | 'WeekDay'
  | 'Day'
  | 'UnderDay'
  | 'ZeroDay'
  | 'UnderYearDay'
  | 'ZeroYearDay'
  | 'Hour'
  | 'Hour12'
  | 'ZeroHour12'
  | 'Minute'
  | 'ZeroMinute'
  | 'Second'
  | 'ZeroSecond'
  | 'LongYear'
  | 'Year'
  | 'PM'
  | 'pm'
  | 'TZ'
  | 'ISO8601TZ'
  | 'ISO8601SecondsTZ'
  | 'ISO8601ShortTZ'
  | 'ISO8601ColonTZ'
  | 'ISO8601ColonSecondsTZ'
  | 'NumTZ'
  | 'NumSecondsTz'
  | 'NumShortTZ'
  | 'NumColonTZ'
  | 'NumColonSecondsTZ'
  | 'Frac0'
  | 'Frac9';

interface Chunk {
  prefix: string;
  std?: Std;
  /** Digits of a fractional-second chunk and its separator. */
  digits?: number;
  sep?: string;
  suffix: string;
}

/** Zone elements, longest first within each leading character (Go's order). */
const ZONE_TOKENS: [string, Std][] = [
  ['-070000', 'NumSecondsTz'],
  ['-07:00:00', 'NumColonSecondsTZ'],
  ['-0700', 'NumTZ'],
  ['-07:00', 'NumColonTZ'],
  ['-07', 'NumShortTZ'],
  ['Z070000', 'ISO8601SecondsTZ'],
  ['Z07:00:00', 'ISO8601ColonSecondsTZ'],
  ['Z0700', 'ISO8601TZ'],
  ['Z07:00', 'ISO8601ColonTZ'],
  ['Z07', 'ISO8601ShortTZ'],
];
const ZERO_STD: Std[] = ['ZeroMonth', 'ZeroDay', 'ZeroHour12', 'ZeroMinute', 'ZeroSecond', 'Year'];
const isDigitAt = (s: string, i: number) => i < s.length && s[i] >= '0' && s[i] <= '9';

/** time's nextStdChunk: the text before the first layout element, the element, the rest. */
export function nextChunk(layout: string): Chunk {
  const at = (i: number, s: string) => layout.startsWith(s, i);
  const cut = (i: number, std: Std, len: number, prefixEnd = i): Chunk => ({
    prefix: layout.slice(0, prefixEnd),
    std,
    suffix: layout.slice(i + len),
  });
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i];
    switch (c) {
      case 'J':
        if (at(i, 'Jan')) {
          if (at(i, 'January')) return cut(i, 'LongMonth', 7);
          if (!/^[a-z]/.test(layout.slice(i + 3))) return cut(i, 'Month', 3);
        }
        break;
      case 'M':
        if (at(i, 'Mon')) {
          if (at(i, 'Monday')) return cut(i, 'LongWeekDay', 6);
          if (!/^[a-z]/.test(layout.slice(i + 3))) return cut(i, 'WeekDay', 3);
        }
        if (at(i, 'MST')) return cut(i, 'TZ', 3);
        break;
      case '0':
        if (i + 1 < layout.length && layout[i + 1] >= '1' && layout[i + 1] <= '6')
          return cut(i, ZERO_STD[layout.charCodeAt(i + 1) - 0x31], 2);
        if (at(i, '002')) return cut(i, 'ZeroYearDay', 3);
        break;
      case '1':
        if (at(i, '15')) return cut(i, 'Hour', 2);
        return cut(i, 'NumMonth', 1);
      case '2':
        if (at(i, '2006')) return cut(i, 'LongYear', 4);
        return cut(i, 'Day', 1);
      case '_':
        if (layout[i + 1] === '2') {
          if (at(i + 1, '2006')) return { prefix: layout.slice(0, i + 1), std: 'LongYear', suffix: layout.slice(i + 5) };
          return cut(i, 'UnderDay', 2);
        }
        if (at(i, '__2')) return cut(i, 'UnderYearDay', 3);
        break;
      case '3':
        return cut(i, 'Hour12', 1);
      case '4':
        return cut(i, 'Minute', 1);
      case '5':
        return cut(i, 'Second', 1);
      case 'P':
        if (layout[i + 1] === 'M') return cut(i, 'PM', 2);
        break;
      case 'p':
        if (layout[i + 1] === 'm') return cut(i, 'pm', 2);
        break;
      case '-':
      case 'Z':
        for (const [tok, std] of ZONE_TOKENS) if (tok[0] === c && at(i, tok)) return cut(i, std, tok.length);
        break;
      case '.':
      case ',':
        if (layout[i + 1] === '0' || layout[i + 1] === '9') {
          const ch = layout[i + 1];
          let j = i + 1;
          while (j < layout.length && layout[j] === ch) j++;
          if (!isDigitAt(layout, j))
            return {
              prefix: layout.slice(0, i),
              std: ch === '0' ? 'Frac0' : 'Frac9',
              digits: j - (i + 1),
              sep: c,
              suffix: layout.slice(j),
            };
        }
        break;
    }
  }
  return { prefix: layout, suffix: '' };
}

// ---- calendar helpers (proleptic Gregorian, like Go) -----------------------------------------------
const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysIn = (m: number, y: number) => (m === 2 && isLeap(y) ? 29 : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]);

// ---- formatting ----------------------------------------------------------------------------------
function offsetText(offset: number, colons: boolean, parts: 'h' | 'hm' | 'hms'): string {
  const a = Math.abs(offset);
  const p = (n: number) => String(n).padStart(2, '0');
  const fields = [p(Math.floor(a / 3600)), p(Math.floor((a % 3600) / 60)), p(a % 60)].slice(0, parts.length);
  return (offset < 0 ? '-' : '+') + fields.join(colons ? ':' : '');
}

/** The zone a time carries (what its String and MarshalJSON print it in). */
export const zoneOf = (t: GoTime): Zone => ({ offset: t.offset, abbr: t.zone });

/** time.Time.Format of `t` seen in `zone`. */
export function formatTime(t: GoTime, layout: string, zone: Zone = UTC): string {
  const d = new Date(t.ms + zone.offset * 1000);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const Y = d.getUTCFullYear(),
    M = d.getUTCMonth(),
    D = d.getUTCDate(),
    h = d.getUTCHours(),
    mi = d.getUTCMinutes(),
    s = d.getUTCSeconds();
  const ns = ((((t.ms % 1000) + 1000) % 1000) * 1e6 + t.nsec) | 0;
  let out = '';
  for (let rest = layout; rest !== '';) {
    const c = nextChunk(rest);
    out += c.prefix;
    rest = c.suffix;
    if (!c.std) break;
    switch (c.std) {
      case 'LongMonth':
        out += LONG_MONTHS[M];
        break;
      case 'Month':
        out += SHORT_MONTHS[M];
        break;
      case 'NumMonth':
        out += String(M + 1);
        break;
      case 'ZeroMonth':
        out += p(M + 1);
        break;
      case 'LongWeekDay':
        out += LONG_DAYS[d.getUTCDay()];
        break;
      case 'WeekDay':
        out += SHORT_DAYS[d.getUTCDay()];
        break;
      case 'Day':
        out += String(D);
        break;
      case 'UnderDay':
        out += String(D).padStart(2, ' ');
        break;
      case 'ZeroDay':
        out += p(D);
        break;
      case 'UnderYearDay':
      case 'ZeroYearDay': {
        const yd = Math.floor((utcMs(Y, M, D) - utcMs(Y, 0, 1)) / 86400000) + 1;
        out += c.std === 'ZeroYearDay' ? p(yd, 3) : String(yd).padStart(3, ' ');
        break;
      }
      case 'Hour':
        out += p(h);
        break;
      case 'Hour12':
        out += String(h % 12 || 12);
        break;
      case 'ZeroHour12':
        out += p(h % 12 || 12);
        break;
      case 'Minute':
        out += String(mi);
        break;
      case 'ZeroMinute':
        out += p(mi);
        break;
      case 'Second':
        out += String(s);
        break;
      case 'ZeroSecond':
        out += p(s);
        break;
      case 'LongYear':
        out += Y < 0 ? '-' + p(-Y, 4) : p(Y, 4);
        break;
      case 'Year':
        out += p(((Y % 100) + 100) % 100);
        break;
      case 'PM':
        out += h >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += h >= 12 ? 'pm' : 'am';
        break;
      case 'TZ':
        out += zone.abbr !== '' ? zone.abbr : offsetText(zone.offset, false, zone.offset % 60 ? 'hms' : 'hm');
        break;
      default: {
        if (c.std.startsWith('ISO') && zone.offset === 0) {
          out += 'Z';
          break;
        }
        const colons = c.std.includes('Colon');
        const parts = c.std.includes('Short') ? 'h' : c.std.includes('Seconds') ? 'hms' : 'hm';
        if (c.std === 'Frac0' || c.std === 'Frac9') {
          const digits = String(ns).padStart(9, '0').slice(0, c.digits);
          if (c.std === 'Frac0') out += c.sep + digits;
          else if (digits.replace(/0+$/, '')) out += c.sep + digits.replace(/0+$/, '');
          break;
        }
        out += offsetText(zone.offset, colons, parts);
      }
    }
  }
  return out;
}

// ---- parsing -------------------------------------------------------------------------------------
/** time's quote(): non-ASCII and control bytes as \xNN. */
export function timeQuote(s: string): string {
  let out = '"';
  for (const b of utf8Bytes(s)) {
    if (b >= 0x80 || b < 0x20) out += '\\x' + b.toString(16).padStart(2, '0');
    else out += (b === 0x22 || b === 0x5c ? '\\' : '') + String.fromCharCode(b);
  }
  return out + '"';
}

class Bad extends Error {}

function getnum(s: string, fixed: boolean): [number, string] {
  if (!isDigitAt(s, 0)) throw new Bad();
  if (!isDigitAt(s, 1)) {
    if (fixed) throw new Bad();
    return [Number(s[0]), s.slice(1)];
  }
  return [Number(s.slice(0, 2)), s.slice(2)];
}

function getnum3(s: string, fixed: boolean): [number, string] {
  let i = 0;
  while (i < 3 && isDigitAt(s, i)) i++;
  if (i === 0 || (fixed && i !== 3)) throw new Bad();
  return [Number(s.slice(0, i)), s.slice(i)];
}

function lookup(tab: string[], val: string): [number, string] {
  for (let i = 0; i < tab.length; i++) {
    const v = tab[i];
    if (val.length >= v.length && val.slice(0, v.length).toLowerCase() === v.toLowerCase() && /^[\x00-\x7f]*$/.test(val.slice(0, v.length)))
      return [i, val.slice(v.length)];
  }
  throw new Bad();
}

function skip(value: string, prefix: string): string {
  while (prefix.length) {
    if (prefix[0] === ' ') {
      if (value.length && value[0] !== ' ') throw new Bad();
      prefix = prefix.replace(/^ +/, '');
      value = value.replace(/^ +/, '');
      continue;
    }
    if (!value.length || value[0] !== prefix[0]) throw new Bad();
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return value;
}

/** time's atoi: optional sign, digits only. */
function atoi(s: string): number {
  const m = /^([+-]?)(\d+)$/.exec(s);
  if (!m) throw new Bad();
  return (m[1] === '-' ? -1 : 1) * Number(m[2]);
}

function parseNanoseconds(value: string, nbytes: number): number {
  if (value[0] !== '.' && value[0] !== ',') throw new Bad();
  const digits = value.slice(1, Math.min(nbytes, 10));
  return atoi(digits) * 10 ** (10 - Math.min(nbytes, 10));
}

function parseTimeZone(value: string): number {
  if (value.length < 3) return 0;
  if (value.startsWith('ChST') || value.startsWith('MeST')) return 4;
  if (value.startsWith('GMT')) {
    const rest = value.slice(3);
    return 3 + (rest === '' ? 0 : signedOffsetLength(rest));
  }
  if (value[0] === '+' || value[0] === '-') return signedOffsetLength(value);
  let n = 0;
  while (n < 6 && n < value.length && value[n] >= 'A' && value[n] <= 'Z') n++;
  if (n === 5) return value[4] === 'T' ? 5 : 0;
  if (n === 4) return value[3] === 'T' || value.startsWith('WITA') ? 4 : 0;
  return n === 3 ? 3 : 0;
}

function signedOffsetLength(value: string): number {
  const m = /^[+-](\d+)/.exec(value);
  if (!m || Number(m[1]) > 23) return 0;
  return m[0].length;
}

export class TimeParseError extends Error {}

/** time.ParseInLocation(layout, value, Local) with Local = UTC, as sprig's toDate calls it. */
export function parseTime(layoutIn: string, valueIn: string): GoTime {
  const fail = (layoutElem: string, valueElem: string, message = ''): never => {
    throw new TimeParseError(
      message
        ? `parsing time ${timeQuote(valueIn)}${message}`
        : `parsing time ${timeQuote(valueIn)} as ${timeQuote(layoutIn)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`,
    );
  };
  let layout = layoutIn,
    value = valueIn;
  let year = 0,
    month = -1,
    day = -1,
    yday = -1,
    hour = 0,
    min = 0,
    sec = 0,
    nsec = 0;
  let utcZone = false,
    zoneOffset: number | undefined,
    zoneName = '';
  let amSet = false,
    pmSet = false;
  for (;;) {
    const c = nextChunk(layout);
    const stdstr = layout.slice(c.prefix.length, layout.length - c.suffix.length);
    try {
      value = skip(value, c.prefix);
    } catch {
      fail(c.prefix, value);
    }
    if (!c.std) {
      if (value.length) fail('', value, `: extra text: ${timeQuote(value)}`);
      break;
    }
    layout = c.suffix;
    let range = '';
    const hold = value;
    try {
      switch (c.std) {
        case 'Year': {
          if (value.length < 2) throw new Bad();
          const y = value.slice(0, 2);
          value = value.slice(2);
          try {
            year = atoi(y);
          } catch (e) {
            value = hold;
            throw e;
          }
          year += year >= 69 ? 1900 : 2000;
          break;
        }
        case 'LongYear': {
          if (value.length < 4 || !isDigitAt(value, 0)) throw new Bad();
          const y = value.slice(0, 4);
          value = value.slice(4);
          year = atoi(y);
          break;
        }
        case 'Month':
          [month, value] = lookup(SHORT_MONTHS, value);
          month++;
          break;
        case 'LongMonth':
          [month, value] = lookup(LONG_MONTHS, value);
          month++;
          break;
        case 'NumMonth':
        case 'ZeroMonth':
          [month, value] = getnum(value, c.std === 'ZeroMonth');
          if (month <= 0 || month > 12) range = 'month';
          break;
        case 'WeekDay':
          value = lookup(SHORT_DAYS, value)[1];
          break;
        case 'LongWeekDay':
          value = lookup(LONG_DAYS, value)[1];
          break;
        case 'Day':
        case 'UnderDay':
        case 'ZeroDay':
          if (c.std === 'UnderDay' && value[0] === ' ') value = value.slice(1);
          [day, value] = getnum(value, c.std === 'ZeroDay');
          break;
        case 'UnderYearDay':
        case 'ZeroYearDay':
          for (let i = 0; i < 2; i++) if (c.std === 'UnderYearDay' && value[0] === ' ') value = value.slice(1);
          [yday, value] = getnum3(value, c.std === 'ZeroYearDay');
          break;
        case 'Hour':
          [hour, value] = getnum(value, false);
          if (hour < 0 || hour >= 24) range = 'hour';
          break;
        case 'Hour12':
        case 'ZeroHour12':
          [hour, value] = getnum(value, c.std === 'ZeroHour12');
          if (hour < 0 || hour > 12) range = 'hour';
          break;
        case 'Minute':
        case 'ZeroMinute':
          [min, value] = getnum(value, c.std === 'ZeroMinute');
          if (min < 0 || min >= 60) range = 'minute';
          break;
        case 'Second':
        case 'ZeroSecond': {
          [sec, value] = getnum(value, c.std === 'ZeroSecond');
          if (sec < 0 || sec >= 60) {
            range = 'second';
            break;
          }
          // A fraction right after the seconds is read even when the layout has none.
          if (value.length >= 2 && (value[0] === '.' || value[0] === ',') && isDigitAt(value, 1)) {
            const next = nextChunk(layout).std;
            if (next === 'Frac0' || next === 'Frac9') break;
            let n = 2;
            while (n < value.length && isDigitAt(value, n)) n++;
            const frac = value;
            value = value.slice(n); // Go moves on before it looks at the digits
            nsec = parseNanoseconds(frac, n);
          }
          break;
        }
        case 'PM':
        case 'pm': {
          if (value.length < 2) throw new Bad();
          const v = value.slice(0, 2);
          value = value.slice(2);
          const [am, pm] = c.std === 'PM' ? ['AM', 'PM'] : ['am', 'pm'];
          if (v === pm) pmSet = true;
          else if (v === am) amSet = true;
          else throw new Bad();
          break;
        }
        case 'TZ': {
          if (value.startsWith('UTC')) {
            utcZone = true;
            value = value.slice(3);
            break;
          }
          const n = parseTimeZone(value);
          if (!n) throw new Bad();
          zoneName = value.slice(0, n);
          value = value.slice(n);
          break;
        }
        case 'Frac0': {
          const n = 1 + c.digits!;
          if (value.length < n) throw new Bad();
          const frac = value;
          value = value.slice(n);
          nsec = parseNanoseconds(frac, n);
          break;
        }
        case 'Frac9': {
          if (value.length < 2 || (value[0] !== '.' && value[0] !== ',') || !isDigitAt(value, 1)) break;
          let i = 0;
          while (i < 9 && isDigitAt(value, i + 1)) i++;
          const frac = value;
          value = value.slice(1 + i);
          nsec = parseNanoseconds(frac, 1 + i);
          break;
        }
        default: {
          // numeric and ISO 8601 zone offsets
          const std = c.std;
          if ((std === 'ISO8601TZ' || std === 'ISO8601ShortTZ' || std === 'ISO8601ColonTZ') && value[0] === 'Z') {
            value = value.slice(1);
            utcZone = true;
            break;
          }
          let sign: string,
            hh: string,
            mm = '00',
            ss = '00';
          if (std === 'ISO8601ColonTZ' || std === 'NumColonTZ') {
            if (value.length < 6 || value[3] !== ':') throw new Bad();
            [sign, hh, mm] = [value[0], value.slice(1, 3), value.slice(4, 6)];
            value = value.slice(6);
          } else if (std === 'NumShortTZ' || std === 'ISO8601ShortTZ') {
            if (value.length < 3) throw new Bad();
            [sign, hh] = [value[0], value.slice(1, 3)];
            value = value.slice(3);
          } else if (std === 'ISO8601ColonSecondsTZ' || std === 'NumColonSecondsTZ') {
            if (value.length < 9 || value[3] !== ':' || value[6] !== ':') throw new Bad();
            [sign, hh, mm, ss] = [value[0], value.slice(1, 3), value.slice(4, 6), value.slice(7, 9)];
            value = value.slice(9);
          } else if (std === 'ISO8601SecondsTZ' || std === 'NumSecondsTz') {
            if (value.length < 7) throw new Bad();
            [sign, hh, mm, ss] = [value[0], value.slice(1, 3), value.slice(3, 5), value.slice(5, 7)];
            value = value.slice(7);
          } else {
            if (value.length < 5) throw new Bad();
            [sign, hh, mm] = [value[0], value.slice(1, 3), value.slice(3, 5)];
            value = value.slice(5);
          }
          const off = (atoi(hh) * 60 + atoi(mm)) * 60 + atoi(ss);
          if (sign === '+') zoneOffset = off;
          else if (sign === '-') zoneOffset = -off;
          else throw new Bad();
        }
      }
    } catch (e) {
      if (!(e instanceof Bad)) throw e;
      fail(stdstr, value);
    }
    if (range) fail(stdstr, value, `: ${range} out of range`);
  }
  if (pmSet && hour < 12) hour += 12;
  else if (amSet && hour === 12) hour = 0;

  if (yday >= 0) {
    let m = 0,
      d = 0;
    if (isLeap(year)) {
      if (yday === 31 + 29) {
        m = 2;
        d = 29;
      } else if (yday > 31 + 29) yday--;
    }
    if (yday < 1 || yday > 365) fail('', value, ': day-of-year out of range');
    if (m === 0) {
      const before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
      m = Math.floor((yday - 1) / 31) + 1;
      if (before[m] < yday) m++;
      d = yday - before[m - 1];
    }
    if (month >= 0 && month !== m) fail('', value, ': day-of-year does not match month');
    month = m;
    if (day >= 0 && day !== d) fail('', value, ': day-of-year does not match day');
    day = d;
  } else {
    if (month < 0) month = 1;
    if (day < 0) day = 1;
  }
  if (day < 1 || day > daysIn(month, year)) fail('', value, ': day out of range');

  const wall = utcMs(year, month - 1, day, hour, min, sec);
  const ms = wall + Math.floor(nsec / 1e6),
    extra = nsec % 1e6;
  if (utcZone) return new GoTime(ms, extra);
  if (zoneOffset !== undefined) {
    const at = ms - zoneOffset * 1000;
    // Local is UTC: an offset of 0 without another name is Local itself, anything else a fixed zone.
    if (zoneOffset === 0 && (zoneName === '' || zoneName === 'UTC')) return new GoTime(at, extra);
    return new GoTime(at, extra, zoneName, zoneOffset);
  }
  if (zoneName !== '') {
    if (zoneName === 'UTC') return new GoTime(ms, extra);
    let offset = 0;
    if (zoneName.length > 3 && zoneName.startsWith('GMT')) offset = atoi(zoneName.slice(3)) * 3600;
    return new GoTime(ms, extra, zoneName, offset); // Go keeps the UTC instant here (the wall clock moves)
  }
  return new GoTime(ms, extra);
}

// ---- durations -----------------------------------------------------------------------------------
const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
};
const MAX = 1n << 63n;

/** time.ParseDuration, in nanoseconds; throws Go's error text. */
export function parseDuration(orig: string): bigint {
  const invalid = () => new Error(`time: invalid duration ${timeQuote(orig)}`);
  let s = orig;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || (s[0] >= '0' && s[0] <= '9'))) throw invalid();
    const int = /^\d*/.exec(s)![0];
    s = s.slice(int.length);
    let frac = '';
    if (s[0] === '.') {
      frac = /^\d*/.exec(s.slice(1))![0];
      s = s.slice(1 + frac.length);
    }
    if (int === '' && frac === '') throw invalid();
    const unit = /^[^.0-9]*/.exec(s)![0];
    if (unit === '') throw new Error(`time: missing unit in duration ${timeQuote(orig)}`);
    s = s.slice(unit.length);
    const mult = UNITS[unit];
    if (mult === undefined) throw new Error(`time: unknown unit ${timeQuote(unit)} in duration ${timeQuote(orig)}`);
    let v = int === '' ? 0n : BigInt(int);
    if (v > MAX / mult) throw invalid();
    v *= mult;
    if (frac !== '') {
      // Go keeps at most ~19 digits of the fraction and scales in float64.
      const digits = frac.replace(/0+$/, '').slice(0, 18);
      if (digits !== '') v += BigInt(Math.trunc(Number(digits) * (Number(mult) / 10 ** digits.length)));
      if (v > MAX) throw invalid();
    }
    d += v;
    if (d > MAX) throw invalid();
  }
  if (neg) return -d;
  if (d > MAX - 1n) throw invalid();
  return d;
}

/** Time.Add */
export function addDuration(t: GoTime, ns: bigint): GoTime {
  const total = BigInt(Math.round(t.ms)) * 1000000n + BigInt(t.nsec) + ns;
  const ms = total / 1000000n - (total % 1000000n < 0n ? 1n : 0n);
  return new GoTime(
    Number(ms),
    Number(total - ms * 1000000n),
    t.zone,
    t.offset,
    t.mono === undefined ? undefined : t.mono + Number(ns) / 1e9,
  );
}
