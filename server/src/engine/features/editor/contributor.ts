/**
 * The editor feature module: completion inside `{{ }}` (parameters with valid syntax, sample and
 * source; functions with signatures, only those the target release defines), hover over a template
 * function (what it does, since when) and "did you mean" quick fixes for parameters and template
 * modes. Navigation, structure and decorations are asked through the facade directly
 * (`definition`, `documentSymbols`, `semanticTokens`, …).
 */
import type { FeatureContributor } from '../context';
import { templateCompletions, templateFunctionHover, templateQuickFixes } from './templateAssist';

export const editorContributor: FeatureContributor = {
  name: 'editor',
  completions: (ctx, offset) => templateCompletions(ctx, offset),
  hover: (ctx, offset) => templateFunctionHover(ctx, offset),
  codeActions: (ctx, _span, diagnostics) => templateQuickFixes(ctx, diagnostics),
};
