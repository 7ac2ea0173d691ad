/**
 * Time zones for `dateInZone`/`htmlDateInZone` (sprig `date.go` calls time.LoadLocation and falls
 * back to UTC when the zone is unknown). Offsets come from the IANA data in Node's ICU, so they are
 * exact for every zone and date. Go prints tzdata's abbreviation for `MST` in a layout; ICU only
 * knows some of them by name, so the common ones are mapped from ICU's long names below, and the
 * rest are printed the way tzdata writes zones without a letter abbreviation (`-03`, `+0545`).
 */

export interface Zone {
  /** Seconds east of UTC. */
  offset: number;
  /** What Go's `MST` layout token prints. */
  abbr: string;
}

export const UTC: Zone = { offset: 0, abbr: 'UTC' };

/** Milliseconds since the epoch of a UTC wall time, for any year (Date.UTC maps 0–99 to 19xx). */
export function utcMs(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo, d);
  t.setUTCHours(h, mi, s, 0);
  return t.getTime();
}

const LONG_NAMES: Record<string, string> = {
  'Coordinated Universal Time': 'UTC',
  'Greenwich Mean Time': 'GMT',
  'British Summer Time': 'BST',
  'Irish Standard Time': 'IST',
  'Western European Standard Time': 'WET',
  'Western European Summer Time': 'WEST',
  'Central European Standard Time': 'CET',
  'Central European Summer Time': 'CEST',
  'Eastern European Standard Time': 'EET',
  'Eastern European Summer Time': 'EEST',
  'Moscow Standard Time': 'MSK',
  'Israel Standard Time': 'IST',
  'Israel Daylight Time': 'IDT',
  'India Standard Time': 'IST',
  'Pakistan Standard Time': 'PKT',
  'Western Indonesia Time': 'WIB',
  'China Standard Time': 'CST',
  'Hong Kong Standard Time': 'HKT',
  'Philippine Standard Time': 'PST',
  'Japan Standard Time': 'JST',
  'Korean Standard Time': 'KST',
  'South Africa Standard Time': 'SAST',
  'Central Africa Time': 'CAT',
  'East Africa Time': 'EAT',
  'West Africa Standard Time': 'WAT',
  'West Africa Time': 'WAT',
  'Newfoundland Standard Time': 'NST',
  'Newfoundland Daylight Time': 'NDT',
  'Taiwan Standard Time': 'CST',
  'Australian Eastern Standard Time': 'AEST',
  'Australian Eastern Daylight Time': 'AEDT',
  'Australian Central Standard Time': 'ACST',
  'Australian Central Daylight Time': 'ACDT',
  'Australian Western Standard Time': 'AWST',
  'New Zealand Standard Time': 'NZST',
  'New Zealand Daylight Time': 'NZDT',
  'Hawaii-Aleutian Standard Time': 'HST',
};

/**
 * Zones where ICU's names lead to another abbreviation than tzdata's: by offset (seconds), what Go
 * prints; 'numeric' where tzdata has no letters. Checked against Go over every IANA zone.
 */
const H = 3600;
const ZONE_ABBR: Record<string, [number, string][] | 'numeric'> = {
  'America/Havana': [
    [-5 * H, 'CST'],
    [-4 * H, 'CDT'],
  ],
  'America/Hermosillo': [[-7 * H, 'MST']],
  'America/Mazatlan': [
    [-7 * H, 'MST'],
    [-6 * H, 'MDT'],
  ],
  'America/Dawson': [[-7 * H, 'MST']],
  'America/Whitehorse': [[-7 * H, 'MST']],
  'America/Adak': [
    [-10 * H, 'HST'],
    [-9 * H, 'HDT'],
  ],
  'Asia/Jayapura': [[9 * H, 'WIT']],
  'Asia/Makassar': [[8 * H, 'WITA']],
  'Asia/Pontianak': [
    [7 * H, 'WIB'],
    [8 * H, 'WITA'],
  ],
  'Asia/Macau': [
    [8 * H, 'CST'],
    [9 * H, 'CDT'],
  ],
  'Pacific/Guam': [[10 * H, 'ChST']],
  'Pacific/Saipan': [[10 * H, 'ChST']],
  'Pacific/Midway': [[-11 * H, 'SST']],
  'Pacific/Pago_Pago': [[-11 * H, 'SST']],
  'Europe/Guernsey': [
    [0, 'GMT'],
    [H, 'BST'],
  ],
  'Europe/Isle_of_Man': [
    [0, 'GMT'],
    [H, 'BST'],
  ],
  'Europe/Jersey': [
    [0, 'GMT'],
    [H, 'BST'],
  ],
  'Europe/Minsk': 'numeric',
  'Antarctica/Casey': 'numeric',
  'Antarctica/Troll': 'numeric',
  'Asia/Colombo': 'numeric',
  'Asia/Thimphu': 'numeric',
  'Africa/Casablanca': 'numeric',
  'Africa/El_Aaiun': 'numeric',
};

const formatters = new Map<string, { parts: Intl.DateTimeFormat; short: Intl.DateTimeFormat; long: Intl.DateTimeFormat } | null>();

function formattersFor(name: string) {
  if (formatters.has(name)) return formatters.get(name)!;
  let f: { parts: Intl.DateTimeFormat; short: Intl.DateTimeFormat; long: Intl.DateTimeFormat } | null = null;
  // Go's zone lookup is a case-sensitive file name; ICU's is not.
  if (/^[A-Z]/.test(name) && !name.includes('..')) {
    try {
      f = {
        parts: new Intl.DateTimeFormat('en-US', {
          timeZone: name,
          hourCycle: 'h23',
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          second: 'numeric',
          era: 'short',
        }),
        short: new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'short' }),
        long: new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'long' }),
      };
    } catch {
      f = null;
    }
  }
  if (formatters.size > 200) formatters.clear();
  formatters.set(name, f);
  return f;
}

function zoneName(f: Intl.DateTimeFormat, d: Date): string {
  return f.formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** The zone in effect at `ms` for an IANA name, or undefined when Go could not load it. */
export function zoneAt(name: string, ms: number): Zone | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return UTC; // the controller's Local is UTC
  const f = formattersFor(name);
  if (!f) return undefined;
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const p: Record<string, string> = {};
  for (const part of f.parts.formatToParts(d)) p[part.type] = part.value;
  const year = p.era === 'BC' ? 1 - Number(p.year) : Number(p.year);
  const wall = utcMs(year, Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  const offset = Math.round((wall - d.getTime()) / 1000);
  const long = zoneName(f.long, d),
    short = zoneName(f.short, d);
  const override = Object.prototype.hasOwnProperty.call(ZONE_ABBR, name) ? ZONE_ABBR[name] : undefined;
  let abbr = override === 'numeric' ? undefined : override?.find(([o]) => o === offset)?.[1];
  if (!abbr && override !== 'numeric') abbr = LONG_NAMES[long];
  if (!abbr && override !== 'numeric' && short && !/^GMT[+-]/.test(short)) abbr = short;
  if (!abbr) {
    const a = Math.abs(offset),
      hh = String(Math.floor(a / 3600)).padStart(2, '0'),
      mm = Math.floor((a % 3600) / 60);
    abbr = (offset < 0 ? '-' : '+') + hh + (mm ? String(mm).padStart(2, '0') : '');
  }
  return { offset, abbr };
}
