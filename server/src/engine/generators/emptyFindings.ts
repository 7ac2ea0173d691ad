/**
 * The rules of `generator/empty` and of the preview's cap (`generator/too-many-applications`) that only
 * the expansion can apply: why a generator is empty is known once it has run, and whether its siblings
 * yield once they all have. The expansion (expand/expand.ts, a floor above) runs the generators and
 * hands over what they left (`EmptyContext`, the generators' summaries, the cap); the codes, their words
 * and the decisions live here, in the `generator/` prefix's home (codeLists/homes.ts).
 */
import type { EngineDiagnostic, Span } from '../types';
import type { JsonPath } from '../yaml';
import type { Field } from '../fields/place';
import { finding, severityOf } from '../diagnostics/codes';
import type { GenContext } from './types';

/** What a generator's run left about emptiness: the notes it added to, and why each generator was empty. */
export type EmptyContext = Pick<GenContext, 'notes' | 'empties'>;

/** A finding's `data` when there is any (a finding without it has no `data` key at all). */
function dataOf(data: unknown): { data?: unknown } {
  return data === undefined ? {} : { data };
}

/**
 * "Why is this empty?": a top-level generator that yields nothing gets one finding at the innermost
 * place that explains it (the selector that matched 0 of 6 known clusters, the git pattern that
 * matched no directory, the empty list), and a note for the preview and the lens's hover.
 */
export function whyEmpty(ctx: EmptyContext, gpath: JsonPath, kind: string, placeOf: (p: JsonPath) => Field) {
  // The entry's own post-selector (`spec/generators/0/selector`) counts too.
  const prefix = gpath.join('/') + '/';
  const mine = (ctx.empties ?? []).filter((e) => e.path.join('/').startsWith(prefix));
  const n = Number(gpath[2]) + 1;
  const consequence = `generator ${n} (${kind}) produces 0 Applications`;
  if (!mine.length) {
    const path = [...gpath, kind];
    ctx.notes.add(`${consequence}: it yields no parameter sets`);
    return [
      finding('generator/empty', `${consequence}: the ${kind} generator yields no parameter sets`, placeOf(path).keySpan, {
        path,
        variant: true,
      }),
    ];
  }
  // The innermost places: a matrix is empty because its child is.
  const innermost = mine.filter(
    (e) => !mine.some((o) => o !== e && o.path.length > e.path.length && o.path.join('/').startsWith(e.path.join('/') + '/')),
  );
  const out: (EngineDiagnostic & { path: JsonPath; data?: unknown })[] = [];
  for (const e of innermost) {
    ctx.notes.add(`${consequence}: ${e.reason}`);
    if (e.covered) continue;
    // The consequence first, then why (a matrix or merge child's reason is why the whole generator is empty).
    out.push(
      finding('generator/empty', `${consequence}: ${e.reason}`, placeOf(e.path).keySpan, {
        path: e.path,
        ...dataOf(e.data),
        variant: e.noData,
      }),
    );
  }
  return out;
}

/**
 * A generator empty beside siblings that yield is information, not a warning: Argo CD concatenates the
 * top-level generators' parameter sets (applicationset_controller.go generateApplications, one
 * generator after another), and a git files pattern matching nothing, or a selector for clusters still
 * to come, yields no parameters and no error (generators/git.go, cluster.go): the ApplicationSet works.
 * Only an ApplicationSet that generates nothing as a whole keeps the warning. Rewrites `problems` in place.
 */
export function besideYieldingSiblings<P extends EngineDiagnostic>(
  problems: P[],
  generators: readonly { index: number; kind: string; paramSets?: number }[],
): void {
  const yielding = generators.filter((g) => (g.paramSets ?? 0) > 0);
  if (!yielding.length) return;
  const others = yielding.map((g) => `generator ${g.index + 1} (${g.kind}) yields ${g.paramSets}`).join(', ');
  for (let i = 0; i < problems.length; i++) {
    const p = problems[i];
    if (p.code !== 'generator/empty' || p.severity === severityOf('generator/empty', true)) continue;
    const { code, severity: _registered, message, span: _at, ...rest } = p;
    problems[i] = finding(code, `${message} (${others}: the ApplicationSet still generates Applications, so this may be by design)`, p, {
      ...rest,
      variant: true,
    }) as unknown as P;
  }
}

/** The preview stopped at `max` Applications (appsetTools.maxApplications): said on `spec.generators`. */
export function previewStopped(max: number, generators: Span) {
  return finding(
    'generator/too-many-applications',
    `the preview stopped after ${max} Applications (appsetTools.maxApplications); the ApplicationSet generates more`,
    generators,
    { path: ['spec', 'generators'] },
  );
}
