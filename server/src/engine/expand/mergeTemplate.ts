/**
 * Generator-level template overrides (Argo CD `generator_spec_processor.go` mergeGeneratorTemplate,
 * `mergo.Merge(dst=generatorTemplate, src=specTemplate)` without override): the generator's
 * non-zero values win, maps are united (generator wins on conflicts), non-empty slices are kept
 * whole, nested structs merge recursively. A generator template cannot set a bool to false or a
 * string to empty when the spec template sets it.
 */
import { put } from '../generators/params';
import { isObj } from '../objects';

export function mergeTemplate(generator: unknown, spec: unknown): unknown {
  if (generator === undefined || generator === null) return spec;
  if (isObj(generator) && isObj(spec)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(spec)) put(out, k, spec[k]);
    for (const k of Object.keys(generator)) put(out, k, mergeTemplate(generator[k], spec[k]));
    return out;
  }
  if (Array.isArray(generator)) return generator.length ? generator : (spec ?? generator);
  if (isZero(generator) && spec !== undefined) return spec;
  return generator;
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}
