/**
 * One side of a change's impact: the ApplicationSets of one analysed file as `features/impact/diff.ts`
 * compares them (generated Applications, applications-sync policy, registered clusters, rollout plan
 * and timeline, errors). `appset diff` reads both revisions with it, the language server the baseline
 * commit and the editor's state: one reading for both fronts.
 */
import type { LanguageServiceOf } from './languageService';
import type { SideApp, SideAppSet } from '../features/impact/diff';

export interface SideOptions {
  /** The repository root; `file` of each side is the path relative to it. */
  root: string;
  /** The analysed file's path (absolute) and text. */
  path: string;
  text: string;
  /** Keep where things are written (SARIF points at them): the text, spans and permission findings. */
  sites?: boolean;
  /** The side's registered clusters when already known (one workspace per side: the same for every file). */
  clusters?: SideAppSet['clusters'] | null;
}

/** The ApplicationSets of `a` as one side of the comparison. */
export function appSetSides<A>(service: LanguageServiceOf<A>, a: A, o: SideOptions): SideAppSet[] {
  const out: SideAppSet[] = [];
  const denials = o.sites ? service.diagnostics(a).filter((d) => d.code === 'appset/project-denies') : [];
  let clusters = o.clusters;
  for (const x of service.appsets(a)) {
    const at = x.span.start;
    const exp = service.applications(a, at);
    const plan = service.rolloutPlan(a, at, { view: false });
    const policy = service.syncPolicy(a, at);
    if (!exp || !plan || !policy) continue;
    const apps = new Map<string, SideApp>();
    for (const g of exp.apps) if (!apps.has(g.name)) apps.set(g.name, { app: g.app, invalid: !!g.invalid?.length });
    if (clusters === undefined) clusters = service.registeredClusters(a) ?? null;
    const sites = o.sites ? service.rolloutSites(a, at) : null;
    const broken = service.syntaxError(a, at);
    out.push({
      name: x.name,
      namespace: x.namespace,
      file: o.path.startsWith(o.root + '/') ? o.path.slice(o.root.length + 1) : o.path,
      docIndex: x.index,
      apps,
      policy,
      ...(clusters ? { clusters } : {}),
      plan: {
        strategy: plan.strategy,
        effective: !!plan.effective,
        steps: plan.steps.map((s) => ({ step: s.step, selector: s.selector, apps: s.apps, concurrency: s.concurrency, manual: s.manual })),
        unselected: plan.unselected,
        ...(plan.timeline ? { timeline: plan.timeline } : {}),
      },
      errors: exp.problems.filter((p) => p.severity === 'error').map((p) => p.message),
      exact: exp.exact,
      ...(broken ? { broken } : {}),
      ...(sites
        ? {
            sites: {
              text: o.text,
              doc: x.span,
              ...sites,
              denials: denials.filter((d) => d.span.start >= x.span.start && d.span.start <= x.span.end),
            },
          }
        : {}),
    });
  }
  return out;
}
