/**
 * Why a template failed, set where the error is raised, so callers decide by it and never by reading the
 * message (the message stays Go's / Argo CD's exact text: it is what the controller prints).
 */
export type TemplateReason =
  /** A function the template library does not have (parse time): its name. */
  | { kind: 'undefined-function'; name: string }
  /** `map has no entry for key` under missingkey=error. */
  | { kind: 'missing-key' }
  /** `nil data; no entry for key` under missingkey=error. */
  | { kind: 'nil-data' }
  /** `can't evaluate field X in type T`: the field's name. */
  | { kind: 'no-field'; field: string }
  /** Ranging over an integer before Go 1.24. */
  | { kind: 'range-int' }
  /** `{{else with}}` before Go 1.23. */
  | { kind: 'else-with' }
  /** One of ApplicationSet Tools' own work limits (Argo CD has none). */
  | { kind: 'limit' }
  /** A function the offline preview did not run (its cost budget was spent). */
  | { kind: 'preview-skipped' }
  /** semver's "invalid semantic version". */
  | { kind: 'invalid-semver' }
  /** `nil pointer evaluating T.x`: a field read below a value that is nil (a key the data lacks). */
  | { kind: 'nil-pointer' };

/**
 * Where Go's error says a template failed, as data: the line of its `template: NAME:LINE[:COL]:`
 * prefix and the words after that prefix, so a caller that shows the error its own way (a Helm chart's
 * render note) never takes the message apart.
 */
export interface TemplateErrorPlace {
  line: number;
  detail: string;
}

/** An error a template function or the executor raises with its reason; the reason travels up with it. */
export class ReasonedError extends Error {
  constructor(
    message: string,
    readonly reason: TemplateReason,
  ) {
    super(message);
  }
}

/** The reason an error carries, if any (ReasonedError, GoExecError, GoParseError, TemplateError). */
export function reasonOf(e: unknown): TemplateReason | undefined {
  return e instanceof Error ? (e as { reason?: TemplateReason }).reason : undefined;
}

/** A plain error with `message` that keeps the reason of `from` (wrapping an inner error). */
export function rewrap(message: string, from: unknown): Error {
  const reason = reasonOf(from);
  return reason ? new ReasonedError(message, reason) : new Error(message);
}
