/**
 * "Written but not deployed": whether a params ConfigMap's file is built or applied by anything in the
 * repository (a kustomization listing it, an Application or Flux Kustomization deploying its folder, the
 * install's own folder applied as a whole), or else applied by hand.
 */
import type { Json } from '../types';
import { own } from '../objects';
import { dirname, relativePath } from '../paths';
import { declaresAppSet } from '../kinds/appset';
import { isInstallFolder, isSample } from './instances';
import { folderDeployed } from './installers';
import { resourceName, scalarText, type Collector } from './collector';
import { CM_NAME } from './evidence';
import { isYamlName } from '../workspace/names';

const KUSTOMIZE_LISTS = ['resources', 'bases', 'components', 'patchesStrategicMerge', 'patches', 'crds'];

/**
 * "Written but not deployed": a params ConfigMap the controller never reads because nothing builds or
 * applies its file. In a folder with a kustomization: the kustomization must list it (resources,
 * patches, …). In a plain folder: something must deploy the folder — an Application's or Flux
 * Kustomization's path (installers.ts), a kustomization above that lists the file — or the folder must
 * be the install's own (named like one, `argocd/`, `bootstrap/`…, or holding other parts of Argo CD's
 * install), which is applied as a whole, or hold nothing else (taken as the install's configuration,
 * applied by hand). A ConfigMap dropped beside the ApplicationSets, in a folder nothing deploys, is
 * written, not deployed.
 */
export function notDeployed(c: Collector, file: string): { why: string; unlisted?: true } | undefined {
  const dir = dirname(file);
  const base = file.slice(dir.length + 1);
  const folder = (p: string) => p.split('/').slice(-2).join('/');
  const restart = 'the ApplicationSet controller reads its parameters only when it starts, so restart it after the change';
  const k = kustomizationIn(c, dir);
  if (k) {
    if (listedBy(k.value, base)) return undefined;
    return {
      why: `${folder(file)} is not part of ${folder(k.path)}: nothing deploys it (add it to its resources; ${restart})`,
      unlisted: true,
    };
  }
  if (folderDeployed(c.installers, dir)) return undefined;
  let up = dir;
  for (let n = 0; n < 3 && up.lastIndexOf('/') > 0; n++) {
    up = dirname(up);
    const above = kustomizationIn(c, up);
    if (above && listedBy(above.value, file.slice(up.length + 1))) return undefined;
  }
  if (holdsInstallParts(c, dir, file)) return undefined;
  // Nothing deploys the ConfigMap and no other part of Argo CD lies beside it: applied by hand, if at
  // all. Such a folder is an install only where the repository holds no other (see `looseInstances`).
  if (isInstallFolder(dir.slice(dir.lastIndexOf('/') + 1))) return void c.byHand.add(file);
  // A folder of its own is taken as the install's configuration, applied by hand; one that holds the
  // ApplicationSets is theirs, and nothing applies a ConfigMap dropped there.
  // Samples (examples/, docs/, …) are applied by hand as a whole.
  if (!holdsApplicationSets(c, dir, file) || isSample({ key: dir }, c.roots)) return void c.byHand.add(file);
  const rel = relativePath(c.roots, file);
  return {
    why: `${rel} is written but not deployed: no kustomization lists it and no Application or Flux Kustomization deploys ${relativePath(c.roots, dir)}/ (apply it, e.g. kubectl apply -f ${rel}, or add it to the install; ${restart})`,
  };
}

function kustomizationIn(c: Collector, dir: string): { path: string; value: Json | undefined } | undefined {
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const k = c.workspace.file(`${dir}/${name}`);
    if (k) return { path: k.path, value: k.docs[0]?.value };
  }
  return undefined;
}

/** True when a kustomization lists `rel` (relative to its folder) in one of the lists kustomize builds. */
function listedBy(v: Json | undefined, rel: string): boolean {
  return KUSTOMIZE_LISTS.some((field) => {
    const list = own(v, field);
    return (
      Array.isArray(list) &&
      list.some((e) => {
        const ref = typeof e === 'string' ? e : scalarText(own(e, 'path'));
        return ref !== undefined && ref.replace(/^\.\//, '') === rel;
      })
    );
  });
}

function holdsApplicationSets(c: Collector, dir: string, self: string): boolean {
  return c.workspace
    .paths()
    .filter((p) => p !== self && dirname(p) === dir && isYamlName(p))
    .slice(0, 200)
    .some((p) => declaresAppSet(c.workspace.file(p)?.text ?? ''));
}

/**
 * True when the folder holds another part of Argo CD's install (its Deployments, ConfigMaps, the
 * Operator's ArgoCD): in another file, or in the params ConfigMap's own file beside it — a file is
 * applied whole, so a ConfigMap written in the same file as the controller's Deployment is deployed
 * with it (the Deployment's own flags count as deployed).
 */
function holdsInstallParts(c: Collector, dir: string, self: string): boolean {
  return c.files.some(
    (f) =>
      dirname(f.path) === dir &&
      f.docs.some((d) => {
        const kind = own(d.value, 'kind');
        const name = resourceName(d.value);
        if (f.path === self && kind === 'ConfigMap' && name === CM_NAME) return false;
        return (
          kind === 'ArgoCD' || ((kind === 'Deployment' || kind === 'StatefulSet' || kind === 'ConfigMap') && name.startsWith('argocd-'))
        );
      }),
  );
}

/** Reads one file's documents, once per scan (a chart's values are also reached from its Chart.yaml). */
