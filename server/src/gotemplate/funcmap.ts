/**
 * The function map Argo CD hands to text/template (applicationset/utils/utils.go `init`):
 * sprig's GenericFuncMap minus env, expandenv and getHostByName, plus Argo CD's own functions.
 * Go's builtins are looked up after these (so sprig's `slice` shadows Go's).
 */
import type { FuncMap, GoFunc } from './funcs';
import { builtinFuncs, type Builtin } from './builtins';
import { sprigFuncs } from './sprig/index';
import { argoFuncs } from './argo';
import { semverFuncs } from './sprig/semver';
import { toCamelCaseV133 } from './sprig/xstrings';
import type { TemplateLibraries } from './types';

const REMOVED = ['env', 'expandenv', 'getHostByName'];

/** Function libraries in merge order (later ones override earlier ones). */
const libraries: (() => FuncMap)[] = [sprigFuncs, argoFuncs];

let funcs: Map<string, GoFunc> | undefined;
let builtins: Map<string, Builtin> | undefined;

const variants = new Map<string, Map<string, GoFunc>>();

/**
 * The function map; with `libs`, the one of an older release's libraries (same names, functions
 * whose library version behaves differently replaced). One map per combination, built once.
 */
export function templateFuncs(libs?: TemplateLibraries): Map<string, GoFunc> {
  if (!funcs) {
    funcs = new Map();
    for (const lib of libraries) for (const [k, v] of lib()) funcs.set(k, v);
    for (const k of REMOVED) funcs.delete(k);
  }
  if (!libs || (libs.semver === '3.4.0' && libs.xstrings === '1.5.0')) return funcs;
  const key = `${libs.semver}/${libs.xstrings}`;
  let m = variants.get(key);
  if (!m) {
    m = new Map(funcs);
    for (const [k, v] of semverFuncs(libs.semver)) m.set(k, v);
    if (libs.xstrings === '1.3.3') m.set('camelcase', { params: ['string'], impl: (s) => toCamelCaseV133(s as string) });
    variants.set(key, m);
  }
  return m;
}

export function builtinsMap(): Map<string, Builtin> {
  return (builtins ??= builtinFuncs());
}

/** Does the parser know function `name`? */
export function hasFunction(name: string): boolean {
  return templateFuncs().has(name) || builtinsMap().has(name);
}
