/**
 * The findings of an ApplicationSet whose answer needs the workspace while the language server still
 * reads it (its expansion or its findings read cluster data: generators/inventory.ts `held`): only what
 * needs no generated Application is shown now — YAML syntax, the schema, every check of what is written —,
 * and the rest follows when the workspace has been read (the index's `settle()` then asks for a
 * re-validation). What is shown now must be a subset of that later answer, so that nothing shown
 * disappears a moment later:
 * - a feature module that asks for the expansion gives nothing now (its context's `expansion()` throws
 *   `NEEDS_WORKSPACE`, caught by `unlessExpansion`);
 * - held back too: findings the later answer could drop — those a template finding (only computed with
 *   the expansion) supersedes at the same place (diagnostics/findings.ts `dropSuperseded`: always inside a
 *   template string), those a policy error supersedes (policy/gates.ts `SUPERSEDES`), and the suppression
 *   comments' own findings ("suppresses nothing" is only known once everything is).
 */
import type { AppSetContext } from '../features/context';
import type { EngineDiagnostic, Span } from '../types';
import { astOf, walk } from '../yaml';
import { SUPERSEDES } from '../features/policy/gates';

const NEEDS_WORKSPACE: unique symbol = Symbol('the expansion waits for the workspace');

/** `ctx` whose expansion is not asked for (see the file comment). */
export function withoutExpansion(ctx: AppSetContext): AppSetContext {
  return {
    ...ctx,
    expansion: () => {
      throw NEEDS_WORKSPACE;
    },
  };
}

/** `fn`'s answer, or undefined when it asked for the expansion (see `withoutExpansion`). */
export function unlessExpansion<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e === NEEDS_WORKSPACE) return undefined;
    throw e;
  }
}

const SUPERSEDED_BY_POLICY = new Set(Object.values(SUPERSEDES).flat());

/** The findings of a held ApplicationSet that its whole answer keeps as they are (see the file comment). */
export function heldShown(ctx: AppSetContext, findings: EngineDiagnostic[]): EngineDiagnostic[] {
  const templates = templateStrings(ctx);
  // Overlap, as dropSuperseded measures it. Scalars do not overlap, so sorted by start the strings are
  // sorted by end too: the last one starting before the finding ends is the one that can reach into it.
  const inTemplate = (s: Span) => {
    const end = Math.max(s.end, s.start + 1);
    let lo = 0;
    let hi = templates.length - 1;
    let last = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (templates[mid].start < end) {
        last = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return last >= 0 && templates[last].end > s.start;
  };
  return findings.filter((d) => d.code !== 'config/suppression' && !SUPERSEDED_BY_POLICY.has(d.code) && !inTemplate(d.span));
}

/** The spans of every string holding `{{` in the ApplicationSet, by start. */
function templateStrings(ctx: AppSetContext): Span[] {
  const out: Span[] = [];
  walk(astOf(ctx.doc.doc), (n) => {
    if (n.kind === 'scalar' && typeof n.value === 'string' && n.value.includes('{{')) out.push(n.span);
  });
  return out.sort((x, y) => x.start - y.start);
}
