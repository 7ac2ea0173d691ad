/**
 * How template functions are declared. The executor checks arguments against `params` the way Go's
 * text/template checks them against a function's signature (`wrong number of args for X: want N got M`,
 * `wrong type for value; expected string; got float64`, `invalid value; expected string`), then calls
 * `impl`. A thrown `Error` becomes `error calling X: <message>` (Go reports both returned errors and
 * recovered panics that way).
 *
 * CONTRACT between the executor (exec.ts) and the function libraries (builtins.ts, sprig/*.ts, argo.ts).
 */
import type { GoFunc, GoParamType, GoValue } from './values';

// The signature types live with the value model (a GoOther's methods are GoFuncs), so that values.ts
// never imports this module back; they are re-exported here for the function libraries.
export type { GoFunc, GoOtherParamType, GoParamType } from './values';

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
