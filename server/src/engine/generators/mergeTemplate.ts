/**
 * Generator-level template overrides (Argo CD `generator_spec_processor.go` mergeGeneratorTemplate,
 * `mergo.Merge(dst=generatorTemplate, src=specTemplate)` without override): the generator's
 * non-zero values win, maps are united (generator wins on conflicts), non-empty slices are kept
 * whole, nested structs merge recursively. A generator template cannot set a bool to false or a
 * string to empty when the spec template sets it.
 */
import { put } from './params';
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

/**
 * Whether the ApplicationSet's template still decides the field at `path` (below `template`) once a
 * generator's own template is merged over it, by the same rule as `mergeTemplate`: the generator's
 * non-zero scalar or non-empty list at the path, or at a field above it, wins, and the spec's text there
 * is never rendered for that generator's parameter sets.
 */
export function specTemplateDecides(generator: unknown, path: readonly (string | number)[]): boolean {
  let g = generator;
  for (const seg of path) {
    if (g === undefined || g === null) return true;
    if (Array.isArray(g)) return g.length === 0;
    if (!isObj(g)) return isZero(g);
    g = g[String(seg)];
  }
  if (g === undefined || g === null) return true;
  if (Array.isArray(g)) return g.length === 0;
  if (isObj(g)) return false; // a map where the spec writes a scalar: the generator's value is kept
  return isZero(g);
}
