/**
 * Building plain objects from keys that come from user text (YAML keys, parameter names): `__proto__`
 * must stay an ordinary key, never reach the prototype. The one home of that rule for every layer.
 */

/** Sets a key on a plain object without ever touching its prototype. */
export function put<T>(o: Record<string, T>, k: string, v: NoInfer<T>): void {
  // Only `__proto__` is special for assignment; defineProperty is slow (dictionary-mode objects),
  // so it is kept for that one key.
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}
