/**
 * Kustomizations: their patches of the controller or the params ConfigMap (strategic-merge files and
 * inline patches, read as the resources they patch; JSON6902 operations), their `configMapGenerator` of
 * the params ConfigMap (scanKustomizeGenerators.ts), their `helmCharts:` (helmCharts.ts, through the
 * sink), and their remote bases, which cannot be read offline (said as "not read" when the
 * kustomization is an Argo CD install, decided at the end of the scan).
 */
import type { Json } from '../types';
import { isObj, own } from '../objects';
import { dirname } from '../paths';
import { checkHelmCharts } from './helmCharts';
import { installsArgoCd } from './upstreamManifests';
import { at, bounded, parseInline, resourceName, scalarText, type Collector, type Obj, type Place, type Site } from './collector';
import { checkArg, checkArgs, checkEnv, checkEnvVar, checkParam, checkParams, isControllerName } from './controllerInputs';
import { CM_NAME } from './evidence';
import { isRemote, namesArgoproj, resolveRelative } from './kustomizePaths';
import { checkGeneratorEnvs, checkGeneratorFiles, checkGeneratorLiterals } from './scanKustomizeGenerators';
import { sinkOf } from './sinkOf';
import { isYamlName } from '../workspace/names';

interface PatchTarget {
  kind: string;
  name: string;
}

export function checkKustomization(c: Collector, place: Place, site: Site, v: Json, depth: number) {
  if (!site.inner) checkHelmCharts(sinkOf(c), site, v, c.installKey(place, site));
  checkKustomizePatches(c, place, site, v, depth);
  noteRemoteBases(c, place, site, v);
  const gens = own(v, 'configMapGenerator');
  if (Array.isArray(gens))
    gens.forEach((g, i) => {
      if (own(g, 'name') !== CM_NAME) return;
      c.target(place, 'configmap-generator', site, ['configMapGenerator', i, 'literals']);
      checkGeneratorEnvs(c, place, site, g, i);
      checkGeneratorFiles(c, place, site, g, i);
      checkGeneratorLiterals(c, place, site, g, i);
    });
}

/** The patches of a kustomization that concern the controller or the params ConfigMap. */
function checkKustomizePatches(c: Collector, place: Place, site: Site, v: Json, depth: number) {
  const lists: [string, Json | undefined][] = [
    ['patches', own(v, 'patches')],
    ['patchesJson6902', own(v, 'patchesJson6902')],
    ['patchesStrategicMerge', own(v, 'patchesStrategicMerge')],
  ];
  for (const [field, list] of lists) {
    if (!Array.isArray(list)) continue;
    // A patch past the bound counts when it may concern the controller: no target (a file or an inline
    // strategic-merge patch names its own), or the controller or the params ConfigMap as its target.
    const mayConcern = (e: Json) => {
      const t = own(e, 'target');
      return t === undefined || json6902Applies({ kind: String(own(t, 'kind') ?? ''), name: String(own(t, 'name') ?? '') });
    };
    bounded(c, place, at(site, field), list, 200, `kustomize ${field}`, mayConcern, true).forEach((entry, i) =>
      checkPatch(c, place, at(site, field, i), entry, depth),
    );
  }
}

/** One entry of a kustomization's patch list; `s` points at it. */
function checkPatch(c: Collector, place: Place, s: Site, entry: Json, depth: number) {
  // patchesStrategicMerge entries are paths or inline YAML strings.
  const patch = typeof entry === 'string' ? (entry.includes('\n') ? entry : undefined) : scalarText(own(entry, 'patch'));
  const pathRef = typeof entry === 'string' ? (entry.includes('\n') ? undefined : entry) : scalarText(own(entry, 'path'));
  const t = own(entry, 'target');
  const target: PatchTarget = { kind: String(own(t, 'kind') ?? ''), name: String(own(t, 'name') ?? '') };
  if (patch !== undefined) {
    const inner: Site = { ...(typeof entry === 'string' ? s : at(s, 'patch')), inner: true };
    for (const doc of parseInline(patch, depth + 1)) checkPatchDoc(c, place, inner, doc, target, depth + 1);
  } else if (pathRef !== undefined) {
    const p = resolveRelative(dirname(s.file.path), pathRef);
    // A YAML patch file only matters here as JSON6902 operations on the controller or the params
    // ConfigMap (see below): other targets are not read at all (most kustomizations patch apps).
    if (p && isYamlName(p) && !json6902Applies(target)) return;
    const file = p ? c.workspace.file(p) : undefined;
    // YAML patch files are indexed on their own (strategic merge patches are found as resources);
    // only JSON6902 operation lists need the kustomization's target to make sense.
    if (!file) return;
    file.docs.forEach((d) => {
      if (Array.isArray(d.value)) checkJson6902(c, place, { file, docIndex: d.index, path: [], inner: false }, d.value, target);
      else if (!isYamlName(file.path))
        checkPatchDoc(c, place, { file, docIndex: d.index, path: [], inner: false }, d.value, target, depth + 1);
    });
  }
}

function noteRemoteBases(c: Collector, place: Place, site: Site, v: Json) {
  // Remote bases are fetched by kustomize at build time: offline we cannot read them. The Argo projects'
  // own manifests (argoproj/argo-cd, argocd-autopilot's base, image updater, …) leave the controller's
  // settings at their defaults, so only another repository's base could be what enables them: said as
  // "not read", never silently.
  for (const field of ['resources', 'bases', 'components']) {
    const list = own(v, field);
    if (!Array.isArray(list)) continue;
    const remoteOther = (r: Json) => {
      const ref = scalarText(r);
      return !!ref && isRemote(ref) && !namesArgoproj(ref);
    };
    bounded(c, place, at(site, field), list, 200, `kustomize ${field}`, remoteOther, true).forEach((r, i) => {
      const ref = scalarText(r);
      // Argo CD's own manifests (install/upstreamManifests.ts): the kustomization is an install.
      if (ref && installsArgoCd(ref)) c.instanceKey(place, at(site, field, i));
      if (!ref || !isRemote(ref) || namesArgoproj(ref)) return;
      c.remoteBases.push({ site: at(site, field, i), ref, key: c.installKey(place, site) });
    });
  }
}

/** An inline patch (or a patch file that is not YAML): JSON6902 operations, or a strategic-merge patch read as the resource. */
function checkPatchDoc(c: Collector, place: Place, site: Site, doc: Json, target: PatchTarget, depth: number) {
  if (Array.isArray(doc)) checkJson6902(c, place, site, doc, target);
  else if (isObj(doc)) {
    // An inline strategic-merge patch may leave kind/name to the target.
    const kind = own(doc, 'kind') ?? target.kind;
    const name = resourceName(doc) || target.name;
    const withId: Obj = { ...doc };
    Object.defineProperty(withId, 'kind', { value: kind, enumerable: true });
    Object.defineProperty(withId, 'metadata', {
      value: { ...(isObj(own(doc, 'metadata')) ? (own(doc, 'metadata') as Obj) : {}), name },
      enumerable: true,
    });
    c.reread.resource(c, place, site, withId, depth);
  }
}

const onControllerTarget = (t: PatchTarget) => (t.kind === 'Deployment' || t.kind === 'StatefulSet') && isControllerName(t.name);
const onConfigMapTarget = (t: PatchTarget) => t.kind === 'ConfigMap' && t.name === CM_NAME;
const json6902Applies = (t: PatchTarget) => onControllerTarget(t) || onConfigMapTarget(t);

/** JSON6902 operations against the controller Deployment or the params ConfigMap. */
function checkJson6902(c: Collector, place: Place, site: Site, ops: Json[], target: PatchTarget) {
  const onDeployment = onControllerTarget(target);
  const onConfigMap = onConfigMapTarget(target);
  if (!onDeployment && !onConfigMap) return;
  const who = `kustomize JSON6902 patch of ${target.kind} ${target.name}`;
  bounded(c, place, site, ops, 500, who, (op) => own(op, 'op') === 'add' || own(op, 'op') === 'replace').forEach((op, i) => {
    const kindOp = own(op, 'op');
    if (kindOp !== 'add' && kindOp !== 'replace') return;
    const p = String(own(op, 'path') ?? '');
    const value = own(op, 'value');
    const s = at(site, i, 'value');
    if (onDeployment) {
      if (/\/(args|command)$/.test(p)) checkArgs(c, place, s, value, who);
      else if (/\/(args|command)\/(-|\d+)$/.test(p)) checkArg(c, place, s, value, who);
      else if (/\/env$/.test(p)) checkEnv(c, place, s, value, who);
      else if (/\/env\/(-|\d+)$/.test(p)) checkEnvVar(c, place, s, value, who);
    } else if (p === '/data') checkParams(c, place, s, value, who);
    else if (p.startsWith('/data/')) checkParam(c, place, s, p.slice(6).replace(/~1/g, '/').replace(/~0/g, '~'), value, who);
  });
}
