/**
 * The built-in feature modules, in the order their answers are shown. Each area registers here.
 */
import type { FeatureContributor } from './context';
import { validationContributor } from '../validate/contributor';
import { rolloutContributor } from '../rollout/contributor';
import { previewContributor } from '../render/contributor';

export function defaultContributors(): FeatureContributor[] {
  return [validationContributor, previewContributor, rolloutContributor];
}
