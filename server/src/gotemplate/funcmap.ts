/**
 * The function map Argo CD hands to text/template (applicationset/utils/utils.go `init`):
 * sprig's GenericFuncMap minus env, expandenv and getHostByName, plus Argo CD's own functions.
 * Go's builtins are looked up after these (so sprig's `slice` shadows Go's).
 */
import type { FuncMap, GoFunc } from './funcs';
import { builtinFuncs, type Builtin } from './builtins';
import { sprigFuncs } from './sprig/index';
import { argoFuncs } from './argo';

const REMOVED = ['env', 'expandenv', 'getHostByName'];

/** Function libraries in merge order (later ones override earlier ones). */
const libraries: (() => FuncMap)[] = [sprigFuncs, argoFuncs];

let funcs: Map<string, GoFunc> | undefined;
let builtins: Map<string, Builtin> | undefined;

export function templateFuncs(): Map<string, GoFunc> {
  if (!funcs) {
    funcs = new Map();
    for (const lib of libraries) for (const [k, v] of lib()) funcs.set(k, v);
    for (const k of REMOVED) funcs.delete(k);
  }
  return funcs;
}

export function builtinsMap(): Map<string, Builtin> {
  return (builtins ??= builtinFuncs());
}

/** Does the parser know function `name`? */
export function hasFunction(name: string): boolean {
  return templateFuncs().has(name) || builtinsMap().has(name);
}
