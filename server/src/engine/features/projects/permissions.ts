/**
 * Every generated Application against what its AppProject permits: source repositories (`sourceRepos`,
 * `!` denials) and destinations (server or name, namespace, denials, project-scoped clusters). Argo CD's
 * ApplicationSet controller creates such an Application anyway; the application controller then refuses
 * it (argo-cd `util/argo/argo.go` `ValidatePermissions`), so it never syncs. One finding per place in the
 * template (the `repoURL`, the destination) and project, with the Applications it affects.
 *
 * Checked only where the answer is certain offline: the project is defined once in the repository with
 * literal fields (`validate/projects.ts`), the repository URL normalises plainly, and the destination
 * cluster is known (in-cluster, or a cluster Secret / inventory entry).
 */
import type { AppSetContext } from '../context';
import type { EngineDiagnostic, Json, Span } from '../../types';
import type { GeneratedApp } from '../../expand/types';
import type { ProjectIndex } from '../../validate/projects';
import { finding } from '../../diagnostics/codes';
import { affectedOf, affectedText, relatedOf } from '../../diagnostics/findings';
import { isObject } from '../../generators/params';
import { IN_CLUSTER_SERVER, loadInventory } from '../../generators/inventory';
import { nodeAt, spanAt, type JsonPath } from '../../yaml';
import { isDestinationPermitted, isSourcePermitted, type ProjectRules, type ResolvedCluster } from '../../rules/appProject';

interface Denial {
  /** Where the value is written in the template. */
  path: JsonPath;
  project: string;
  kind: 'repo' | 'destination';
  /** The denied value in Argo CD's words: `https://…` or `server 'prod' and namespace 'apps'`. */
  value: string;
}

/** How many denied values one finding names before "and N more". */
const LISTED_VALUES = 3;

const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

export function permissionFindings(ctx: AppSetContext, index: ProjectIndex): EngineDiagnostic[] {
  const exp = ctx.expansion();
  if (!exp.apps.length) return [];
  const clusters = resolvedClusters(ctx);
  // One finding per place in the template and project; the values it denies listed in it.
  const groups = new Map<string, { denial: Denial; values: Set<string>; apps: GeneratedApp[] }>();
  for (const a of exp.apps) {
    if (a.invalid?.length) continue; // skipped by the ApplicationSet controller: said elsewhere
    const spec = isObject(a.app.spec) ? a.app.spec : {};
    const project = str(spec.project) || 'default';
    const rules = index.projects.get(project)?.rules;
    if (!rules) continue;
    for (const d of denials(spec, project, rules, clusters)) {
      const key = `${d.path.join('/')}\u0000${project}`;
      const g = groups.get(key) ?? { denial: d, values: new Set<string>(), apps: [] };
      g.values.add(d.value);
      g.apps.push(a);
      groups.set(key, g);
    }
  }
  const total = exp.paramSets ?? exp.apps.length;
  const out: EngineDiagnostic[] = [];
  for (const { denial, values, apps } of groups.values()) {
    const affected = affectedOf(apps, total);
    const who =
      apps.length === 1 ? 'this Application is created but never syncs' : `these ${apps.length} Applications are created but never sync`;
    const d = finding(
      'appset/project-denies',
      `${who}: ${argoWords(denial, [...values])} — ${affectedText(affected)}`,
      siteOf(ctx, denial.path),
    );
    d.affected = affected;
    const project = index.projects.get(denial.project);
    // The AppProject first, so an editor's link and the CLI's related line open the rule that decides.
    const related = [
      ...(project?.file ? [{ location: { file: project.file, span: project.span }, message: `AppProject "${denial.project}"` }] : []),
      ...relatedOf(apps),
    ];
    if (related.length) d.related = related;
    out.push(d);
  }
  return out;
}

/** Argo CD's condition message (util/argo/argo.go), naming the first few denied values. */
function argoWords(d: Denial, values: string[]): string {
  const shown =
    values.slice(0, LISTED_VALUES).join(', ') + (values.length > LISTED_VALUES ? ` and ${values.length - LISTED_VALUES} more` : '');
  return d.kind === 'repo'
    ? `application repo ${shown} is not permitted in project '${d.project}'`
    : `application destination ${shown} do not match any of the allowed destinations in project '${d.project}'`;
}

function denials(spec: { [key: string]: Json }, project: string, rules: ProjectRules, clusters: Clusters): Denial[] {
  const out: Denial[] = [];
  const base: JsonPath = ['spec', 'template', 'spec'];
  for (const { repoURL, path } of sourcesOf(spec)) {
    if (!repoURL || isSourcePermitted(rules, repoURL) !== false) continue;
    out.push({ path: [...base, ...path], project, kind: 'repo', value: repoURL });
  }
  const dest = isObject(spec.destination) ? spec.destination : {};
  const name = str(dest.name);
  const server = str(dest.server);
  const namespace = str(dest.namespace);
  const cluster = name ? clusters.byName.get(name) : server ? clusters.byServer.get(server) : undefined;
  if (cluster && !(name && server) && !isDestinationPermitted(rules, project, cluster, namespace, clusters.all)) {
    const shown = name ? cluster.name : cluster.server;
    out.push({ path: [...base, 'destination'], project, kind: 'destination', value: `server '${shown}' and namespace '${namespace}'` });
  }
  return out;
}

/** The sources `ValidatePermissions` checks, with where each `repoURL` sits under the template's spec. */
function sourcesOf(spec: { [key: string]: Json }): { repoURL: string; path: JsonPath }[] {
  if (isObject(spec.sourceHydrator)) {
    const dry = isObject(spec.sourceHydrator.drySource) ? spec.sourceHydrator.drySource : {};
    return [{ repoURL: str(dry.repoURL), path: ['sourceHydrator', 'drySource', 'repoURL'] }];
  }
  if (Array.isArray(spec.sources) && spec.sources.length)
    return spec.sources.map((s, i) => ({ repoURL: isObject(s) ? str(s.repoURL) : '', path: ['sources', i, 'repoURL'] }));
  const src = isObject(spec.source) ? spec.source : {};
  return [{ repoURL: str(src.repoURL), path: ['source', 'repoURL'] }];
}

interface Clusters {
  all: ResolvedCluster[];
  byName: Map<string, ResolvedCluster>;
  byServer: Map<string, ResolvedCluster>;
}

/** The clusters Argo CD knows, as the repository declares them, plus the in-cluster one it always has. */
function resolvedClusters(ctx: AppSetContext): Clusters {
  return ctx.memo('project-clusters', () => {
    const all: ResolvedCluster[] = loadInventory(ctx.file).clusters.map((c) => ({ name: c.name, server: c.server, project: c.project }));
    if (!all.some((c) => c.server === IN_CLUSTER_SERVER)) all.push({ name: 'in-cluster', server: IN_CLUSTER_SERVER, project: '' });
    const byName = new Map<string, ResolvedCluster>();
    const byServer = new Map<string, ResolvedCluster>();
    for (const c of all) {
      if (!byName.has(c.name)) byName.set(c.name, c);
      if (!byServer.has(c.server)) byServer.set(c.server, c);
    }
    return { all, byName, byServer };
  });
}

/** The value where the template writes it, or the template's key when it comes from elsewhere (templatePatch). */
function siteOf(ctx: AppSetContext, path: JsonPath): Span {
  const n = nodeAt(ctx.doc.doc, path);
  if (n.exact && (n.value ?? n.key)) return (n.value ?? n.key)!;
  return spanAt(ctx.doc.doc, ['spec', 'template'], 'key');
}
