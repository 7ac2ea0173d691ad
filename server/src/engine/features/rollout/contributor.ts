/**
 * The rollout feature module: progressive-sync diagnostics, step/strategy code lenses and hovers,
 * and the quick fixes (strategy insertion, enabling progressive syncs, step fixes).
 */
import type { FeatureContributor } from '../context';
import { ignoredSettingDiagnostics, rolloutDiagnostics } from './diagnostics';
import { rolloutHover } from './hover';
import { rolloutLenses } from './lenses';
import { rolloutCodeActions } from './quickfix';

export const rolloutContributor: FeatureContributor = {
  name: 'rollout',
  fileDiagnostics: ignoredSettingDiagnostics,
  diagnostics: rolloutDiagnostics,
  hover: rolloutHover,
  codeLenses: rolloutLenses,
  codeActions: rolloutCodeActions,
};
