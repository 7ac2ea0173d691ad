/**
 * `values` on a generator (Argo CD `applicationset/generators/value_interpolation.go`): each value
 * is rendered against the generator's own parameters (not against other values); fasttemplate mode
 * adds `values.<k>` keys, goTemplate mode a `values` map (Go map[string]string) that replaces any
 * existing `values` key. Callers wrap errors with their own context, as the Go callers do.
 */
import { renderFields, renderString, TemplateError, GoStringMap } from '@appset-tools/gotemplate';
import type { JsonPath } from '../yaml';
import { put, tagOrigin, type ParamSet } from './params';
import { isObj } from '../objects';
import { GeneratorError, type GenContext } from './types';

export function appendValues(p: ParamSet, values: unknown, ctx: GenContext, path: JsonPath): ParamSet {
  if (!isObj(values) || Object.keys(values).length === 0) return p;
  const out: ParamSet = {};
  for (const k of Object.keys(p)) put(out, k, p[k]);
  tagOrigin(ctx.origins, out, p);
  const rendered = new GoStringMap();
  for (const k of Object.keys(values).sort()) {
    const raw = values[k];
    const tmpl = typeof raw === 'string' ? raw : String(raw ?? '');
    let v: string;
    try {
      // A value of text and `{{ .key }}` fields (nearly every one: `svc-0`, `{{ .name }}`) is rendered from
      // the parameter set itself; renderString makes the Go values of the whole set for each value.
      v = renderFields(tmpl, p, ctx.renderOpts) ?? renderString(tmpl, p, ctx.renderOpts);
    } catch (e) {
      if (e instanceof TemplateError)
        throw new GeneratorError(
          `failed to replace templated string: failed to replace templated string with rendered values: ${e.message}`,
          [...path, 'values', k],
        );
      throw e;
    }
    if (ctx.goTemplate) rendered.set(k, v);
    else put(out, `values.${k}`, v);
  }
  if (ctx.goTemplate) put(out, 'values', rendered);
  return out;
}
