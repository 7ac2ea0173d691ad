/**
 * Sprig's list and dict functions (`list.go`, `dict.go`). Lists are []interface{}; dicts are
 * map[string]interface{}. Functions that Go implements with reflection accept any slice and
 * panic with sprig's messages on other kinds ("Cannot find first on type string").
 */
import { type FuncMap, type GoFunc, goFunc as F } from '../funcs';
import { GoMap, GoNilMap, GoOther, GoStringMap, goTypeName, type GoValue } from '../values';
import { versionValue } from './semver';
import { isEmpty, isMap, kindName, NIL_DEREF, strval, toInt64 } from './cast';
import { deepEqual } from './reflect';
import { charge } from '../budget';

function asList(v: GoValue, what: string): GoValue[] {
  if (Array.isArray(v)) return v;
  if (v === null) throw new Error(NIL_DEREF);
  throw new Error(`Cannot ${what} on type ${kindName(v)}`);
}

function asMap(v: GoValue): Map<string, GoValue> {
  if (isMap(v)) return v as Map<string, GoValue>;
  throw new Error(`wrong type for value; expected map[string]interface {}; got ${kindName(v)}`);
}

/** Both the panicking and the must* variant: must* returns the error, the plain one panics — same text to the template. */
function pair(m: FuncMap, name: string, f: GoFunc): void {
  m.set(name, f);
  m.set('must' + name[0].toUpperCase() + name.slice(1), f);
}

export function copyMap(src: Map<string, GoValue>): GoMap {
  const out = new GoMap();
  for (const [k, v] of src) out.set(k, v);
  return out;
}

/**
 * copystructure.Copy as sprig's deepCopy uses it: maps and lists are copied; a struct's unexported
 * fields are not, so a semver.Version comes back as 0.0.0 (certificates and times copy whole).
 */
function copied(l: GoValue[]): GoValue[] {
  charge(l.length);
  return l;
}

function deepCopy(v: GoValue): GoValue {
  charge(1); // a shared value is copied (and counted) once per reference, as copystructure does
  if (Array.isArray(v)) return v.map(deepCopy);
  if (v instanceof GoOther && /semver\.Version$/.test(v.type)) {
    return versionValue({ major: 0n, minor: 0n, patch: 0n, pre: '', metadata: '', original: '' }, v.type.startsWith('*'));
  }
  if (v instanceof GoStringMap) return new GoStringMap(v);
  if (v instanceof GoMap) {
    const o = new GoMap();
    for (const [k, x] of v) o.set(k, deepCopy(x));
    return o;
  }
  return v;
}

/**
 * dario.cat/mergo v1.0.2's deepMerge for map[string]interface{} (Merge, and MergeWithOverwrite when
 * `overwrite`), as sprig's merge functions call it. Its quirks are kept: with overwrite every src
 * value replaces dst, even "", 0, false and nil; without it a nil src never lands, a scalar only
 * fills a missing or empty dst, nested maps merge in place and src maps are inserted by reference;
 * a src list replaces dst only when overwriting or when dst is an empty map.
 */
function mergeInto(dst: Map<string, GoValue>, src: Map<string, GoValue>, overwrite: boolean): void {
  for (const [key, sv] of src) {
    const had = dst.has(key);
    const dv = had ? (dst.get(key) as GoValue) : undefined;
    if (sv === null) {
      if (overwrite) dst.set(key, null);
      continue;
    }
    const srcIsMap = isMap(sv),
      srcIsList = Array.isArray(sv);
    if (srcIsMap) {
      if (dv !== undefined && isMap(dv)) mergeInto(dv as Map<string, GoValue>, sv as Map<string, GoValue>, overwrite);
    } else if (srcIsList) {
      let list: GoValue = dv === undefined || dv === null ? [] : dv;
      if (src.size > 0 && (overwrite || dst.size === 0)) list = sv;
      dst.set(key, list);
    }
    if (dv !== undefined && !isEmpty(dv)) {
      if (srcIsList) continue;
      if (srcIsMap && isMap(dv)) continue;
    }
    if (overwrite || dv === undefined || isEmpty(dv)) dst.set(key, sv);
  }
}

/** Sprig's list and dict functions, in sprig's order (later libraries override by name). */
export function collectionFuncs(): FuncMap {
  const m: FuncMap = new Map();
  addListAccess(m);
  addListBuilding(m);
  addListSlicing(m);
  addDictAccess(m);
  addDictMerging(m);
  return m;
}

/** list, tuple and the ends of a list: first, last, rest, initial. */
function addListAccess(m: FuncMap): void {
  m.set(
    'list',
    F((...xs: GoValue[]) => xs, [], 'any'),
  );
  m.set(
    'tuple',
    F((...xs: GoValue[]) => xs, [], 'any'),
  );
  pair(
    m,
    'first',
    F(
      (l: GoValue) => {
        const a = asList(l, 'find first');
        return a.length ? a[0] : null;
      },
      ['any'],
    ),
  );
  pair(
    m,
    'last',
    F(
      (l: GoValue) => {
        const a = asList(l, 'find last');
        return a.length ? a[a.length - 1] : null;
      },
      ['any'],
    ),
  );
  pair(
    m,
    'rest',
    F(
      (l: GoValue) => {
        const a = asList(l, 'find rest');
        return a.length ? a.slice(1) : null;
      },
      ['any'],
    ),
  );
  pair(
    m,
    'initial',
    F(
      (l: GoValue) => {
        const a = asList(l, 'find initial');
        return a.length ? a.slice(0, -1) : null;
      },
      ['any'],
    ),
  );
}

/** Functions that build a new list from one: append, prepend, concat, reverse, uniq, without, has, compact. */
function addListBuilding(m: FuncMap): void {
  // Each call copies its list: a loop of appends costs the sum of the lengths, which is what is charged.
  pair(
    m,
    'append',
    F((l: GoValue, v: GoValue) => copied([...asList(l, 'push'), v]), ['any', 'any']),
  );
  pair(
    m,
    'push',
    F((l: GoValue, v: GoValue) => copied([...asList(l, 'push'), v]), ['any', 'any']),
  );
  pair(
    m,
    'prepend',
    F((l: GoValue, v: GoValue) => copied([v, ...asList(l, 'prepend')]), ['any', 'any']),
  );
  m.set(
    'concat',
    F(
      (...ls: GoValue[]) =>
        copied(
          ls.flatMap((l) => {
            if (Array.isArray(l)) return l;
            if (l === null) throw new Error(NIL_DEREF);
            throw new Error(`Cannot concat type ${kindName(l)} as list`);
          }),
        ),
      [],
      'any',
    ),
  );
  pair(
    m,
    'reverse',
    F((l: GoValue) => [...asList(l, 'find reverse')].reverse(), ['any']),
  );
  pair(
    m,
    'uniq',
    F(
      (l: GoValue) => {
        const out: GoValue[] = [];
        for (const x of asList(l, 'find uniq')) {
          // Each element is compared with every one kept, as sprig does: charged, so a long list ends at
          // the work limit instead of billions of comparisons (4 comparisons are one unit).
          charge(out.length / 4);
          if (!out.some((y) => deepEqual(x, y))) out.push(x);
        }
        return out;
      },
      ['any'],
    ),
  );
  pair(
    m,
    'without',
    F((l: GoValue, ...omit: GoValue[]) => asList(l, 'find without').filter((x) => !omit.some((o) => deepEqual(x, o))), ['any'], 'any'),
  );
  pair(
    m,
    'has',
    F(
      (needle: GoValue, hay: GoValue) => (hay === null ? false : asList(hay, 'find has').some((x) => deepEqual(x, needle))),
      ['any', 'any'],
    ),
  );
  pair(
    m,
    'compact',
    F((l: GoValue) => asList(l, 'compact').filter((x) => !isEmpty(x)), ['any']),
  );
}

/** slice and chunk. */
function addListSlicing(m: FuncMap): void {
  pair(
    m,
    'slice',
    F(
      (l: GoValue, ...idx: GoValue[]) => {
        if (l === null) throw new Error(NIL_DEREF);
        if (!Array.isArray(l)) throw new Error(`list should be type of slice or array but ${kindName(l)}`);
        if (l.length === 0) return null;
        const start = idx.length > 0 ? Number(toInt64(idx[0])) : 0;
        const end = idx.length > 1 ? Number(toInt64(idx[1])) : l.length;
        if (start < 0 || end < start || end > l.length) throw new Error('reflect.Value.Slice: slice index out of bounds');
        return l.slice(start, end);
      },
      ['any'],
      'any',
    ),
  );
  pair(m, 'chunk', F(chunkList, ['int', 'any']));
}

/** sprig's chunk, with its arithmetic in float64, including what a size of 0 or below does. */
function chunkList(sizeArg: bigint, l: GoValue): GoValue[] {
  if (l === null) throw new Error(NIL_DEREF);
  if (!Array.isArray(l)) throw new Error(`Cannot chunk type ${kindName(l)}`);
  const size = Number(sizeArg),
    n = l.length;
  const q = (n - 1) / size;
  const makeslice = () => new Error('runtime error: makeslice: len out of range');
  if (!Number.isFinite(q)) throw makeslice(); // Go's int(±Inf/NaN) is negative on amd64
  const cs = Math.floor(q) + 1;
  if (cs < 0) throw makeslice();
  const out: GoValue[] = [];
  for (let i = 0; i < cs; i++) {
    let clen = size;
    if (i === cs - 1) {
      clen = Math.floor(n % size);
      if (clen === 0) clen = size;
    }
    if (clen < 0) throw makeslice();
    const chunk: GoValue[] = [];
    for (let j = 0; j < clen; j++) {
      const ix = i * size + j;
      if (ix < 0 || ix >= n) throw new Error('reflect: slice index out of range');
      chunk.push(l[ix]);
    }
    out.push(chunk);
  }
  return out;
}

/** dict and the functions that read or change one key or a set of keys. */
function addDictAccess(m: FuncMap): void {
  m.set(
    'dict',
    F(
      (...kv: GoValue[]) => {
        const d = new GoMap();
        for (let i = 0; i < kv.length; i += 2) d.set(strval(kv[i]), i + 1 < kv.length ? kv[i + 1] : '');
        return d;
      },
      [],
      'any',
    ),
  );
  m.set(
    'get',
    F(
      (d: GoValue, k: string) => {
        const mm = asMap(d);
        return mm.has(k) ? (mm.get(k) as GoValue) : '';
      },
      ['map', 'string'],
    ),
  );
  m.set(
    'set',
    F(
      (d: GoValue, k: string, v: GoValue) => {
        asMap(d).set(k, v);
        return d;
      },
      ['map', 'string', 'any'],
    ),
  );
  m.set(
    'unset',
    F(
      (d: GoValue, k: string) => {
        asMap(d).delete(k);
        return d;
      },
      ['map', 'string'],
    ),
  );
  m.set(
    'hasKey',
    F((d: GoValue, k: string) => asMap(d).has(k), ['map', 'string']),
  );
  m.set(
    'pluck',
    F(
      (k: string, ...ds: GoValue[]) =>
        ds
          .map(asMap)
          .filter((d) => d.has(k))
          .map((d) => d.get(k) as GoValue),
      ['string'],
      'map',
    ),
  );
  m.set(
    'keys',
    F((...ds: GoValue[]) => ds.flatMap((d) => [...asMap(d).keys()]), [], 'map'),
  );
  m.set(
    'values',
    F((d: GoValue) => [...asMap(d).values()], ['map']),
  );
  m.set(
    'pick',
    F(
      (d: GoValue, ...ks: string[]) => {
        const src = asMap(d);
        const out = new GoMap();
        for (const k of ks) if (src.has(k)) out.set(k, src.get(k) as GoValue);
        return out;
      },
      ['map'],
      'string',
    ),
  );
  m.set(
    'omit',
    F(
      (d: GoValue, ...ks: string[]) => {
        const out = new GoMap();
        for (const [k, v] of asMap(d)) if (!ks.includes(k)) out.set(k, v);
        return out;
      },
      ['map'],
      'string',
    ),
  );
}

/** merge, mergeOverwrite, deepCopy and dig. */
function addDictMerging(m: FuncMap): void {
  // mergo gives a nil destination map a fresh map before merging into it.
  const merge = (overwrite: boolean) =>
    F(
      (dst: GoValue, ...srcs: GoValue[]) => {
        const d = dst instanceof GoNilMap ? new GoMap() : (dst as GoMap);
        for (const s of srcs) mergeInto(d, s as GoMap, overwrite);
        return d;
      },
      ['map'],
      'map',
    );
  pair(m, 'merge', merge(false));
  pair(m, 'mergeOverwrite', merge(true));
  pair(
    m,
    'deepCopy',
    F(
      (v: GoValue) => {
        if (v === null) throw new Error('reflect: call of reflect.Value.Type on zero Value');
        return deepCopy(v);
      },
      ['any'],
    ),
  );
  m.set('dig', F(dig, [], 'any'));
}

/** sprig's dig asserts the dict, then each key, then every step it descends into. */
function dig(...args: GoValue[]): GoValue {
  if (args.length < 3) throw new Error('dig needs at least three arguments');
  const conv = (v: GoValue, want: string) =>
    new Error(`interface conversion: interface {} is ${v === null ? 'nil' : goTypeName(v)}, not ${want}`);
  const asDict = (v: GoValue) => {
    if (v instanceof GoMap) return v;
    throw conv(v, 'map[string]interface {}');
  };
  let cur = asDict(args[args.length - 1]);
  const def = args[args.length - 2];
  const keys = args.slice(0, -2).map((k) => {
    if (typeof k !== 'string') throw conv(k, 'string');
    return k;
  });
  for (let i = 0; ; i++) {
    if (!cur.has(keys[i])) return def;
    const step = cur.get(keys[i]) as GoValue;
    if (i === keys.length - 1) return step;
    cur = asDict(step);
  }
}
