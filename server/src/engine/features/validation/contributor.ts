/**
 * The validation feature: schema diagnostics plus the semantic checks, and, from the same schema,
 * completions of field names / enum values, hover docs for fields and quick fixes.
 */
import type { AppSetContext, FeatureContributor } from '../context';
import type { EngineDiagnostic } from '../../types';
import { validateSchema } from '../../validate/schema';
import { runChecks } from '../../validate/checks/index';
import { fieldCompletions, fieldHover } from './assist';
import { validationCodeActions } from './quickfix';
import { versionFieldDiagnostics } from '../../validate/fieldCheck';

export function validateAppSet(ctx: AppSetContext): EngineDiagnostic[] {
  const target = ctx.target();
  // A patch is checked for what it holds (schema.ts leaves its absent required fields out).
  return [
    ...validateSchema(ctx.doc, ctx.file.text),
    ...versionFieldDiagnostics(ctx.doc, target),
    ...runChecks(ctx.doc, ctx.file.text, target),
  ];
}

export const validationContributor: FeatureContributor = {
  name: 'validation',
  diagnostics: (ctx) => ctx.memo('validation', () => validateAppSet(ctx)),
  completions: (ctx, offset) => fieldCompletions(ctx, offset),
  hover: (ctx, offset) => fieldHover(ctx, offset),
  codeActions: (ctx, span, diagnostics) => validationCodeActions(ctx, span, diagnostics),
};
