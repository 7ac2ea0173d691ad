/**
 * The one shape of a quick fix: a `quickfix` CodeAction that resolves the given diagnostics (their codes
 * listed once each) with text edits. Every feature's fixes are built here.
 */
import type { CodeAction, EngineDiagnostic, TextEdit } from '../types';

/** A quick fix for `diagnostics`; `preferred` is set only when given (true marks the fix editors apply first). */
export function quickFix(title: string, diagnostics: EngineDiagnostic[], edits: TextEdit[], preferred?: boolean): CodeAction {
  return {
    title,
    kind: 'quickfix',
    diagnosticCodes: [...new Set(diagnostics.map((d) => d.code))],
    diagnostics,
    ...(preferred === undefined ? {} : { isPreferred: preferred }),
    edits,
  };
}

/** The fixes `fix` offers for each diagnostic of code `code` (none where it returns undefined). */
export function fixesOf(diagnostics: EngineDiagnostic[], code: string, fix: (d: EngineDiagnostic) => CodeAction | undefined): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    const action = d.code === code ? fix(d) : undefined;
    if (action) out.push(action);
  }
  return out;
}
