/**
 * Quick fixes for a post-selector that keeps no parameter set (`generator/empty` with `postSelector`
 * data from generators/postSelectorWhy.ts): use the value the parameter sets have that is nearest to
 * the one written (a typo), or remove the selector (keeps them all).
 */
import type { AppSetContext } from '../context';
import type { CodeAction, EngineDiagnostic } from '../../types';
import type { PostSelectorFix } from '../../generators/postSelectorWhy';
import { removePair, yamlString } from '../../yaml';
import { fieldsOf } from '../../fields/appset';
import { inGenerators } from '../../fields/generatorFields';
import { quickFix } from '../quickFix';

const sets = (n: number) => (n === 1 ? '1 parameter set' : `${n} parameter sets`);

export function emptySelectorFixes(ctx: AppSetContext, diagnostics: EngineDiagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  for (const d of diagnostics) {
    const fix = d.code === 'generator/empty' ? (d.data as { postSelector?: PostSelectorFix } | undefined)?.postSelector : undefined;
    if (!fix) continue;
    if (fix.replace) {
      // The label's place, walked from its generator entry's field in the located fields (the fix's data carries
      // the path the generator named).
      const span = inGenerators(fieldsOf(ctx.doc).generatorList, fix.replace.path)?.span ?? { start: 0, end: 0 };
      if (span.end > span.start)
        out.push(
          quickFix(
            `Use ${fix.replace.key}: ${fix.replace.value} (keeps ${fix.replace.keeps} of the ${sets(fix.total)})`,
            [d],
            [{ file: ctx.file.uri, span, newText: yamlString(fix.replace.value) }],
            true,
          ),
        );
    }
    const remove = removePair(ctx.file.text, ctx.doc.doc, fix.selector);
    if (remove)
      out.push(quickFix(`Remove the selector (keeps all ${sets(fix.total)})`, [d], [{ file: ctx.file.uri, ...remove }], !fix.replace));
  }
  return out;
}
