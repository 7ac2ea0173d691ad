/**
 * Helm values of the argo-cd chart, wherever they are written: a values document (`configs.params`,
 * `applicationSet.extraArgs/extraEnv`, `global.env`), an Application source's inline `helm:` block
 * (valuesObject / values, then parameters, in Helm's order), and the keys an umbrella chart's argo-cd
 * dependency reads them under. Values files as files (beside a chart, selected by an install) are
 * scanValuesFiles.ts's.
 */
import type { Json } from '../types';
import { isObj, own } from '../objects';
import { dirname, relativePath } from '../paths';
import { chartAt } from './installers';
import { at, parseInline, scalarText, type Collector, type Obj, type Place, type Site } from './collector';
import { checkArg, checkArgs, checkEnv, checkParam, checkParams } from './controllerInputs';

/** Argo CD chart values; `known`: of a known argo-cd chart, a fix target even when they set nothing. */
export function checkHelmValues(c: Collector, place: Place, site: Site, v: Json, who: string, known = false) {
  const configs = own(v, 'configs');
  const as = own(v, 'applicationSet');
  const params = own(configs, 'params');
  const looksLikeChart = isObj(params) || (isObj(as) && (own(as, 'extraArgs') !== undefined || own(as, 'extraEnv') !== undefined));
  // Values of a known argo-cd chart (the chart beside them, or the install selecting them) are a
  // target even when empty; the target's path is where the values sit in the document.
  if (!site.inner && (looksLikeChart || known)) c.target(place, 'helm-values', site, site.path.length ? site.path : undefined);
  if (!looksLikeChart) return;
  checkParams(c, place, at(site, 'configs', 'params'), params, `${who} configs.params`);
  const slot = (s: string): Place => ({ ...place, slot: s });
  checkArgs(c, slot('extraArgs'), at(site, 'applicationSet', 'extraArgs'), own(as, 'extraArgs'), `${who} applicationSet.extraArgs`);
  checkEnv(c, slot('extraEnv'), at(site, 'applicationSet', 'extraEnv'), own(as, 'extraEnv'), `${who} applicationSet.extraEnv`);
  checkEnv(c, slot('globalEnv'), at(site, 'global', 'env'), own(own(v, 'global'), 'env'), `${who} global.env`);
}

/** An Application source's inline Helm values, in Helm's order: values/valuesObject, then parameters. */
export function checkHelmSource(c: Collector, place: Place, site: Site, helm: Json | undefined, depth: number, keys: string[][]) {
  if (!isObj(helm)) return;
  const base = place.rank?.rank ?? 1000;
  const step = (n: number): Place => (place.rank ? { ...place, rank: { ...place.rank, rank: base + n } } : place);
  // Argo CD writes valuesObject (else values) to one values file after valueFiles, and passes
  // parameters as --set (reposerver/repository/repository.go helmTemplate).
  const values = step(1);
  const vo = own(helm, 'valuesObject');
  if (isObj(vo)) for (const k of keys) sub(c, values, at(site, 'valuesObject'), vo, k, 'Application helm.valuesObject');
  const vs = own(helm, 'values');
  if (typeof vs === 'string' && !isObj(vo)) {
    for (const doc of parseInline(vs, depth))
      if (isObj(doc)) for (const k of keys) sub(c, values, { ...at(site, 'values'), inner: true }, doc, k, 'Application helm.values');
  }
  const set = step(2);
  const prefix = keys[0]?.length ? `${keys[0][0]}.` : '';
  const params = own(helm, 'parameters');
  if (!Array.isArray(params)) return;
  params.forEach((p, i) => {
    const name = String(own(p, 'name') ?? '').replace(/\\/g, '');
    const value = scalarText(own(p, 'value'));
    if (value === undefined || !name.startsWith(prefix)) return;
    const local = name.slice(prefix.length);
    const s = at(site, 'parameters', i, 'value');
    if (local.startsWith('configs.params.'))
      checkParam(c, set, s, local.slice('configs.params.'.length), value, 'Application helm.parameters');
    else if (/^applicationSet\.extraArgs\[\d+\]$/.test(local))
      checkArg(c, { ...set, slot: 'extraArgs' }, s, value, 'Application helm.parameters');
  });
}

/** Values under an umbrella chart's dependency key (or at the top for the argo-cd chart itself). */
function sub(c: Collector, place: Place, site: Site, v: Obj, k: string[], who: string) {
  if (!k.length) return checkHelmValues(c, place, site, v, who);
  const inner = own(v, k[0]);
  if (isObj(inner)) checkHelmValues(c, place, site.inner ? site : at(site, k[0]), inner, `${who} ${k[0]}:`);
}

/** A values document the argo-cd chart reads under `keys` (`[]` at the top, `['argo']` for an alias). */
export function scanValuesDoc(c: Collector, place: Place, site: Site, v: Json, keys: string[][], chartPath?: string) {
  for (const k of keys) {
    const sub = k.length ? own(v, k[0]) : v;
    if (k.length && !isObj(sub)) {
      // The dependency has no values yet: the enabling fix writes them under its key.
      if (!site.inner) c.target(place, 'helm-values', site, k);
      continue;
    }
    checkHelmValues(c, place, k.length ? at(site, k[0]) : site, sub as Json, k.length ? `Helm values ${k[0]}:` : 'Helm values', true);
  }
  if (chartPath && keys.length && !keys.some((k) => !k.length)) {
    const rel = relativePath([dirname(chartPath)], site.file.path);
    const ignored = `the argo-cd chart reads its values under "${keys[0][0]}:" (the dependency in ${chartPath.slice(chartPath.lastIndexOf('/') + 1)}), not at the top of ${rel}`;
    checkParams(c, place, at(site, 'configs', 'params'), own(own(v, 'configs'), 'params'), 'Helm values configs.params', ignored);
  }
}

/** Where the argo-cd chart of a chart folder reads its values: `[]` (the chart itself) or `[alias or 'argo-cd']`. */
export function chartKeys(c: Collector, chartDir: string): string[][] {
  const v = chartAt(c.workspace, chartDir)?.docs[0]?.value;
  if (own(v, 'name') === 'argo-cd') return [[]];
  const deps = own(v, 'dependencies');
  return Array.isArray(deps) ? deps.filter((d) => own(d, 'name') === 'argo-cd').map((d) => [scalarText(own(d, 'alias')) || 'argo-cd']) : [];
}
