/**
 * sprig's `semver` and `semverCompare` (sprig `semver.go`) on our own port of the rules of
 * Masterminds/semver v3.4.0, the version Argo CD pins (`version.go`, `constraints.go`): loose version
 * parsing (`v1.2` is 1.2.0), prerelease ordering by dot-separated identifiers, and constraints with
 * `||`, `,`/space-separated AND groups, hyphen ranges, x/X/* wildcards, `~` `^` `!=` and the rule
 * that a prerelease version only satisfies an AND group in which some constraint names a prerelease.
 * Error texts are v3.4.0's (lower-case; the golden renderer's Debian v3.2.0 capitalises them).
 *
 * `semver` returns a `*semver.Version` whose methods templates can call (`.Major` is a uint64,
 * `.Compare`, …).
 */
import type { FuncMap, GoFunc } from '../funcs';
import { RE2, type RE2JS } from './lazy';
import { GoOther, type GoValue } from '../values';
import { goQuote, goUint64 } from '../format';

export interface Version {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string;
  metadata: string;
  original: string;
}

const MAX_U64 = (1n << 64n) - 1n;
const VERSION = /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;
const NUM = /^[0-9]*$/;
const ALLOWED = /^[0-9A-Za-z-]*$/;

function segment(s: string): bigint {
  const n = BigInt(s);
  if (n > MAX_U64) throw new Error(`error parsing version segment: strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`);
  return n;
}

function validatePrerelease(p: string): void {
  for (const part of p.split('.')) {
    if (part === '') throw new Error('invalid prerelease string');
    if (NUM.test(part)) {
      if (part.length > 1 && part[0] === '0') throw new Error('version segment starts with 0');
    } else if (!ALLOWED.test(part)) throw new Error('invalid prerelease string');
  }
}

function validateMetadata(m: string): void {
  if (!m.split('.').every((p) => p !== '' && ALLOWED.test(p))) throw new Error('invalid metadata string');
}

/** semver.NewVersion. */
export function parseVersion(v: string): Version {
  const m = VERSION.exec(v);
  if (!m) throw new Error('invalid semantic version');
  const ver: Version = {
    major: segment(m[1]),
    minor: m[2] ? segment(m[2].slice(1)) : 0n,
    patch: m[3] ? segment(m[3].slice(1)) : 0n,
    pre: m[5] ?? '',
    metadata: m[8] ?? '',
    original: v,
  };
  if (ver.pre) validatePrerelease(ver.pre);
  if (ver.metadata) validateMetadata(ver.metadata);
  return ver;
}

export function versionString(v: Version): string {
  return `${v.major}.${v.minor}.${v.patch}${v.pre ? '-' + v.pre : ''}${v.metadata ? '+' + v.metadata : ''}`;
}

function parseU64(s: string): bigint | undefined {
  return /^[0-9]+$/.test(s) && BigInt(s) <= MAX_U64 ? BigInt(s) : undefined;
}

function comparePrePart(s: string, o: string): number {
  if (s === o) return 0;
  if (s === '') return -1; // the library's order for a missing identifier, kept as it is
  if (o === '') return 1;
  const oi = parseU64(o),
    si = parseU64(s);
  if (oi === undefined && si === undefined) return Buffer.compare(Buffer.from(s), Buffer.from(o)) > 0 ? 1 : -1;
  if (oi === undefined) return -1;
  if (si === undefined) return 1;
  return si > oi ? 1 : -1;
}

function comparePrerelease(a: string, b: string): number {
  const x = a.split('.'),
    y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = comparePrePart(x[i] ?? '', y[i] ?? '');
    if (d) return d;
  }
  return 0;
}

export function compareVersions(a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (!a.pre && !b.pre) return 0;
  if (!a.pre) return 1;
  if (!b.pre) return -1;
  return comparePrerelease(a.pre, b.pre);
}

// ---- constraints -------------------------------------------------------------------------------
interface Constraint {
  op: string;
  con: Version;
  orig: string;
  dirty: boolean;
  minorDirty: boolean;
  patchDirty: boolean;
}

// The library's patterns, run on RE2 (re2js) so hostile constraints cannot backtrack exponentially.
const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';
const CV = 'v?([0-9|xX*]+)(\\.[0-9|xX*]+)?(\\.[0-9|xX*]+)?(-([0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*))?(\\+([0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*))?';
// Compiled on first use: compiling them costs more than loading the rest of the template library,
// and most documents never call a semver function.
let patterns: { ONE: RE2JS; RANGE: RE2JS; FIND: RE2JS; VALID: RE2JS } | undefined;
const re = () =>
  (patterns ??= {
    ONE: RE2().compile(`^\\s*(${OPS})\\s*(${CV})\\s*$`),
    RANGE: RE2().compile(`\\s*(${CV})\\s+-\\s+(${CV})\\s*`),
    FIND: RE2().compile(`(${OPS})\\s*(${CV})`),
    VALID: RE2().compile(`^(\\s*(${OPS})\\s*(${CV})\\s*)((?:\\s+|,\\s*)(${OPS})\\s*(${CV})\\s*)*$`),
  });
const isX = (s: string) => s === 'x' || s === 'X' || s === '*';

function parseConstraint(c: string): Constraint {
  if (c === '') return { op: '', con: parseVersion('0.0.0'), orig: c, dirty: true, minorDirty: false, patchDirty: false };
  const mm = re().ONE.matcher(c);
  if (!mm.find()) throw new Error(`improper constraint: ${c}`);
  const g = (i: number) => mm.group(i) ?? '';
  const [op, orig, major, minorDot, patchDot, pre] = [g(1), g(2), g(3), g(4), g(5), g(6)];
  let ver = orig,
    dirty = false,
    minorDirty = false,
    patchDirty = false;
  if (isX(major)) {
    ver = `0.0.0${pre}`;
    dirty = true;
  } else if (minorDot === '' || isX(minorDot.slice(1))) {
    ver = `${major}.0.0${pre}`;
    dirty = minorDirty = true;
  } else if (patchDot === '' || isX(patchDot.slice(1))) {
    ver = `${major}${minorDot}.0${pre}`;
    dirty = patchDirty = true;
  }
  let con: Version;
  try {
    con = parseVersion(ver);
  } catch {
    throw new Error('constraint parser error');
  }
  return { op, con, orig, dirty, minorDirty, patchDirty };
}

/** semver.NewConstraint: OR groups of AND-ed constraints. */
export function parseConstraints(text: string): Constraint[][] {
  let rewritten = text;
  for (const m = re().RANGE.matcher(text); m.find();)
    rewritten = rewritten.replace(m.group(0)!, () => `>= ${m.group(1)}, <= ${m.group(11)} `);
  return rewritten.split('||').map((group) => {
    if (!re().VALID.matcher(group).find()) throw new Error(`improper constraint: ${group}`);
    const found: string[] = [];
    for (const m = re().FIND.matcher(group); m.find();) found.push(m.group(0)!);
    return (found.length ? found : [group]).map(parseConstraint);
  });
}

function check(v: Version, c: Constraint, includePre: boolean): boolean {
  const { con } = c;
  if (v.pre && !includePre) return false;
  const cmp = compareVersions(v, con);
  const tilde = () => {
    if (cmp < 0) return false;
    if (con.major === 0n && con.minor === 0n && con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
    if (v.major !== con.major) return false;
    return v.minor === con.minor || c.minorDirty;
  };
  switch (c.op) {
    case '':
    case '=':
      return c.dirty ? tilde() : cmp === 0;
    case '!=':
      if (c.dirty) {
        if (con.major !== v.major) return true;
        if (con.minor !== v.minor && !c.minorDirty) return true;
        if (c.minorDirty) return false;
        if (con.patch !== v.patch && !c.patchDirty) return true;
        if (c.patchDirty) return (v.pre !== '' || con.pre !== '') && comparePrerelease(v.pre, con.pre) !== 0;
      }
      return cmp !== 0;
    case '>':
      if (!c.dirty) return cmp === 1;
      if (v.major !== con.major) return v.major > con.major;
      if (c.minorDirty) return false;
      if (c.patchDirty) return v.minor > con.minor;
      return cmp === 1;
    case '<':
      return cmp < 0;
    case '>=':
    case '=>':
      return cmp >= 0;
    case '<=':
    case '=<':
      if (!c.dirty) return cmp <= 0;
      if (v.major > con.major) return false;
      return !(v.major === con.major && v.minor > con.minor && !c.minorDirty);
    case '~':
    case '~>':
      return tilde();
    case '^':
      if (cmp < 0) return false;
      if (con.major > 0n || c.minorDirty) return v.major === con.major;
      if (v.major > 0n) return false;
      if (con.minor > 0n || c.patchDirty) return v.minor === con.minor;
      if (v.minor > 0n) return false;
      return con.patch === v.patch;
  }
  return false;
}

/** Constraints.Check: some OR group whose constraints all hold; a group naming a prerelease admits prereleases. */
export function satisfies(constraints: Constraint[][], v: Version): boolean {
  return constraints.some((group) => {
    const includePre = group.some((c) => c.con.pre !== '');
    return group.every((c) => check(v, c, includePre));
  });
}

// ---- template values ---------------------------------------------------------------------------
const M = (impl: (...a: any[]) => GoValue, params: GoFunc['params'] = []): { method: GoFunc } => ({ method: { params, impl } });

/** A `semver.Version` (value) or `*semver.Version` (pointer) with the methods of that method set. */
export function versionValue(v: Version, pointer: boolean): GoOther {
  const bump = (next: Partial<Version>) => {
    const n = { ...v, pre: '', metadata: '', ...next };
    return versionValue({ ...n, original: (v.original.startsWith('v') ? 'v' : '') + versionString(n) }, false);
  };
  const set = (key: 'pre' | 'metadata', value: string) => {
    if (value) {
      if (key === 'pre') validatePrerelease(value);
      else validateMetadata(value);
    }
    const n = { ...v, [key]: value };
    return versionValue({ ...n, original: (v.original.startsWith('v') ? 'v' : '') + versionString(n) }, false);
  };
  const other = (o: GoValue) => (o as GoOther).payload as Version;
  const members: Record<string, { method: GoFunc }> = {
    String: M(() => versionString(v)),
    Major: M(() => goUint64(v.major)),
    Minor: M(() => goUint64(v.minor)),
    Patch: M(() => goUint64(v.patch)),
    Prerelease: M(() => v.pre),
    Metadata: M(() => v.metadata),
    IncPatch: M(() => (v.pre ? bump({}) : bump({ patch: v.patch + 1n }))),
    IncMinor: M(() => bump({ patch: 0n, minor: v.minor + 1n })),
    IncMajor: M(() => bump({ patch: 0n, minor: 0n, major: v.major + 1n })),
    SetPrerelease: M((s: string) => set('pre', s), ['string']),
    SetMetadata: M((s: string) => set('metadata', s), ['string']),
  };
  if (pointer) {
    // Methods with a pointer receiver are only reachable through *semver.Version.
    members.Original = M(() => v.original);
    members.Compare = M((o: GoValue) => BigInt(compareVersions(v, other(o))), ['*semver.Version']);
    members.LessThan = M((o: GoValue) => compareVersions(v, other(o)) < 0, ['*semver.Version']);
    members.GreaterThan = M((o: GoValue) => compareVersions(v, other(o)) > 0, ['*semver.Version']);
    members.Equal = M((o: GoValue) => compareVersions(v, other(o)) === 0, ['*semver.Version']);
  }
  return new GoOther(pointer ? '*semver.Version' : 'semver.Version', v, () => versionString(v), {
    members,
    json: () => JSON.stringify(versionString(v)),
    kind: pointer ? 'ptr' : 'struct',
    goSyntax: () =>
      `${pointer ? '&' : ''}semver.Version{major:0x${v.major.toString(16)}, minor:0x${v.minor.toString(16)}, patch:0x${v.patch.toString(16)}, pre:${goQuote(v.pre)}, metadata:${goQuote(v.metadata)}, original:${goQuote(v.original)}}`,
  });
}

export function semverFuncs(): FuncMap {
  const m: FuncMap = new Map();
  m.set('semver', { params: ['string'], impl: (s: GoValue) => versionValue(parseVersion(s as string), true) });
  m.set('semverCompare', {
    params: ['string', 'string'],
    impl: (c: GoValue, s: GoValue) => {
      const constraints = parseConstraints(c as string);
      return satisfies(constraints, parseVersion(s as string));
    },
  });
  return m;
}
