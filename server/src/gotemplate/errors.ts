/**
 * The error every render throws, with Argo CD's full message text. Its own module so that the
 * library's files import it from here and never the public entry (index.ts re-exports it).
 */
import type { TemplateErrorPlace, TemplateReason } from './reason';

/**
 * An error the parser or the executor raises inside the library, at a place in the template text
 * (`GoParseError`, `GoExecError`): Go's message, the offending node's offset and length, and why.
 * The render turns it into a `TemplateError`.
 */
export class GoPlacedError extends Error {
  constructor(
    message: string,
    /** Offset/length of the node being parsed or executed (in the template text). */
    readonly offset: number,
    readonly length: number,
    readonly reason?: TemplateReason,
    readonly place?: TemplateErrorPlace,
  ) {
    super(message);
  }
}

export class TemplateError extends Error {
  constructor(
    message: string,
    /** Argo CD's phase: parse error, execution error, or fasttemplate error. */
    readonly kind: 'parse' | 'exec' | 'fast' | 'option',
    /** The template text that failed. */
    readonly template: string,
    /** Offset in `template` of the failing action, when known (maps back to the YAML source). */
    readonly offset?: number,
    /** Length of the failing action in `template`, when known. */
    readonly length?: number,
    /** Why it failed, for callers that decide by it (reason.ts); undefined for the other errors. */
    readonly reason?: TemplateReason,
    /** Where Go's error text says it failed (line, and the words after the place), when it names one. */
    readonly place?: TemplateErrorPlace,
  ) {
    super(message);
    this.name = 'TemplateError';
  }
}
