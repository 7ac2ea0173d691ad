/**
 * Compiled schema validators, by schema name (the file name in `schemas/` without `.schema.json`).
 *
 * Compiling the ApplicationSet schema with ajv takes 150–250 ms, which would sit in front of the
 * first diagnostics. So the bundles never compile at run time: `esbuild.js` replaces this module
 * with code ajv generates at build time for every `schemas/*.schema.json` (ajv standalone code,
 * see `schemaValidatorsPlugin`), and ajv's compiler is not even in the bundles. Run from source
 * (unit tests, scripts) this module compiles on first use instead, with the same options.
 */
import Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import options from './ajvOptions.json';

const compiled = new Map<string, ValidateFunction>();

/** The validator of schema `name`; `schema` is its JSON (used only when compiling from source). */
export function getValidator(name: string, schema: object): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    v = new Ajv2020({ ...options }).compile(structuredClone(schema));
    compiled.set(name, v);
  }
  return v;
}
