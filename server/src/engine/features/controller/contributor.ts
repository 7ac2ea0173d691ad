/** The controller-settings feature module: what the install's ApplicationSet controller settings do to an ApplicationSet. */
import type { FeatureContributor } from '../context';
import { controllerDiagnostics } from './diagnostics';

export const controllerContributor: FeatureContributor = {
  name: 'controller',
  diagnostics: controllerDiagnostics,
};
