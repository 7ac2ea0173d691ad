/** Shared by the validate-* tests: run the validation feature on a text. */
import { parseFile } from '../../../../server/src/engine/kinds';
import { validateSchema } from '../../../../server/src/engine/validate/schema';
import { runChecks } from '../../../../server/src/engine/validate/checks/index';
import type { EngineDiagnostic } from '@appset-tools/engine';

export interface Found extends EngineDiagnostic {
  /** The underlined text. */
  text: string;
}

export function validateText(text: string): Found[] {
  const parsed = parseFile(text);
  const out: EngineDiagnostic[] = [...parsed.diagnostics];
  for (const doc of parsed.appsets) out.push(...validateSchema(doc, text), ...runChecks(doc, text));
  return out.map((d) => ({ ...d, text: text.slice(d.span.start, d.span.end) }));
}

export { appset, codes, nestedMatrix } from '../../../helpers/appsets';
