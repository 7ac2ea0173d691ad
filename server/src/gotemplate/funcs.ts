/**
 * How template functions are declared. The executor checks arguments against `params` the way Go's
 * text/template checks them against a function's signature (`wrong number of args for X: want N got M`,
 * `wrong type for value; expected string; got float64`, `invalid value; expected string`), then calls
 * `impl`. A thrown `Error` becomes `error calling X: <message>` (Go reports both returned errors and
 * recovered panics that way).
 *
 * CONTRACT between the executor (exec.ts) and the function libraries (builtins.ts, sprig/*.ts, argo.ts).
 */
import type { GoValue } from './values';

/**
 * Go parameter types the executor knows how to check and convert:
 * - 'any'      interface{}: anything, including nil; a missing value (`<no value>`) arrives as null.
 * - 'string' | 'bool' | 'float64' | 'int' | 'int64': exact Go kinds (no implicit conversion, as in Go;
 *   untyped template constants convert: `3` fits int/int64/float64, `3.5` fits float64).
 * - 'list'     []interface{}   - 'strings' []string   - 'map' map[string]interface{}
 * - 'time'     time.Time
 * - '*semver.Version' | 'sprig.certificate': a GoOther of exactly that type
 */
export type GoParamType = 'any' | 'string' | 'bool' | 'float64' | 'int' | 'int64' | 'list' | 'strings' | 'map' | 'time' | GoOtherParamType;
export type GoOtherParamType = '*semver.Version' | 'sprig.certificate';

export interface GoFunc {
  params: GoParamType[];
  /** Type of the trailing variadic parameter (`...interface{}` → 'any'). */
  variadic?: GoParamType;
  /** Receives converted arguments; `this` is unbound. */
  impl: (...args: GoValue[]) => GoValue;
  /** Marks functions whose result differs from run to run (now, rand*, uuidv4, genCA, …). */
  nonDeterministic?: boolean;
}

export type FuncMap = Map<string, GoFunc>;

/**
 * A GoFunc from its implementation and Go signature: how every function library declares its functions.
 * `impl` takes the converted arguments, so it may name their types (string, bigint, …) as `params` promise them.
 */
export function goFunc(
  impl: (...args: any[]) => GoValue,
  params: GoParamType[],
  variadic?: GoParamType,
  nonDeterministic?: boolean,
): GoFunc {
  return { params, variadic, impl, nonDeterministic };
}

/** A FuncMap from a table of functions by name (in the table's order). */
export function funcMap(table: Record<string, GoFunc>): FuncMap {
  return new Map(Object.entries(table));
}
