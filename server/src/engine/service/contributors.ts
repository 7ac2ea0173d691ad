/**
 * The built-in feature modules, in the order their answers are shown. Each area registers here.
 */
import type { FeatureContributor } from './context';

export function defaultContributors(): FeatureContributor[] {
  return [];
}
