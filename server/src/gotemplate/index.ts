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
export type { TemplateReason, TemplateErrorPlace } from './reason';

export type { Params } from './values';

export { NEWEST_LIBRARIES, type RenderOptions, type RenderReport, type TemplateLibraries } from './types';
export { TemplateError } from './errors';

export {
  renderString,
  renderFields,
  renderValue,
  referencedParams,
  validateOptions,
  parseError,
  parseErrorWith,
  isTemplateFunction,
  NON_DETERMINISTIC_FUNCTIONS,
  ownCopy,
} from './api';
export type { ParamRef } from './refs';
// Argo CD's SanitizeName, behind the `normalize` template function; the generators name Applications with it.
export { normalize } from './argo';
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
export {
  checkYamlLimits,
  checkYamlLimitsSteps,
  scanYamlLimits,
  withinLimits,
  withinLimitsEach,
  YAML_LIMITS,
  type YamlLimits,
  type YamlLimitHit,
} from './yamlGuard';
/** Per-execution limits (work, steps, output): `setTemplateLimits(false)` lifts them (the CLI's --no-limits). */
export { setTemplateLimits, withTotalBudget, totalBudget, totalSpent, chargeTotal, type TotalBudget } from './budget';
