/**
 * Public API of the Go template library (the only module other code imports): Go text/template + Sprig (goTemplate mode) and Argo CD's
 * fasttemplate rules, rendering exactly as the ApplicationSet controller does
 * (`applicationset/utils/utils.go` in Argo CD).
 *
 * CONTRACT (other areas code against these signatures; the implementation lives in this folder):
 * - Params are JSON-like values as produced by generators (`Params`). In goTemplate mode numbers are
 *   float64 (Go's `json.Unmarshal`). Use `GoStringMap` (values.ts) for Go `map[string]string`
 *   params (cluster labels/annotations, generator `values`), whose missing keys index to "".
 * - Errors are thrown as `TemplateError` whose `message` is Argo CD's full text, e.g.
 *   `failed to execute go template {{.x}}: template: base:1:2: executing "base" at <.x>: map has no entry for key "x"`.
 */
import type { TemplateErrorPlace, TemplateReason } from './reason';
export type { TemplateReason, TemplateErrorPlace } from './reason';

export type { Params } from './values';

export interface RenderOptions {
  goTemplate: boolean;
  /** `spec.goTemplateOptions` (only meaningful in goTemplate mode). */
  options?: readonly string[];
  /**
   * Functions the Argo CD release being modelled does not define (older releases lack some, e.g.
   * `toYaml` before 2.10): a template calling one fails to parse with Go's "function not defined".
   */
  missingFunctions?: readonly string[];
  /** Name of the root template in error texts: `base` (Argo CD 3.3+, the default) or `""` (before 3.3). */
  templateName?: string;
  /** Go and library versions of the Argo CD release being modelled; default: Argo CD 3.2+'s. */
  libraries?: TemplateLibraries;
}

/**
 * The Go toolchain and template libraries an Argo CD release was built with (its Dockerfile's
 * golang image and go.mod), where they change what a template does.
 */
export interface TemplateLibraries {
  /** Go minor version (1.20 → 20): `{{else with}}` parses from 23, `{{range 3}}` runs from 24. */
  goMinor: number;
  /** Masterminds/semver/v3 behind `semver` and `semverCompare`. */
  semver: '3.2.1' | '3.3.0' | '3.3.1' | '3.4.0';
  /** huandu/xstrings behind `camelcase`: v1.3.3's ToCamelCase (sprig v3.2.3) or v1.5.0's ToPascalCase (sprig v3.3.0). */
  xstrings: '1.3.3' | '1.5.0';
}

/** What templates run with when nothing else is said: Argo CD 3.2 and newer. */
export const NEWEST_LIBRARIES: TemplateLibraries = { goMinor: 26, semver: '3.4.0', xstrings: '1.5.0' };

/** Collects facts about a render that make a preview non-exact. */
export interface RenderReport {
  /** Non-deterministic functions that ran (`now`, `randAlphaNum`, `uuidv4`, …). */
  nonDeterministic: Set<string>;
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

export {
  renderString,
  renderValue,
  referencedParams,
  validateOptions,
  parseError,
  parseErrorWith,
  isTemplateFunction,
  NON_DETERMINISTIC_FUNCTIONS,
} from './api';
export type { ParamRef } from './api';
export { isTemplateKeyword } from './lexer';
/** Go's `%v` printing of a value (e.g. `<nil>`, `map[a:1]`, `1e+06`), as fmt.Sprint does. */
export { formatValue } from './format';
/** Bounds the time slow crypto functions (bcrypt, genCA, derivePassword, …) may take per window. */
export { configureCostly as limitExpensiveFunctions } from './sprig/crypto';
/** Go values beyond JSON that generators build params from. */
export { fromJSON, GoStringMap, type GoMap } from './values';
/** Go's byte-wise string order (sort.Strings), used wherever the controller sorts names. */
export { compareGoStrings } from './format';

// Lexical tokens of a template string (editors highlight `{{ }}` actions with them).
export { templateTokens, type TemplateToken, type TokenKind } from './tokens';
/** Size, line-length and nesting limits checked before any YAML text reaches the parser. */
export { isStackOverflow } from './stackOverflow';
export { checkYamlLimits, checkYamlLimitsSteps, YAML_LIMITS, type YamlLimits, type YamlLimitHit } from './yamlGuard';
/** Per-execution limits (work, steps, output): `setTemplateLimits(false)` lifts them (the CLI's --no-limits). */
export { setTemplateLimits, withTotalBudget, totalBudget, totalSpent, chargeTotal, type TotalBudget } from './budget';
