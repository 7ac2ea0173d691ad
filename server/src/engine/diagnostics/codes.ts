/**
 * The registry of diagnostic codes. Codes are stable: never rename or reuse one. Each area's list is
 * plain data in `engine/codeLists/`, joined in its `index.ts`, so docs/codes.md, the CLI and the tests read
 * one table. `DiagnosticCode` is the union of every registered code, so
 * `tsc` rejects a finding with an unregistered one, and a finding's severity always comes from here
 * (`finding`, `severityOf`): a check says which code it found, never how serious it is. Only the
 * user's `.appset-tools.yaml` may change a severity afterwards. A test checks that README.md
 * documents every registered code.
 */
import type { EngineDiagnostic, Severity, Span } from '../types';
import { REGISTERED_CODES, type DiagnosticCode } from '../codeLists';

export type { DiagnosticCode };

export interface CodeInfo {
  code: string;
  severity: Severity;
  /** One line: what the diagnostic means and why it matters. */
  summary: string;
  /**
   * The other severity the finding takes in one named case (`variant`), e.g. a blast radius on
   * clusters that do not look like production is only information. Still the registry's choice.
   */
  variant?: { severity: Severity; when: string };
  /**
   * The finding says a document (or file) was not checked at all: a limit of ApplicationSet Tools, or
   * a parse the YAML library could not finish. `appset lint` fails closed on it (exit 3), unless the
   * repository configuration lowers its severity (`severity:` in `.appset-tools.yaml`).
   */
  unchecked?: true;
}

/** Every registered code with its severity and summary (checked against `CodeInfo` here, once). */
export const ALL_CODES: readonly CodeInfo[] = REGISTERED_CODES satisfies readonly CodeInfo[];

const byCode = new Map<string, CodeInfo>(ALL_CODES.map((c) => [c.code, c]));

export function codeInfo(code: string): CodeInfo | undefined {
  return byCode.get(code);
}

export function isDiagnosticCode(code: string): code is DiagnosticCode {
  return byCode.has(code);
}

/** The registered severity of `code`; `variant` picks its registered variant where it has one. */
export function severityOf(code: DiagnosticCode, variant = false): Severity {
  const info = byCode.get(code)!;
  return variant && info.variant ? info.variant.severity : info.severity;
}

/**
 * Extra fields of a finding, everything but what the registry decides; `variant` picks the code's
 * registered variant severity. A finding that carries more (an expansion problem's `path` and `who`)
 * passes those here too and gets them back in its type.
 */
export type FindingExtra = Omit<Partial<EngineDiagnostic>, 'code' | 'severity' | 'message' | 'span'> & { variant?: boolean };

/**
 * Where a finding sits: the located field or node it decided on (the view's `Field`, a `Place`, a
 * located tree node: anything with the `span` it was read at), or a span worked out from the text
 * where there is no located field (a match in a file nobody parsed, a library error's offset).
 */
export type FindingAt = Span | { readonly span: Span };

/**
 * A finding of `code` at `at`, with the code's registered severity: the one way to make a finding
 * (the lint rule `architecture/one-finding-constructor` forbids any other). Pass the field itself, so
 * the range comes from where the field was read; pass `field.keySpan` to underline its name instead.
 */
export function finding<X extends object = object>(
  code: DiagnosticCode,
  message: string,
  at: FindingAt,
  extra?: X & FindingExtra,
): EngineDiagnostic & Omit<X, 'variant'> {
  const { variant, ...rest } = extra ?? ({} as X & FindingExtra);
  const span = 'span' in at ? at.span : at;
  return { code, severity: severityOf(code, variant), message, span, ...rest } as EngineDiagnostic & Omit<X, 'variant'>;
}
