/**
 * Plain Kubernetes manifests of Argo CD's install (or strategic-merge patches of them): the
 * `argocd-cmd-params-cm` ConfigMap's data, and the ApplicationSet controller Deployment's (or
 * StatefulSet's) container arguments and env. A params ConfigMap that nothing builds or applies is read,
 * and its evidence marked "written but not deployed" (notDeployed.ts).
 */
import type { Json } from '../types';
import { own } from '../objects';
import { at, scalarText, type Collector, type Place, type Site } from './collector';
import { checkParams, checkPodSpec } from './controllerInputs';
import { CM_KEY, CM_NAME } from './evidence';
import { notDeployed } from './notDeployed';

/** The argocd-cmd-params-cm ConfigMap. */
export function checkParamsConfigMap(c: Collector, place: Place, site: Site, v: Json) {
  c.target(place, 'configmap', site);
  const notBuilt = site.inner ? undefined : notDeployed(c, site.file.path);
  const before = c.evidence.length;
  checkParams(c, place, at(site, 'data'), own(v, 'data'), `ConfigMap ${CM_NAME}`, notBuilt?.why);
  // The progressive-syncs key's evidence is ignored for what is missing (the renamed key's for its name):
  // it carries the facts, by its place, not its description. What would enable them, once deployed: the
  // lens and status bar say what is missing; a kustomization that does not list the file: the fix adds it.
  if (notBuilt)
    for (const e of c.evidence.slice(before)) {
      const path = e.site?.path;
      if (path?.[path.length - 1] !== CM_KEY) continue;
      if (notBuilt.unlisted) e.unlisted = true;
      const raw = scalarText(own(own(v, 'data'), CM_KEY));
      if (raw !== undefined && raw.toLowerCase() === 'true') e.undeployed = notBuilt.why;
    }
}

/** The ApplicationSet controller's Deployment or StatefulSet: its pod template's containers. */
export function checkControllerWorkload(c: Collector, place: Place, site: Site, v: Json, name: string) {
  checkPodSpec(c, place, at(site, 'spec', 'template', 'spec'), own(own(own(v, 'spec'), 'template'), 'spec'), `Deployment ${name}`);
}
