/**
 * The parser options every document of the engine is read with (document.ts, and every reader behind
 * it: the lazy document, the one-entry re-parse, the duplicate-key check). Duplicate keys are errors,
 * but found by `duplicateKeys.ts` after composing (the library's own check is quadratic).
 */
export const PARSE_OPTIONS = { prettyErrors: false, uniqueKeys: false, strict: false, logLevel: 'error' } as const;
