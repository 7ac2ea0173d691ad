/**
 * sprig's `semver` and `semverCompare` (sprig `semver.go`) on our own port of the rules of
 * Masterminds/semver (`version.go`, `constraints.go`) in the versions Argo CD releases pinned (their
 * go.mod): v3.2.1 (Argo CD 2.8–2.12), v3.3.0 (2.13), v3.3.1 (2.14–3.1) and v3.4.0 (3.2+, the
 * default). Loose version parsing (`v1.2` is 1.2.0), prerelease ordering by dot-separated
 * identifiers, and constraints with `||`, `,`/space-separated AND groups, hyphen ranges, x/X/*
 * wildcards, `~` `^` `!=`. What changed between them:
 * - v3.3.1 parses with the strict pattern: no leading zeros in a segment or a numeric prerelease
 *   identifier (`01.2.3`, `1.2.3-01` are "Invalid Semantic Version"); v3.4.0 restored the loose one.
 * - up to v3.3.1 a prerelease version only satisfies a constraint that itself names a prerelease
 *   (a plain `!=` does not check); v3.4.0 decides per AND group and applies it to `!=` too.
 * - error texts are capitalised up to v3.3.1 (`Invalid Semantic Version`), lower-case in v3.4.0.
 * - `LessThanEqual`/`GreaterThanEqual` exist from v3.3.0.
 *
 * `semver` returns a `*semver.Version` whose methods templates can call (`.Major` is a uint64,
 * `.Compare`, …).
 */
import { ReasonedError, type TemplateReason } from '../reason';
import type { FuncMap, GoFunc } from '../funcs';
import { RE2, type RE2JS } from './lazy';
import { GoOther, type GoValue } from '../values';
import { goQuote, goUint64 } from '../format';

/** The Masterminds/semver/v3 releases Argo CD releases were built with. */
export type SemverVersion = '3.2.1' | '3.3.0' | '3.3.1' | '3.4.0';
export const SEMVER_DEFAULT: SemverVersion = '3.4.0';

export interface Version {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string;
  metadata: string;
  original: string;
  /** The library version that parsed it (its methods and validation follow that version). */
  lib?: SemverVersion;
}

const MAX_U64 = (1n << 64n) - 1n;
const VERSION = /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;
/** v3.3.1's semVerRegex (no leading zeros); groups: major, minor, patch, prerelease, metadata. */
const STRICT =
  /^v?(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?(?:\.(0|[1-9][0-9]*))?(?:-((?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const NUM = /^[0-9]*$/;
const ALLOWED = /^[0-9A-Za-z-]*$/;
/** The reason semver's "invalid semantic version" carries (versions/behaviours words its cause). */
const INVALID: TemplateReason = { kind: 'invalid-semver' };

/** The texts v3.4.0 lower-cased; earlier versions write them as here. */
const OLD_TEXTS: Record<string, string> = {
  'invalid semantic version': 'Invalid Semantic Version',
  'version segment starts with 0': 'Version segment starts with 0',
  'invalid prerelease string': 'Invalid Prerelease string',
  'invalid metadata string': 'Invalid Metadata string',
  'constraint parser error': 'constraint Parser Error',
  'error parsing version segment': 'Error parsing version segment',
};

/** An error text as library version `lib` writes it. */
function msg(lib: SemverVersion, text: string): string {
  if (lib === '3.4.0') return text;
  const [head, ...rest] = text.split(': ');
  return [OLD_TEXTS[head] ?? head, ...rest].join(': ');
}

function segment(s: string, lib: SemverVersion): bigint {
  const n = BigInt(s);
  if (n > MAX_U64)
    throw new Error(msg(lib, `error parsing version segment: strconv.ParseUint: parsing ${JSON.stringify(s)}: value out of range`));
  return n;
}

/**
 * validatePrerelease. An empty identifier (`a..b`, only reachable through SetPrerelease) passes up
 * to v3.3.0, is reported with the metadata text in v3.3.1 and with the prerelease text in v3.4.0.
 */
function validatePrerelease(p: string, lib: SemverVersion): void {
  for (const part of p.split('.')) {
    if (part === '' && (lib === '3.2.1' || lib === '3.3.0')) continue;
    if (part === '') throw new Error(msg(lib, lib === '3.3.1' ? 'invalid metadata string' : 'invalid prerelease string'));
    if (NUM.test(part)) {
      if (part.length > 1 && part[0] === '0') throw new Error(msg(lib, 'version segment starts with 0'));
    } else if (!ALLOWED.test(part)) throw new Error(msg(lib, 'invalid prerelease string'));
  }
}

/** validateMetadata; an empty identifier passes up to v3.3.0. */
function validateMetadata(m: string, lib: SemverVersion): void {
  const lax = lib === '3.2.1' || lib === '3.3.0';
  if (!m.split('.').every((p) => (p !== '' || lax) && ALLOWED.test(p))) throw new Error(msg(lib, 'invalid metadata string'));
}

/** semver.NewVersion of library version `lib`. */
export function parseVersion(v: string, lib: SemverVersion = SEMVER_DEFAULT): Version {
  let ver: Version;
  if (lib === '3.3.1') {
    const m = STRICT.exec(v);
    if (!m) throw new ReasonedError(msg(lib, 'invalid semantic version'), INVALID);
    ver = {
      major: segment(m[1], lib),
      minor: m[2] ? segment(m[2], lib) : 0n,
      patch: m[3] ? segment(m[3], lib) : 0n,
      pre: m[4] ?? '',
      metadata: m[5] ?? '',
      original: v,
      lib,
    };
  } else {
    const m = VERSION.exec(v);
    if (!m) throw new ReasonedError(msg(lib, 'invalid semantic version'), INVALID);
    ver = {
      major: segment(m[1], lib),
      minor: m[2] ? segment(m[2].slice(1), lib) : 0n,
      patch: m[3] ? segment(m[3].slice(1), lib) : 0n,
      pre: m[5] ?? '',
      metadata: m[8] ?? '',
      original: v,
      lib,
    };
  }
  if (ver.pre) validatePrerelease(ver.pre, lib);
  if (ver.metadata) validateMetadata(ver.metadata, lib);
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

function parseConstraint(c: string, lib: SemverVersion): Constraint {
  if (c === '') return { op: '', con: parseVersion('0.0.0', lib), orig: c, dirty: true, minorDirty: false, patchDirty: false };
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
    con = parseVersion(ver, lib);
  } catch {
    throw new Error(msg(lib, 'constraint parser error'));
  }
  return { op, con, orig, dirty, minorDirty, patchDirty };
}

/** semver.NewConstraint: OR groups of AND-ed constraints. */
export function parseConstraints(text: string, lib: SemverVersion = SEMVER_DEFAULT): Constraint[][] {
  let rewritten = text;
  for (const m = re().RANGE.matcher(text); m.find();)
    rewritten = rewritten.replace(m.group(0)!, () => `>= ${m.group(1)}, <= ${m.group(11)} `);
  return rewritten.split('||').map((group) => {
    if (!re().VALID.matcher(group).find()) throw new Error(`improper constraint: ${group}`);
    const found: string[] = [];
    for (const m = re().FIND.matcher(group); m.find();) found.push(m.group(0)!);
    return (found.length ? found : [group]).map((c) => parseConstraint(c, lib));
  });
}

function check(v: Version, c: Constraint, includePre: boolean, lib: SemverVersion): boolean {
  const { con } = c;
  // Before v3.4.0 a plain (not wildcard) != did not apply the prerelease rule at all.
  if (v.pre && !includePre && (lib === '3.4.0' || c.op !== '!=' || c.dirty)) return false;
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

/**
 * Constraints.Check: some OR group whose constraints all hold. A prerelease version is admitted by
 * a group naming a prerelease (v3.4.0), before that only by a constraint naming one.
 */
export function satisfies(constraints: Constraint[][], v: Version, lib: SemverVersion = SEMVER_DEFAULT): boolean {
  return constraints.some((group) => {
    const groupPre = group.some((c) => c.con.pre !== '');
    return group.every((c) => check(v, c, lib === '3.4.0' ? groupPre : c.con.pre !== '', lib));
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
  const lib = v.lib ?? SEMVER_DEFAULT;
  const set = (key: 'pre' | 'metadata', value: string) => {
    if (value) {
      if (key === 'pre') validatePrerelease(value, lib);
      else validateMetadata(value, lib);
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
    if (lib !== '3.2.1') {
      members.LessThanEqual = M((o: GoValue) => compareVersions(v, other(o)) <= 0, ['*semver.Version']);
      members.GreaterThanEqual = M((o: GoValue) => compareVersions(v, other(o)) >= 0, ['*semver.Version']);
    }
  }
  return new GoOther(pointer ? '*semver.Version' : 'semver.Version', v, () => versionString(v), {
    members,
    json: () => JSON.stringify(versionString(v)),
    kind: pointer ? 'ptr' : 'struct',
    goSyntax: () =>
      `${pointer ? '&' : ''}semver.Version{major:0x${v.major.toString(16)}, minor:0x${v.minor.toString(16)}, patch:0x${v.patch.toString(16)}, pre:${goQuote(v.pre)}, metadata:${goQuote(v.metadata)}, original:${goQuote(v.original)}}`,
  });
}

export function semverFuncs(lib: SemverVersion = SEMVER_DEFAULT): FuncMap {
  const m: FuncMap = new Map();
  m.set('semver', { params: ['string'], impl: (s: GoValue) => versionValue(parseVersion(s as string, lib), true) });
  m.set('semverCompare', {
    params: ['string', 'string'],
    impl: (c: GoValue, s: GoValue) => {
      const constraints = parseConstraints(c as string, lib);
      return satisfies(constraints, parseVersion(s as string, lib), lib);
    },
  });
  return m;
}
