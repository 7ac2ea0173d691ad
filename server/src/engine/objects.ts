/**
 * Building plain objects from keys that come from user text (YAML keys, parameter names): `__proto__`
 * must stay an ordinary key, never reach the prototype; reading one must never find an inherited key.
 * The one home of that rule for every layer.
 */
import type { Json } from './types';

/** A mapping read from YAML or JSON: its values are JSON. */
export type JsonObject = { [key: string]: Json };

/**
 * True for an object that is neither null, a list nor a `Map` (a YAML mapping once read; a `Map` is
 * what the generators keep their own tables in, never user data). The one test every layer uses;
 * `T` names what the caller reads the values as (JSON by default).
 */
export function isObj<T = Json>(v: unknown): v is { [key: string]: T } {
  return !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map);
}

/** The object itself holds the key (never an inherited `__proto__` or `constructor`). */
export function hasKey(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** The value of a key the object itself holds (never an inherited `__proto__` or `constructor`); undefined for a non-object or an array. */
export function own(o: unknown, key: string): Json | undefined {
  if (!o || typeof o !== 'object' || Array.isArray(o)) return undefined;
  return Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, Json>)[key] : undefined;
}

/** The value down a path of keys each object on the way itself holds; undefined where one is missing or not a mapping. */
export function ownPath(v: unknown, path: readonly string[]): Json | undefined {
  let cur: unknown = v;
  for (const p of path) {
    if (!isObj<unknown>(cur) || !hasKey(cur, p)) return undefined;
    cur = cur[p];
  }
  return cur as Json;
}

/** Sets a key on a plain object without ever touching its prototype. */
export function put<T>(o: Record<string, T>, k: string, v: NoInfer<T>): void {
  // Only `__proto__` is special for assignment; defineProperty is slow (dictionary-mode objects),
  // so it is kept for that one key.
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
