/**
 * The built-in feature modules, in the order their answers are shown. Each area registers here.
 */
import type { FeatureContributor } from '../features/context';
import { validationContributor } from '../features/validation/contributor';
import { rolloutContributor } from '../features/rollout/contributor';
import { previewContributor } from '../features/preview/contributor';
import { editorContributor } from '../features/editor/contributor';
import { policyContributor } from '../features/policy/gates';
import { templatesContributor } from '../features/templates/contributor';
import { placeholderContributor } from '../features/inventory/contributor';
import { projectsContributor } from '../features/projects/contributor';
import { controllerContributor } from '../features/controller/contributor';

export function defaultContributors(): FeatureContributor[] {
  return [
    validationContributor,
    templatesContributor,
    previewContributor,
    rolloutContributor,
    editorContributor,
    policyContributor,
    placeholderContributor,
    projectsContributor,
    controllerContributor,
  ];
}
