/**
 * Sprig v3.3.0's function map (`GenericFuncMap`) as Argo CD uses it. `env`, `expandenv` and
 * `getHostByName` are defined here like in sprig and removed by funcmap.ts, as Argo CD does.
 */
import type { FuncMap, GoFunc } from '../funcs';
import { stringFuncs } from './strings';
import { collectionFuncs } from './collections';
import { mathFuncs } from './math';
import { regexFuncs } from './regex';
import { encodingFuncs } from './encoding';
import { reflectFuncs } from './reflect';
import { miscFuncs } from './misc';
import { semverFuncs } from './semver';
import { cryptoFuncs } from './crypto';
import { certFuncs } from './certs';

export function sprigFuncs(): FuncMap {
  const m: FuncMap = new Map();
  for (const lib of [
    stringFuncs,
    collectionFuncs,
    mathFuncs,
    regexFuncs,
    encodingFuncs,
    reflectFuncs,
    miscFuncs,
    semverFuncs,
    cryptoFuncs,
    certFuncs,
  ])
    for (const [k, v] of lib()) m.set(k, v);
  m.set('trimall', m.get('trimAll') as GoFunc);
  const removed: GoFunc = { params: ['string'], impl: () => '' };
  for (const k of ['env', 'expandenv', 'getHostByName']) m.set(k, removed);
  return m;
}
