/**
 * The editor feature module: completion inside `{{ }}` (parameters with valid syntax, sample and
 * source; functions with signatures) and "did you mean" quick fixes for parameters and template
 * modes. Navigation, structure and decorations are asked through the facade directly
 * (`definition`, `documentSymbols`, `semanticTokens`, …).
 */
import type { FeatureContributor } from '../context';
import { templateCompletions, templateQuickFixes } from './templateAssist';

export const editorContributor: FeatureContributor = {
  name: 'editor',
  completions: (ctx, offset) => templateCompletions(ctx, offset),
  codeActions: (ctx, _span, diagnostics) => templateQuickFixes(ctx, diagnostics),
};
