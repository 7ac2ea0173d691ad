/**
 * The early answer for a document (`earlyDiagnosticsSteps`): what an editor can show before the
 * ApplicationSets are expanded, as tsserver sends syntactic diagnostics before semantic ones. It must
 * be a subset of the whole answer that follows for the same text, so that nothing shown early
 * disappears a moment later:
 * - a feature module that asks for the expansion gives nothing early (its context's `expansion()`
 *   throws `NEEDS_EXPANSION`, caught by `unlessExpansion`); it answers in the whole run;
 * - held back: findings the whole answer could drop — those a template finding (only computed with
 *   the expansion) supersedes at the same place (diagnostics/findings.ts `dropSuperseded`: always
 *   inside a template string), those a policy error supersedes (policy/gates.ts `SUPERSEDES`), and
 *   the suppression comments' own findings ("suppresses nothing" is only known once everything is).
 */
import type { AppSetContext } from '../features/context';
import type { EngineDiagnostic, Span } from '../types';
import { astOf, walk } from '../yaml';
import { SUPERSEDES } from '../features/policy/gates';
import type { Analysis } from './analyses';

const NEEDS_EXPANSION: unique symbol = Symbol('the expansion is not computed yet');

/** `ctx` for the early answer: the same memos and target version, but no expansion. */
export function withoutExpansion(ctx: AppSetContext): AppSetContext {
  return {
    ...ctx,
    expansion: () => {
      throw NEEDS_EXPANSION;
    },
  };
}

/** `fn`'s answer, or undefined when it asked for the expansion (see `withoutExpansion`). */
export function unlessExpansion<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    if (e === NEEDS_EXPANSION) return undefined;
    throw e;
  }
}

const SUPERSEDED_BY_POLICY = new Set(Object.values(SUPERSEDES).flat());

/** The early findings that the whole answer keeps as they are (see the file comment). */
export function earlyShown(a: Analysis, findings: EngineDiagnostic[]): EngineDiagnostic[] {
  const templates = templateStrings(a);
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

/** The spans of every string holding `{{` in the file's ApplicationSets, by start. */
function templateStrings(a: Analysis): Span[] {
  const out: Span[] = [];
  for (const ctx of a.appsets)
    walk(astOf(ctx.doc.doc), (n) => {
      if (n.kind === 'scalar' && typeof n.value === 'string' && n.value.includes('{{')) out.push(n.span);
    });
  return out.sort((x, y) => x.start - y.start);
}
