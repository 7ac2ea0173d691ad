/** Shared by the validate-* tests: run the validation feature on a text. */
import { parseFile } from '../../../../server/src/engine/yaml/document';
import { validateSchema } from '../../../../server/src/engine/validate/schema';
import { runChecks } from '../../../../server/src/engine/validate/checks/index';
import type { EngineDiagnostic } from '../../../../server/src/engine/types';
import { MINIMAL_TEMPLATE_SPEC } from '../../../helpers/appsets';

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

/** A minimal valid ApplicationSet with `spec` lines spliced in (indented by 2 under spec). */
export function appset(specExtra: string, opts: { goTemplate?: boolean; generators?: string } = {}): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: test
spec:
${opts.goTemplate ? '  goTemplate: true\n' : ''}  generators:
${opts.generators ?? '  - list:\n      elements:\n      - name: a'}
  template:
    metadata:
      name: '{{name}}'
${MINIMAL_TEMPLATE_SPEC}${specExtra}`;
}

export const codes = (ds: Found[]) => ds.map((d) => d.code).sort();

/** `generators` (for appset's opts) of one matrix: a matrix whose children are `inner` (YAML items 10 spaces deep), then an empty list. */
export const nestedMatrix = (inner: string) =>
  `  - matrix:\n      generators:\n      - matrix:\n          generators:\n${inner}      - list:\n          elements: []`;
