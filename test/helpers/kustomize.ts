/**
 * Kustomize layouts that patch ApplicationSets (engine/validate/partial.ts): patch files listed in
 * every way kustomize allows, beside their kustomization, two folders up and, with
 * `--load-restrictor LoadRestrictionsNone`, from another folder (`..`).
 */
import { appsetHead, MINIMAL_TEMPLATE_SPEC } from './appsets';

/** A patch of an ApplicationSet: metadata and one changed field, no generators or template. */
export const appsetPatch = (name: string) =>
  `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: ${name}\nspec:\n  syncPolicy:\n    preserveResourcesOnDeletion: true\n`;

/** A whole ApplicationSet (generators and template), which no kustomization lists as a patch. */
export const WHOLE_APPSET = `${appsetHead('whole')}  generators:\n    - list:\n        elements: [{name: a}]\n  template:\n    metadata:\n      name: '{{ .name }}'\n${MINIMAL_TEMPLATE_SPEC}`;

/** A kustomization's first lines. */
export const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

/** Patches listed in every way kustomize allows, near and far, as a workspace at /ws. */
export function patchWorkspace(): Map<string, string> {
  return new Map([
    // listed by the kustomization beside it, and by one two folders up
    ['/ws/overlays/prod/kustomization.yaml', `${KUSTOMIZATION}resources: [../../base]\npatches:\n  - path: wave.yaml\n`],
    ['/ws/overlays/prod/wave.yaml', appsetPatch('web')],
    ['/ws/kustomization.yaml', `${KUSTOMIZATION}patchesStrategicMerge:\n- apps/deep/down/keep.yaml\n`],
    ['/ws/apps/deep/down/keep.yaml', appsetPatch('api')],
    // the file name kustomize also reads
    ['/ws/legacy/Kustomization', `patchesJson6902:\n  - {path: json.yaml, target: {kind: ApplicationSet, name: web}}\n`],
    ['/ws/legacy/json.yaml', appsetPatch('web')],
    // outside the kustomization's folder: only with LoadRestrictionsNone, in every layout of the field
    ['/ws/overlays/dev/kustomization.yaml', `${KUSTOMIZATION}resources:\n- ../../base\npatches:\n- path: ../../shared/dev-patch.yaml\n`],
    ['/ws/shared/dev-patch.yaml', appsetPatch('web')],
    ['/ws/overlays/qa/kustomization.yml', `resources: [../../base]\n"patchesStrategicMerge": [../../shared/qa-patch.yaml]\n`],
    ['/ws/shared/qa-patch.yaml', appsetPatch('web')],
    // a file of another name is not a kustomization for kustomize, whatever its kind says
    ['/ws/other/not-kustomize.yaml', `${KUSTOMIZATION}patches:\n  - path: ignored.yaml\n`],
    ['/ws/other/ignored.yaml', WHOLE_APPSET],
    // a kustomization whose only `..` is a resource, and a whole ApplicationSet it does not list
    ['/ws/overlays/stage/kustomization.yaml', `${KUSTOMIZATION}resources: [../../base]\npatches:\n  - path: stage.yaml\n`],
    ['/ws/base/appset.yaml', WHOLE_APPSET],
  ]);
}
