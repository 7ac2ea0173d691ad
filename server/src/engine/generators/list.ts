/**
 * The list generator (Argo CD `applicationset/generators/list.go`).
 * goTemplate: each element is the parameter set as-is. fasttemplate: every value must be a string,
 * except `values`, an object of strings flattened to `values.<k>`. `elementsYaml` is appended
 * unchecked in both modes.
 */
import * as YAML from 'yaml';
import { isObject, put, tagOrigin, type ParamSet } from './params';
import { capParams, GeneratorError, type Generate } from './types';

export const generateList: Generate = (spec, ctx, path) => {
  const out: ParamSet[] = [];
  const elements = Array.isArray(spec.elements) ? spec.elements : [];
  elements.forEach((el, i) => {
    const at = [...path, 'elements', i];
    if (!isObject(el)) throw new GeneratorError(`error unmarshling list element json: cannot unmarshal ${Array.isArray(el) ? 'array' : el === null ? 'null' : typeof el} into Go value of type map[string]interface {}`, at);
    const origin = at.join('/');
    if (ctx.goTemplate) {
      // A copy, so the origin is per element even when the same object appears twice (YAML aliases).
      const p: ParamSet = {};
      for (const k of Object.keys(el)) put(p, k, el[k]);
      out.push(tagOrigin(ctx.origins, p, origin));
      return;
    }
    const p: ParamSet = {};
    for (const k of Object.keys(el)) {
      const v = el[k];
      if (k === 'values') {
        if (!isObject(v)) throw new GeneratorError('error parsing values map', [...at, k]);
        for (const vk of Object.keys(v)) {
          if (typeof v[vk] !== 'string') throw new GeneratorError('error parsing value as string %!w(<nil>)', [...at, k, vk]);
          put(p, `values.${vk}`, v[vk]);
        }
      } else if (typeof v !== 'string') {
        throw new GeneratorError('error parsing value as string %!w(<nil>)', [...at, k]);
      } else put(p, k, v);
    }
    out.push(tagOrigin(ctx.origins, p, origin));
  });
  if (typeof spec.elementsYaml === 'string' && spec.elementsYaml.trim()) {
    let parsed: unknown;
    try {
      parsed = YAML.parse(spec.elementsYaml, { version: '1.1', maxAliasCount: 100 });
    } catch (e) {
      throw new GeneratorError(`error unmarshling decoded ElementsYaml ${(e as Error).message.split('\n')[0]}`, [...path, 'elementsYaml']);
    }
    if (parsed !== null && !Array.isArray(parsed)) throw new GeneratorError('error unmarshling decoded ElementsYaml error unmarshaling JSON: json: cannot unmarshal object into Go value of type []map[string]interface {}', [...path, 'elementsYaml']);
    for (const el of (parsed as unknown[]) ?? []) {
      if (!isObject(el)) throw new GeneratorError('error unmarshling decoded ElementsYaml: element is not an object', [...path, 'elementsYaml']);
      out.push(el);
    }
  }
  return capParams(out, ctx, path, `the list generator (${out.length} elements)`);
};
