/**
 * The list generator (Argo CD `applicationset/generators/list.go`).
 * goTemplate: each element is the parameter set as-is. fasttemplate: every value must be a string,
 * except `values`, an object of strings flattened to `values.<k>`. `elementsYaml` is appended
 * unchecked in both modes.
 */
import { parseGoYaml, yamlLimitMessage } from '../yaml';
import { put, tagOrigin, type ParamSet } from './params';
import { isObj } from '../objects';
import { capParams, GeneratorError, noteEmpty, SETS_PER_STEP, type Generate, type GenerateSteps } from './types';
import { runSteps } from '../steps';

/** The goTemplate parameter set last made of each list element object (see `element`). */
const copies = new WeakMap<object, ParamSet>();

/**
 * The goTemplate parameter sets of the last lists generated, by the list's place: an element read
 * again (a keystroke before it moved it) is a new object, but when it holds the same keys in the same
 * order with the same values as the element at its index in the last run, that run's parameter set is
 * taken again (its memo key and its renders found by identity, memoKeys.ts paramsKey). The content is
 * always compared, so a list from another document at the same place costs a miss at most.
 */
const lastLists = new Map<string, ParamSet[]>();
const LISTS_KEPT = 16;

/** `p` holds exactly `el`'s own keys in the same order, with the same values (`p` was made as its copy). */
function sameCopy(p: ParamSet, el: Record<string, unknown>): boolean {
  let n = 0;
  const keys = Object.keys(p);
  for (const k in el) {
    if (!Object.hasOwn(el, k)) continue;
    if (keys[n] !== k || p[k] !== el[k]) return false;
    n++;
  }
  return n === keys.length;
}

export const generateList: Generate = (spec, ctx, path) => runSteps(generateListSteps(spec, ctx, path));

/** The list in steps: a hundred elements a step. */
export const generateListSteps: GenerateSteps = function* (spec, ctx, path) {
  const out: ParamSet[] = [];
  const elements = Array.isArray(spec.elements) ? spec.elements : [];
  // Each element's origin is this prefix and its index (its path as an array only for an error).
  const prefix = [...path, 'elements', ''].join('/');
  const at = (i: number) => [...path, 'elements', i];
  const place = `${ctx.file?.path ?? ''}\0${prefix}`;
  const last = ctx.goTemplate && ctx.origins ? lastLists.get(place) : undefined;
  const made: ParamSet[] = [];
  for (let i = 0; i < elements.length; i++) {
    if (i && i % SETS_PER_STEP === 0) yield;
    element(elements[i], i);
  }
  if (ctx.goTemplate && ctx.origins) {
    lastLists.delete(place);
    lastLists.set(place, made);
    if (lastLists.size > LISTS_KEPT) lastLists.delete(lastLists.keys().next().value as string);
  }
  function element(el: unknown, i: number): void {
    const origin = prefix + i;
    // JSON null decodes to a nil map: an empty parameter set (rendering is then skipped).
    if (el === null || el === undefined) {
      out.push(tagOrigin(ctx.origins, {}, origin));
      return;
    }
    if (!isObj(el))
      throw new GeneratorError(
        `error unmarshling list element json: cannot unmarshal ${jsonType(el)} into Go value of type map[string]interface {}`,
        at(i),
      );
    if (ctx.goTemplate) {
      // A copy, so the origin is per element even when the same object appears twice (YAML aliases).
      // The copy an earlier run made of the same element object is taken again unless this run has
      // one already: an edited list's unchanged elements are the objects of its previous reading, and
      // the same parameter set lets the expansion find its render by identity (memoKeys.ts paramsKey).
      // Parameter sets are never modified once made.
      let p = ctx.origins ? copies.get(el) : undefined;
      if (!p || ctx.origins?.has(p)) {
        const before = last?.[i];
        if (before && !ctx.origins?.has(before) && sameCopy(before, el)) p = before;
        else {
          p = {};
          const keys = Object.keys(el);
          for (let j = 0; j < keys.length; j++) put(p, keys[j], el[keys[j]]);
        }
        if (ctx.origins) copies.set(el, p);
      }
      made[i] = p;
      out.push(tagOrigin(ctx.origins, p, origin));
      return;
    }
    const p: ParamSet = {};
    for (const k of Object.keys(el)) {
      const v = el[k];
      if (k === 'values') {
        if (!isObj(v)) throw new GeneratorError('error parsing values map', [...at(i), k]);
        for (const vk of Object.keys(v)) {
          if (typeof v[vk] !== 'string') throw new GeneratorError('error parsing value as string %!w(<nil>)', [...at(i), k, vk]);
          put(p, `values.${vk}`, v[vk]);
        }
      } else if (typeof v !== 'string') {
        throw new GeneratorError('error parsing value as string %!w(<nil>)', [...at(i), k]);
      } else put(p, k, v);
    }
    out.push(tagOrigin(ctx.origins, p, origin));
  }
  if (typeof spec.elementsYaml === 'string' && spec.elementsYaml.trim()) {
    let parsed: unknown;
    const tooBig = yamlLimitMessage(spec.elementsYaml);
    if (tooBig) throw new GeneratorError(`elementsYaml is not read: ${tooBig}`, [...path, 'elementsYaml']);
    try {
      parsed = parseGoYaml(spec.elementsYaml);
    } catch (e) {
      throw new GeneratorError(`error unmarshling decoded ElementsYaml ${(e as Error).message}`, [...path, 'elementsYaml']);
    }
    const decodeError = (what: string, into: string) =>
      new GeneratorError(
        `error unmarshling decoded ElementsYaml error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${what} into Go value of type ${into}`,
        [...path, 'elementsYaml'],
      );
    if (parsed !== null && parsed !== undefined && !Array.isArray(parsed)) throw decodeError(jsonType(parsed), '[]map[string]interface {}');
    const items = Array.isArray(parsed) ? parsed : [];
    items.forEach((el, i) => {
      if (el !== null && el !== undefined && !isObj(el)) throw decodeError(jsonType(el), 'map[string]interface {}');
      const p: ParamSet = {};
      if (isObj(el)) for (const k of Object.keys(el)) put(p, k, el[k]);
      out.push(tagOrigin(ctx.origins, p, `${[...path, 'elementsYaml'].join('/')}/${i}`));
    });
  }
  // Empty as written: nothing to generate by design (the controller reports no error).
  if (!out.length) noteEmpty(ctx, [...path, Array.isArray(spec.elements) ? 'elements' : 'elementsYaml'], 'the list has no elements', true);
  return capParams(out, ctx, path, `the list generator (${out.length} elements)`);
};

/** The JSON type name encoding/json uses in "cannot unmarshal X into Go value" errors. */
function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (isObj(v)) return 'object';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}
