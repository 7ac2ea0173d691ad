/** Small helpers shared by the semantic checks. */
import type { EngineDiagnostic, Span } from '../../types';
import { VALIDATION_CODES } from '../codes';

const SEVERITY = new Map(VALIDATION_CODES.map((c) => [c.code, c.severity]));

/** A diagnostic with the code's registered severity. */
export function diag(code: string, message: string, span: Span, extra: Partial<EngineDiagnostic> = {}): EngineDiagnostic {
  const severity = SEVERITY.get(code);
  if (!severity) throw new Error(`unregistered diagnostic code ${code}`);
  return { code, severity, message, span, ...extra };
}
