/**
 * Parameter-set helpers shared by the generators: safe object building (user keys such as
 * `__proto__` stay ordinary keys), Go `%v` stringification, the flattening the post-selector and
 * fasttemplate mode use, and mergo-style deep merging (`dario.cat/mergo` WithOverride, as used by
 * Argo CD's matrix and merge generators in goTemplate mode).
 */
import { formatValue, fromJSON, GoStringMap } from '@appset-tools/gotemplate';
import { hasKey, isObj, put } from '../objects';

export type ParamSet = Record<string, unknown>;

// One home for building and reading objects by user keys (objects.ts); re-exported for the generators' callers.
export { put, hasKey as has };

/** The value at `path` in parsed YAML/JSON (own keys only, array indexes for numbers), or undefined. */
export function valueAt(v: unknown, path: readonly (string | number)[]): unknown {
  let cur = v;
  for (const seg of path) {
    if (Array.isArray(cur) && typeof seg === 'number') cur = cur[seg];
    else if (isObj(cur) && hasKey(cur, String(seg))) cur = cur[String(seg)];
    else return undefined;
  }
  return cur;
}

/** Go's `%v` of a parameter value (float64 for JSON numbers, map[...] for maps, <nil> for null). */
export function goString(v: unknown): string {
  if (typeof v === 'string') return v;
  return formatValue(fromJSON(v));
}

/**
 * Flattens nested maps with `.` and list items as `key.N`, every leaf stringified with `%v`
 * (Argo CD `flattenParameters` for selectors; the git-files generator in fasttemplate mode uses the
 * same dotted shape, except that empty maps/lists produce no key there — `dropEmpty`). With
 * `stringMapsWhole`, Go map[string]string values stay one `%v` leaf, as before Argo CD 3.4.
 */
export function flatten(p: ParamSet, dropEmpty = false, stringMapsWhole = false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (prefix: string, v: unknown) => {
    if (v instanceof GoStringMap && stringMapsWhole) {
      // jeremywohl/flatten only descends into map[string]interface{}: a map[string]string is one leaf.
      put(out, prefix, goString(v));
    } else if (v instanceof GoStringMap) {
      for (const [k, x] of v) walk(prefix ? `${prefix}.${k}` : k, x);
      if (!dropEmpty && v.size === 0 && prefix) put(out, prefix, goString({}));
    } else if (isObj(v)) {
      const keys = Object.keys(v);
      if (!keys.length) {
        if (!dropEmpty && prefix) put(out, prefix, goString(v));
        return;
      }
      for (const k of keys) walk(prefix ? `${prefix}.${k}` : k, v[k]);
    } else if (Array.isArray(v)) {
      if (!v.length) {
        if (!dropEmpty && prefix) put(out, prefix, goString(v));
        return;
      }
      v.forEach((x, i) => walk(`${prefix}.${i}`, x));
    } else put(out, prefix, v === null || v === undefined ? '<nil>' : goString(v));
  };
  for (const k of Object.keys(p)) walk(k, p[k]);
  return out;
}

/**
 * mergo.Merge(dst, src, WithOverride): src values overwrite dst, nested maps (including Go
 * map[string]string such as cluster labels and generator `values`) merge key by key with src
 * winning, lists are replaced, and an empty map in src leaves dst's map alone.
 */
export function deepMergeOverride(dst: ParamSet, src: ParamSet, depth = 0): ParamSet {
  const out: ParamSet = {};
  for (const k of Object.keys(dst)) put(out, k, dst[k]);
  for (const k of Object.keys(src)) {
    const s = src[k];
    const d = hasKey(out, k) ? out[k] : undefined;
    put(out, k, isMapLike(s) && isMapLike(d) && depth < 100 ? mergeMaps(d, s, depth + 1) : s);
  }
  return out;
}

const isMapLike = (v: unknown): v is GoStringMap | Record<string, unknown> => v instanceof GoStringMap || isObj(v);

function mergeMaps(
  d: GoStringMap | Record<string, unknown>,
  s: GoStringMap | Record<string, unknown>,
  depth: number,
): GoStringMap | Record<string, unknown> {
  if (d instanceof GoStringMap && s instanceof GoStringMap) {
    const m = new GoStringMap(d);
    for (const [k, v] of s) m.set(k, v);
    return m;
  }
  const asObject = (m: GoStringMap | Record<string, unknown>): ParamSet => {
    if (!(m instanceof GoStringMap)) return m;
    const o: ParamSet = {};
    for (const [k, v] of m) put(o, k, v);
    return o;
  };
  return deepMergeOverride(asObject(d), asObject(s), depth);
}

/** JSON-safe copy of a parameter set for display (GoStringMap → object). */
export function displayParams(p: ParamSet): Record<string, unknown> {
  const conv = (v: unknown): unknown => {
    if (v instanceof GoStringMap) {
      const o: Record<string, unknown> = {};
      for (const [k, x] of v) put(o, k, x);
      return o;
    }
    if (Array.isArray(v)) return v.map(conv);
    if (isObj(v)) {
      const o: Record<string, unknown> = {};
      const keys = Object.keys(v);
      for (let i = 0; i < keys.length; i++) put(o, keys[i], conv(v[keys[i]]));
      return o;
    }
    return v;
  };
  return conv(p) as Record<string, unknown>;
}

/** Records where a parameter set came from (a JSON path joined with '/', e.g. a list element). */
export type Origins = Pick<Map<object, string[]>, 'get' | 'set'>;

export function tagOrigin(origins: Origins | undefined, p: ParamSet, ...from: (string | ParamSet)[]): ParamSet {
  if (!origins) return p;
  const own = origins.get(p);
  const list = own ? own.slice() : [];
  // Indexes, not `for … of`: every parameter set of a first answer passes here, in code not yet optimised.
  for (let i = 0; i < from.length; i++) {
    const f = from[i];
    if (typeof f === 'string') {
      if (!list.includes(f)) list.push(f);
      continue;
    }
    const inherited = origins.get(f);
    if (inherited) for (let j = 0; j < inherited.length; j++) if (!list.includes(inherited[j])) list.push(inherited[j]);
  }
  if (list.length) origins.set(p, list);
  return p;
}
