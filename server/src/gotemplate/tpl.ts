/**
 * Argo CD's `tpl` (3.6, PR #26614: `tplFun` and `withTplFunc` in applicationset/utils/template_functions.go,
 * called from `Render.Replace` in utils.go, at argo-cd `refs/pull/26614/merge`), after Helm's function of
 * the same name: `tpl TEXT DATA` parses TEXT as a template of the calling one (a clone: the same
 * functions, `goTemplateOptions` and `{{define}}`d templates, under the same name) and executes it
 * with DATA as dot. Nested calls share one counter per rendered string: a fourth level fails with
 * "maximum recursion depth 3 exceeded in tpl function". `<no value>` in the result becomes "".
 */
import type { GoFunc } from './funcs';
import { execute, GoExecError, type ExecOptions } from './exec';
import { goQuote } from './format';
import type { GoParseError, Tree } from './parse';
import type { GoValue } from './values';
import { rewrap } from './reason';

/** Argo CD's TPL_FUNC_MAX_RECURSION_DEPTH. */
export const TPL_MAX_DEPTH = 3;

type Parsed = { trees: Map<string, Tree> } | { error: GoParseError };

/** The function map of `exec` with `tpl` bound to it (the map itself is shared and never changed). */
export function withTpl(exec: ExecOptions, parse: (text: string) => Parsed): Map<string, GoFunc> {
  const funcs = new Map(exec.funcs);
  let depth = 0;
  const tpl: GoFunc = {
    params: ['string', 'any'],
    impl: (text, data) => {
      depth++;
      try {
        if (depth > TPL_MAX_DEPTH) throw new Error(`maximum recursion depth ${TPL_MAX_DEPTH} exceeded in tpl function`);
        const t = text as string;
        const parsed = parse(t);
        if ('error' in parsed) throw rewrap(`cannot parse template ${goQuote(t)}: ${parsed.error.message}`, parsed.error);
        // The clone holds the caller's templates; the new text's own replace them by name.
        const trees = new Map(exec.trees);
        for (const [k, v] of parsed.trees) trees.set(k, v);
        let out: string;
        try {
          // Nested: the text's work and steps count against the calling execution's (`exec.shared`
          // is the same object), so a loop of tpl calls cannot multiply the limits.
          out = execute({ ...exec, text: t, trees, funcs, nested: true }, exec.parseName, data as GoValue);
        } catch (e) {
          if (e instanceof GoExecError) throw rewrap(`error during tpl function execution for ${goQuote(t)}: ${e.message}`, e);
          throw e;
        }
        return out.replaceAll('<no value>', '');
      } finally {
        depth--;
      }
    },
  };
  funcs.set('tpl', tpl);
  return funcs;
}
