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
  const f = wallClock(t, zone);
  let out = '';
  for (let rest = layout; rest !== '';) {
    const c = nextChunk(rest);
    out += c.prefix;
    rest = c.suffix;
    if (!c.std) break;
    out += formatDate(c.std, f) ?? formatClock(c, f) ?? formatZone(c.std, zone);
  }
  return out;
}

/** The wall clock of a time seen in a zone: what layout elements print. */
interface WallClock {
  year: number;
  /** 0-11 */
  month: number;
  day: number;
  /** 0 (Sunday) - 6 */
  weekday: number;
  hour: number;
  minute: number;
  second: number;
  nanosecond: number;
}

function wallClock(t: GoTime, zone: Zone): WallClock {
  const d = new Date(t.ms + zone.offset * 1000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth(),
    day: d.getUTCDate(),
    weekday: d.getUTCDay(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    nanosecond: ((((t.ms % 1000) + 1000) % 1000) * 1e6 + t.nsec) | 0,
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A year, month, weekday or day element; undefined for the others. */
function formatDate(std: Std, f: WallClock): string | undefined {
  switch (std) {
    case 'LongMonth':
      return LONG_MONTHS[f.month];
    case 'Month':
      return SHORT_MONTHS[f.month];
    case 'NumMonth':
      return String(f.month + 1);
    case 'ZeroMonth':
      return pad(f.month + 1);
    case 'LongWeekDay':
      return LONG_DAYS[f.weekday];
    case 'WeekDay':
      return SHORT_DAYS[f.weekday];
    case 'Day':
      return String(f.day);
    case 'UnderDay':
      return String(f.day).padStart(2, ' ');
    case 'ZeroDay':
      return pad(f.day);
    case 'UnderYearDay':
    case 'ZeroYearDay': {
      const yd = Math.floor((utcMs(f.year, f.month, f.day) - utcMs(f.year, 0, 1)) / 86400000) + 1;
      return std === 'ZeroYearDay' ? pad(yd, 3) : String(yd).padStart(3, ' ');
    }
    case 'LongYear':
      return f.year < 0 ? '-' + pad(-f.year, 4) : pad(f.year, 4);
    case 'Year':
      return pad(((f.year % 100) + 100) % 100);
  }
  return undefined;
}

/** An hour, minute, second, AM/PM or fraction-of-second element; undefined for the others. */
function formatClock(c: Chunk, f: WallClock): string | undefined {
  switch (c.std) {
    case 'Hour':
      return pad(f.hour);
    case 'Hour12':
      return String(f.hour % 12 || 12);
    case 'ZeroHour12':
      return pad(f.hour % 12 || 12);
    case 'Minute':
      return String(f.minute);
    case 'ZeroMinute':
      return pad(f.minute);
    case 'Second':
      return String(f.second);
    case 'ZeroSecond':
      return pad(f.second);
    case 'PM':
      return f.hour >= 12 ? 'PM' : 'AM';
    case 'pm':
      return f.hour >= 12 ? 'pm' : 'am';
    case 'Frac0':
    case 'Frac9': {
      const digits = String(f.nanosecond).padStart(9, '0').slice(0, c.digits);
      if (c.std === 'Frac0') return c.sep + digits;
      return digits.replace(/0+$/, '') ? c.sep + digits.replace(/0+$/, '') : '';
    }
  }
  return undefined;
}

/** A zone element: the abbreviation (MST), `Z` for UTC in the ISO 8601 ones, else the offset. */
function formatZone(std: Std, zone: Zone): string {
  if (std === 'TZ') return zone.abbr !== '' ? zone.abbr : offsetText(zone.offset, false, zone.offset % 60 ? 'hms' : 'hm');
  if (std.startsWith('ISO') && zone.offset === 0) return 'Z';
  const colons = std.includes('Colon');
  const parts = std.includes('Short') ? 'h' : std.includes('Seconds') ? 'hms' : 'hm';
  return offsetText(zone.offset, colons, parts);
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
  const fail: Fail = (layoutElem, valueElem, message = '') => {
    throw new TimeParseError(
      message
        ? `parsing time ${timeQuote(valueIn)}${message}`
        : `parsing time ${timeQuote(valueIn)} as ${timeQuote(layoutIn)}: cannot parse ${timeQuote(valueElem)} as ${timeQuote(layoutElem)}`,
    );
  };
  const p: Parsed = {
    value: valueIn,
    year: 0,
    month: -1,
    day: -1,
    yday: -1,
    hour: 0,
    min: 0,
    sec: 0,
    nsec: 0,
    utcZone: false,
    zoneOffset: undefined,
    zoneName: '',
    amSet: false,
    pmSet: false,
  };
  let layout = layoutIn;
  for (;;) {
    const c = nextChunk(layout);
    const stdstr = layout.slice(c.prefix.length, layout.length - c.suffix.length);
    try {
      p.value = skip(p.value, c.prefix);
    } catch {
      fail(c.prefix, p.value);
    }
    if (!c.std) {
      if (p.value.length) fail('', p.value, `: extra text: ${timeQuote(p.value)}`);
      break;
    }
    layout = c.suffix;
    let range = '';
    try {
      range = parseDate(p, c.std) ?? parseClock(p, c, layout) ?? parseZone(p, c.std);
    } catch (e) {
      if (!(e instanceof Bad)) throw e;
      fail(stdstr, p.value);
    }
    if (range) fail(stdstr, p.value, `: ${range} out of range`);
  }
  if (p.pmSet && p.hour < 12) p.hour += 12;
  else if (p.amSet && p.hour === 12) p.hour = 0;
  settleDate(p, fail);
  return parsedTime(p);
}

type Fail = (layoutElem: string, valueElem: string, message?: string) => never;

/** What time.Parse has read so far: the rest of the value and the fields its elements set. */
interface Parsed {
  value: string;
  year: number;
  /** 1-12, or -1 until read */
  month: number;
  day: number;
  yday: number;
  hour: number;
  min: number;
  sec: number;
  nsec: number;
  utcZone: boolean;
  zoneOffset: number | undefined;
  zoneName: string;
  amSet: boolean;
  pmSet: boolean;
}

/**
 * A year, month, weekday or day element read from `p.value`: the name of a field out of range, or ''
 * (undefined for the other elements). Throws Bad where the value does not match.
 */
function parseDate(p: Parsed, std: Std): string | undefined {
  switch (std) {
    case 'Year': {
      if (p.value.length < 2) throw new Bad();
      const hold = p.value;
      const y = p.value.slice(0, 2);
      p.value = p.value.slice(2);
      try {
        p.year = atoi(y);
      } catch (e) {
        p.value = hold;
        throw e;
      }
      p.year += p.year >= 69 ? 1900 : 2000;
      return '';
    }
    case 'LongYear': {
      if (p.value.length < 4 || !isDigitAt(p.value, 0)) throw new Bad();
      const y = p.value.slice(0, 4);
      p.value = p.value.slice(4);
      p.year = atoi(y);
      return '';
    }
    case 'Month':
    case 'LongMonth':
      [p.month, p.value] = lookup(std === 'Month' ? SHORT_MONTHS : LONG_MONTHS, p.value);
      p.month++;
      return '';
    case 'NumMonth':
    case 'ZeroMonth':
      [p.month, p.value] = getnum(p.value, std === 'ZeroMonth');
      return p.month <= 0 || p.month > 12 ? 'month' : '';
    case 'WeekDay':
    case 'LongWeekDay':
      p.value = lookup(std === 'WeekDay' ? SHORT_DAYS : LONG_DAYS, p.value)[1];
      return '';
    case 'Day':
    case 'UnderDay':
    case 'ZeroDay':
      if (std === 'UnderDay' && p.value[0] === ' ') p.value = p.value.slice(1);
      [p.day, p.value] = getnum(p.value, std === 'ZeroDay');
      return '';
    case 'UnderYearDay':
    case 'ZeroYearDay':
      for (let i = 0; i < 2; i++) if (std === 'UnderYearDay' && p.value[0] === ' ') p.value = p.value.slice(1);
      [p.yday, p.value] = getnum3(p.value, std === 'ZeroYearDay');
      return '';
  }
  return undefined;
}

/**
 * An hour, minute, second, AM/PM or fraction element (`layout` is what follows it), as `parseDate`.
 */
function parseClock(p: Parsed, c: Chunk, layout: string): string | undefined {
  switch (c.std) {
    case 'Hour':
      [p.hour, p.value] = getnum(p.value, false);
      return p.hour < 0 || p.hour >= 24 ? 'hour' : '';
    case 'Hour12':
    case 'ZeroHour12':
      [p.hour, p.value] = getnum(p.value, c.std === 'ZeroHour12');
      return p.hour < 0 || p.hour > 12 ? 'hour' : '';
    case 'Minute':
    case 'ZeroMinute':
      [p.min, p.value] = getnum(p.value, c.std === 'ZeroMinute');
      return p.min < 0 || p.min >= 60 ? 'minute' : '';
    case 'Second':
    case 'ZeroSecond':
      [p.sec, p.value] = getnum(p.value, c.std === 'ZeroSecond');
      if (p.sec < 0 || p.sec >= 60) return 'second';
      // A fraction right after the seconds is read even when the layout has none.
      if (p.value.length >= 2 && (p.value[0] === '.' || p.value[0] === ',') && isDigitAt(p.value, 1)) {
        const next = nextChunk(layout).std;
        if (next !== 'Frac0' && next !== 'Frac9') readFraction(p, 2, true);
      }
      return '';
    case 'PM':
    case 'pm': {
      if (p.value.length < 2) throw new Bad();
      const v = p.value.slice(0, 2);
      p.value = p.value.slice(2);
      const [am, pm] = c.std === 'PM' ? ['AM', 'PM'] : ['am', 'pm'];
      if (v === pm) p.pmSet = true;
      else if (v === am) p.amSet = true;
      else throw new Bad();
      return '';
    }
    case 'Frac0':
      if (p.value.length < 1 + c.digits!) throw new Bad();
      readFraction(p, 1 + c.digits!, false);
      return '';
    case 'Frac9': {
      if (p.value.length < 2 || (p.value[0] !== '.' && p.value[0] !== ',') || !isDigitAt(p.value, 1)) return '';
      let i = 0;
      while (i < 9 && isDigitAt(p.value, i + 1)) i++;
      readFraction(p, 1 + i, false);
      return '';
    }
  }
  return undefined;
}

/**
 * The separator and digits of a fraction of a second: `n` bytes, or with `more` as many digits as
 * follow from the `n`th byte on. Go moves past them before it looks at the digits.
 */
function readFraction(p: Parsed, n: number, more: boolean): void {
  if (more) while (n < p.value.length && isDigitAt(p.value, n)) n++;
  const frac = p.value;
  p.value = p.value.slice(n);
  p.nsec = parseNanoseconds(frac, n);
}

/** A zone element: an abbreviation (MST), or a numeric or ISO 8601 offset, as `parseDate`. */
function parseZone(p: Parsed, std: Std): string {
  if (std === 'TZ') {
    if (p.value.startsWith('UTC')) {
      p.utcZone = true;
      p.value = p.value.slice(3);
      return '';
    }
    const n = parseTimeZone(p.value);
    if (!n) throw new Bad();
    p.zoneName = p.value.slice(0, n);
    p.value = p.value.slice(n);
    return '';
  }
  if ((std === 'ISO8601TZ' || std === 'ISO8601ShortTZ' || std === 'ISO8601ColonTZ') && p.value[0] === 'Z') {
    p.value = p.value.slice(1);
    p.utcZone = true;
    return '';
  }
  const [sign, hh, mm, ss] = offsetFields(p, std);
  const off = (atoi(hh) * 60 + atoi(mm)) * 60 + atoi(ss);
  if (sign === '+') p.zoneOffset = off;
  else if (sign === '-') p.zoneOffset = -off;
  else throw new Bad();
  return '';
}

/** The sign, hours, minutes and seconds of a numeric offset in the layout's form, read from `p.value`. */
function offsetFields(p: Parsed, std: Std): [string, string, string, string] {
  const v = p.value;
  let fields: [string, string, string, string], len: number;
  if (std === 'ISO8601ColonTZ' || std === 'NumColonTZ') {
    if (v.length < 6 || v[3] !== ':') throw new Bad();
    [fields, len] = [[v[0], v.slice(1, 3), v.slice(4, 6), '00'], 6];
  } else if (std === 'NumShortTZ' || std === 'ISO8601ShortTZ') {
    if (v.length < 3) throw new Bad();
    [fields, len] = [[v[0], v.slice(1, 3), '00', '00'], 3];
  } else if (std === 'ISO8601ColonSecondsTZ' || std === 'NumColonSecondsTZ') {
    if (v.length < 9 || v[3] !== ':' || v[6] !== ':') throw new Bad();
    [fields, len] = [[v[0], v.slice(1, 3), v.slice(4, 6), v.slice(7, 9)], 9];
  } else if (std === 'ISO8601SecondsTZ' || std === 'NumSecondsTz') {
    if (v.length < 7) throw new Bad();
    [fields, len] = [[v[0], v.slice(1, 3), v.slice(3, 5), v.slice(5, 7)], 7];
  } else {
    if (v.length < 5) throw new Bad();
    [fields, len] = [[v[0], v.slice(1, 3), v.slice(3, 5), '00'], 5];
  }
  p.value = v.slice(len);
  return fields;
}

/** The month and day from a day of the year, checked against those read; the defaults (January 1); the day's range. */
function settleDate(p: Parsed, fail: Fail): void {
  if (p.yday >= 0) {
    let m = 0,
      d = 0;
    if (isLeap(p.year)) {
      if (p.yday === 31 + 29) {
        m = 2;
        d = 29;
      } else if (p.yday > 31 + 29) p.yday--;
    }
    if (p.yday < 1 || p.yday > 365) fail('', p.value, ': day-of-year out of range');
    if (m === 0) {
      const before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];
      m = Math.floor((p.yday - 1) / 31) + 1;
      if (before[m] < p.yday) m++;
      d = p.yday - before[m - 1];
    }
    if (p.month >= 0 && p.month !== m) fail('', p.value, ': day-of-year does not match month');
    p.month = m;
    if (p.day >= 0 && p.day !== d) fail('', p.value, ': day-of-year does not match day');
    p.day = d;
  } else {
    if (p.month < 0) p.month = 1;
    if (p.day < 0) p.day = 1;
  }
  if (p.day < 1 || p.day > daysIn(p.month, p.year)) fail('', p.value, ': day out of range');
}

/** The instant and zone of a parsed time. */
function parsedTime(p: Parsed): GoTime {
  const wall = utcMs(p.year, p.month - 1, p.day, p.hour, p.min, p.sec);
  const ms = wall + Math.floor(p.nsec / 1e6),
    extra = p.nsec % 1e6;
  if (p.utcZone) return new GoTime(ms, extra);
  if (p.zoneOffset !== undefined) {
    const at = ms - p.zoneOffset * 1000;
    // Local is UTC: an offset of 0 without another name is Local itself, anything else a fixed zone.
    if (p.zoneOffset === 0 && (p.zoneName === '' || p.zoneName === 'UTC')) return new GoTime(at, extra);
    return new GoTime(at, extra, p.zoneName, p.zoneOffset);
  }
  if (p.zoneName !== '') {
    if (p.zoneName === 'UTC') return new GoTime(ms, extra);
    let offset = 0;
    if (p.zoneName.length > 3 && p.zoneName.startsWith('GMT')) offset = atoi(p.zoneName.slice(3)) * 3600;
    return new GoTime(ms, extra, p.zoneName, offset); // Go keeps the UTC instant here (the wall clock moves)
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
