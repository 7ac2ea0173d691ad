/**
 * Parameter-set helpers shared by the generators: safe object building (user keys such as
 * `__proto__` stay ordinary keys), Go `%v` stringification, the flattening the post-selector and
 * fasttemplate mode use, and mergo-style deep merging (`dario.cat/mergo` WithOverride, as used by
 * Argo CD's matrix and merge generators in goTemplate mode).
 */
import { formatValue } from '../template/index';
import { fromJSON, GoStringMap } from '../template/values';

export type ParamSet = Record<string, unknown>;

/** Sets a key on a plain object without ever touching its prototype. */
export function put(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

export function has(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map);
}

/** Go's `%v` of a parameter value (float64 for JSON numbers, map[...] for maps, <nil> for null). */
export function goString(v: unknown): string {
  if (typeof v === 'string') return v;
  return formatValue(fromJSON(v));
}

/**
 * Flattens nested maps with `.` and list items as `key.N`, every leaf stringified with `%v`
 * (Argo CD `flattenParameters` for selectors; the git-files generator in fasttemplate mode uses the
 * same dotted shape, except that empty maps/lists produce no key there — `dropEmpty`).
 */
export function flatten(p: ParamSet, dropEmpty = false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (prefix: string, v: unknown) => {
    if (v instanceof GoStringMap) {
      for (const [k, x] of v) walk(prefix ? `${prefix}.${k}` : k, x);
      if (!dropEmpty && v.size === 0 && prefix) put(out, prefix, goString({}));
    } else if (isObject(v)) {
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
 * mergo.Merge(dst, src, WithOverride): src values overwrite dst, nested maps merge key by key,
 * lists are replaced, and an empty map in src leaves dst's map alone.
 */
export function deepMergeOverride(dst: ParamSet, src: ParamSet): ParamSet {
  const out: ParamSet = {};
  for (const k of Object.keys(dst)) put(out, k, dst[k]);
  for (const k of Object.keys(src)) {
    const s = src[k];
    const d = out[k];
    if (isObject(s) && isObject(d)) put(out, k, deepMergeOverride(d, s));
    else if (isObject(s) && Object.keys(s).length === 0 && d !== undefined) continue;
    else put(out, k, s);
  }
  return out;
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
    if (isObject(v)) {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(v)) put(o, k, conv(v[k]));
      return o;
    }
    return v;
  };
  return conv(p) as Record<string, unknown>;
}
