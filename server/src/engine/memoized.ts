/**
 * A value computed once per key and kept in a map the caller owns (a `WeakMap` by object for what is
 * derived from an object never modified once made: a parameter set, a template object, an inventory).
 * The one form of the expansion's and the generators' keyed memos; `make` is a module function, not a
 * closure per call, where the call is hot.
 */
export function memoized<K, V>(map: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: (key: K) => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make(key)));
  return v;
}
