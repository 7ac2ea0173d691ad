/**
 * Go's `time` package as Argo CD reads a sync window with it (`pkg/apis/application/v1alpha1/types.go`
 * SyncWindow.Validate, SyncWindows.active/inactiveAllows: `time.ParseDuration(w.Duration)` — an error
 * there is "cannot parse duration", and the window blocks every sync —, and scheduleOffsetByTimeZone:
 * `time.LoadLocation(w.TimeZone)` — an error there is logged and the window is read in UTC).
 *
 * `parseGoDuration` follows Go's `time.ParseDuration` (src/time/format.go): `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`,
 * units ns us µs μs ms s m h, and every step of its int64 nanosecond arithmetic, so a duration past Go's
 * largest (2562047h47m16.854775807s, about 292 years) is refused as Go refuses it, not read as a number.
 * `loadLocationProblem` follows `time.LoadLocation` (src/time/zoneinfo.go): "" and "UTC" are UTC, "Local"
 * the machine's zone; a name holding ".." or starting with "/" or "\" is refused before any lookup (no
 * IANA name does); any other name must be in the time zone database (asked of this runtime's Intl,
 * which carries the IANA database; Go's lookup is case-sensitive, so the case must match too).
 */

const NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const LIMIT = 1n << 63n;

/** Why Go rejects a duration: its syntax, or a value past int64 nanoseconds. */
export type GoDurationError = 'syntax' | 'overflow';

/** Go's time.ParseDuration: nanoseconds, or why it fails. */
export function parseGoDuration(orig: string): { ns: bigint } | { error: GoDurationError } {
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return { ns: 0n };
  if (s === '') return { error: 'syntax' };
  let d = 0n;
  const isDigit = (c: string) => c >= '0' && c <= '9';
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return { error: 'syntax' };
    // leadingInt: overflow is an error.
    let i = 0;
    let v = 0n;
    for (; i < s.length && isDigit(s[i]); i++) {
      if (v > LIMIT / 10n) return { error: 'overflow' };
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) return { error: 'overflow' };
    }
    const pre = i > 0;
    s = s.slice(i);
    // leadingFraction: digits past what int64 holds are dropped, not an error.
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (LIMIT - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > LIMIT) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return { error: 'syntax' };
    let k = 0;
    for (; k < s.length && !(s[k] === '.' || isDigit(s[k])); k++);
    if (k === 0) return { error: 'syntax' };
    const unit = NS[s.slice(0, k)];
    s = s.slice(k);
    if (unit === undefined) return { error: 'syntax' };
    if (v > LIMIT / unit) return { error: 'overflow' };
    v *= unit;
    if (f > 0n) {
      // As Go: float64 arithmetic for the fraction, truncated to an integer.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) return { error: 'overflow' };
    }
    d += v;
    if (d > LIMIT) return { error: 'overflow' };
  }
  if (neg) return { ns: -d };
  if (d > LIMIT - 1n) return { error: 'overflow' };
  return { ns: d };
}

/** Go's largest duration, as Go prints it. */
export const GO_MAX_DURATION = '2562047h47m16.854775807s';

let zones: Map<string, string> | undefined;
/** The runtime's IANA names, by lower case (Intl is case-insensitive; Go's file lookup is not). */
function knownZone(name: string): 'yes' | 'case' | 'no' {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return 'no';
  }
  zones ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  const canonical = zones.get(name.toLowerCase());
  // An alias Intl accepts but does not list (US/Eastern) is taken as written.
  return canonical === undefined || canonical === name ? 'yes' : 'case';
}

/** Why Go's time.LoadLocation refuses the name, or undefined when it loads. */
export function loadLocationProblem(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name[0] === '/' || name[0] === '\\')
    return `the time zone ${JSON.stringify(name)} is not a time zone name (Go refuses a name with ".." or a leading slash)`;
  const known = knownZone(name);
  if (known === 'no') return `the time zone ${JSON.stringify(name)} is not in the time zone database`;
  if (known === 'case')
    return `the time zone ${JSON.stringify(name)} is not in the time zone database as written (Go's lookup is case-sensitive: ${zones!.get(name.toLowerCase())})`;
  return undefined;
}
