/**
 * Interpolating a matrix's second child with a parameter set of the first
 * (Argo CD `InterpolateGenerator` / `Render.RenderGeneratorParams`, `applicationset/utils/utils.go`):
 * every string of the child (including its selector and template) is rendered with the parameters,
 * except `values`, whose entries are pre-rendered with missingkey=error and kept as written when a
 * key is missing, so the child can resolve them against its own parameters. The post-selector is
 * still built from the uninterpolated entry (`generator_spec_processor.go` Transform), which is why
 * only the kind's own spec is replaced here.
 */
import { renderString, renderValue, TemplateError } from '@appset-tools/gotemplate';
import type { JsonPath } from '../yaml';
import { put, type ParamSet } from './params';
import { isObj } from '../objects';
import { GeneratorError, type GenContext } from './types';

const PREFIX = 'failed to replace parameters in generator: ';

export function interpolateChild(
  child: Record<string, unknown>,
  kind: string,
  params: ParamSet,
  ctx: GenContext,
  path: JsonPath,
): Record<string, unknown> {
  const spec = child[kind];
  if (!isObj(spec)) return child;
  const opts = ctx.renderOpts;
  const { values, ...rest } = spec;
  let rendered: Record<string, unknown>;
  try {
    rendered = renderValue(rest, params, opts) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TemplateError) throw new GeneratorError(`${PREFIX}${e.message}`, [...path, kind]);
    throw e;
  }
  if (isObj(values)) {
    const resolveOpts = ctx.goTemplate ? [...ctx.options.filter((o) => !o.startsWith('missingkey=')), 'missingkey=error'] : ctx.options;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(values)) {
      const v = values[k];
      if (typeof v !== 'string') {
        put(out, k, v);
        continue;
      }
      try {
        put(out, k, renderString(v, params, { ...ctx.renderOpts, options: resolveOpts }));
      } catch (e) {
        // isMissingKeyError: the text is kept so the child resolves it against its own params.
        if (e instanceof TemplateError && (e.reason?.kind === 'missing-key' || e.reason?.kind === 'no-field')) put(out, k, v);
        else if (e instanceof TemplateError)
          throw new GeneratorError(`${PREFIX}failed to pre-resolve Values key "${k}": ${e.message}`, [...path, kind, 'values', k]);
        else throw e;
      }
    }
    put(rendered, 'values', out);
  }
  const entry: Record<string, unknown> = {};
  for (const k of Object.keys(child)) put(entry, k, child[k]);
  put(entry, kind, rendered);
  return entry;
}
