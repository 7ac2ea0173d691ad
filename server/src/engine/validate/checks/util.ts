/** Small helpers shared by the semantic checks. */
import type { EngineDiagnostic, Span } from '../../types';
import { finding, type FindingExtra } from '../../diagnostics/codes';
import type { VALIDATION_CODES } from '../../codeLists/validation';

/** A validation finding with the code's registered severity. */
export function diag(
  code: (typeof VALIDATION_CODES)[number]['code'],
  message: string,
  span: Span,
  extra: FindingExtra = {},
): EngineDiagnostic {
  return finding(code, message, span, extra);
}
