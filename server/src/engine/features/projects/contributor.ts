/**
 * The project rules (validate/unknownProject.ts, validate/projectPermissions.ts: the `appset/` prefix's
 * home) run with this ApplicationSet's context, which carries the expansion they need; the quick fix
 * of an unknown project (a near miss) is made here.
 */
import type { FeatureContributor } from '../context';
import { projectFindings } from '../../validate/unknownProject';
import { fixesOf, quickFix } from '../quickFix';

export const projectsContributor: FeatureContributor = {
  name: 'projects',

  diagnostics: (ctx) => projectFindings(ctx),

  codeActions: (ctx, _span, diagnostics) =>
    fixesOf(diagnostics, 'appset/unknown-project', (d) => {
      const to = (d.data as { replacement?: string } | undefined)?.replacement;
      // The finding lies on the project value it is about (the main template's or a generator's own).
      const written = ctx.file.text.slice(d.span.start, d.span.end);
      if (!to || written.includes('{{') || !/^["']?[^\s:{}]+["']?$/.test(written)) return undefined;
      return quickFix(`Use project "${to}"`, [d], [{ file: ctx.file.uri, span: d.span, newText: to }], true);
    }),
};
