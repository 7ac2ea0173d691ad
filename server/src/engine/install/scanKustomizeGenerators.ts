/**
 * The kustomize `configMapGenerator` of `argocd-cmd-params-cm`: its `envs:` files (and the older `env:`),
 * `files:` and `literals:`, read as kustomize reads them (kustomize api/kv, see kustomizeKv.ts).
 */
import type { Json } from '../types';
import { own } from '../objects';
import { dirname } from '../paths';
import { envFilePairs, fileSource, literalPair } from './kustomizeKv';
import { at, bounded, type Collector, type Place, type Site } from './collector';
import { checkParam } from './controllerInputs';
import { CM_KEY, CM_NAME, CONTROLLER_SETTINGS } from './evidence';
import { resolveRelative } from './kustomizePaths';

export function checkGeneratorEnvs(c: Collector, place: Place, site: Site, g: Json, i: number) {
  const envs = own(g, 'envs');
  const lists: [string, Json[]][] = [
    ['envs', Array.isArray(envs) ? envs : []],
    ['env', typeof own(g, 'env') === 'string' ? [own(g, 'env') as Json] : []],
  ];
  for (const [field, list] of lists)
    bounded(
      c,
      place,
      { ...at(site, 'configMapGenerator', i, field), inner: true },
      list,
      20,
      `kustomize configMapGenerator ${field} files`,
      () => true,
    ).forEach((e, j) => {
      const s: Site = {
        ...(field === 'env' ? at(site, 'configMapGenerator', i, 'env') : at(site, 'configMapGenerator', i, 'envs', j)),
        inner: true,
      };
      const text = generatorSource(c, place, s, e, `envs ${String(e)}`);
      if (text === undefined) return;
      // kustomize api/kv keyValuesFromLines: the value is everything after the first "=", quotes kept (kustomizeKv.ts).
      const isSetting = (pair: { key: string }) => pair.key === CM_KEY || CONTROLLER_SETTINGS.some((st) => st.cm === pair.key);
      for (const pair of bounded(c, place, s, envFilePairs(text), 500, `lines of ${String(e)}`, isSetting))
        checkParam(
          c,
          place,
          s,
          pair.key,
          pair.value,
          `kustomize configMapGenerator ${CM_NAME} (${field} ${String(e)}, line ${pair.line + 1})`,
        );
    });
}

/**
 * The text of a generator's `envs:`/`files:` source, or undefined: a path kustomize cannot resolve is
 * left alone (kustomize fails the build), a file in the repository that the workspace index skipped is
 * said as "not read" (the verdict is then unknown, never decided without it).
 */
function generatorSource(c: Collector, place: Place, site: Site, entry: Json, what: string): string | undefined {
  if (typeof entry !== 'string') return undefined;
  const p = resolveRelative(dirname(site.file.path), entry);
  if (!p) return undefined;
  const f = c.workspace.file(p);
  if (f) return f.text;
  const why = c.workspace.notRead(p);
  if (why) c.unread(place, site, `kustomize configMapGenerator ${CM_NAME} (${what}): not read (${why})`);
  return undefined;
}

/** The `files:` entries of the params ConfigMap generator `g`. */
export function checkGeneratorFiles(c: Collector, place: Place, site: Site, g: Json, i: number) {
  // One key per file, its content verbatim (kustomize api/kv keyValuesFromFileSources): a trailing newline
  // is part of the value, for every setting (`false\n` is not a boolean, `create-only\n` not a policy).
  const fileList = own(g, 'files');
  if (Array.isArray(fileList))
    bounded(
      c,
      place,
      { ...at(site, 'configMapGenerator', i, 'files'), inner: true },
      fileList,
      50,
      'kustomize configMapGenerator files',
      (e) => {
        const k = typeof e === 'string' ? fileSource(e)?.key : undefined;
        return k === CM_KEY || CONTROLLER_SETTINGS.some((st) => st.cm === k);
      },
    ).forEach((e, j) => {
      const entry = typeof e === 'string' ? fileSource(e) : undefined;
      if (!entry) return;
      const s: Site = { ...at(site, 'configMapGenerator', i, 'files', j), inner: true };
      const text = generatorSource(c, place, s, entry.path, `files ${String(e)}`);
      if (text === undefined) return;
      checkParam(c, place, s, entry.key, text, `kustomize configMapGenerator ${CM_NAME} (files ${String(e)})`);
    });
}

/** The `literals:` of the params ConfigMap generator `g`: one pair of matching surrounding quotes removed (kustomizeKv.ts). */
export function checkGeneratorLiterals(c: Collector, place: Place, site: Site, g: Json, i: number) {
  const lits = own(g, 'literals');
  if (!Array.isArray(lits)) return;
  lits.forEach((l, j) => {
    const pair = typeof l === 'string' ? literalPair(l) : undefined;
    if (!pair) return;
    const behavior = String(own(g, 'behavior') ?? 'create');
    checkParam(
      c,
      place,
      { ...at(site, 'configMapGenerator', i, 'literals', j), inner: true },
      pair.key,
      pair.value,
      `kustomize configMapGenerator ${CM_NAME} (behavior ${behavior})`,
    );
  });
}
