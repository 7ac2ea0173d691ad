/**
 * Every generated Application against what its AppProject permits: source repositories (`sourceRepos`,
 * `!` denials) and destinations (server or name, namespace, denials, project-scoped clusters). Argo CD's
 * ApplicationSet controller creates such an Application anyway; the application controller then refuses
 * it (argo-cd `util/argo/argo.go` `ValidatePermissions`), so it never syncs. One finding per place in the
 * template (the `repoURL`, the destination) and project, with the Applications it affects.
 *
 * An ApplicationSet outside Argo CD's namespace (ApplicationSets in any namespace) makes its Applications
 * there; the project must list that namespace in `sourceNamespaces` (`IsAppNamespacePermitted`).
 *
 * Checked only where the answer is certain offline: the project is defined once in the repository with
 * literal fields (`validate/projects.ts`), the repository URL normalises plainly, and the destination
 * cluster is known (in-cluster, or a cluster Secret / inventory entry).
 *
 * The `appset/` prefix's home (codeLists/homes.ts) holds these rules; the generated Applications come
 * from the expansion, a floor above, through the small `ProjectsOf` (validate/projects.ts), which the
 * features' context satisfies as it is (features/projects/contributor.ts hands it over).
 */
import type { EngineDiagnostic, Json, Span } from '../types';
import { NO_PROJECTS, STILL_READING, type ProjectApp, type ProjectIndex, type ProjectsOf } from './projects';
import { finding } from '../diagnostics/codes';
import { affectedOf, affectedText, relatedOf } from '../diagnostics/findings';
import { isObj } from '../objects';
import { knownClusters, type KnownClusters } from '../generators/inventory';
import type { JsonPath } from '../yaml';
import { fieldsOf, type AppSetFields } from '../fields/appset';
import { sub, type Field } from '../fields/place';
import { isAppNamespacePermitted, isDestinationPermitted, isSourcePermitted, type ProjectRules } from '../rules/appProject';
import { governingFor, installModel } from '../install/model';

interface Denial {
  /** Where the value is written in the template (the finding's group). */
  path: JsonPath;
  /** That field of the template, from the located fields (absent there when templatePatch or a generator sets it). */
  at: Field;
  project: string;
  kind: 'repo' | 'destination' | 'namespace';
  /** The denied value in Argo CD's words: `https://…` or `server 'prod' and namespace 'apps'`. */
  value: string;
  /** For `namespace`: the Applications' namespace and Argo CD's. */
  namespace?: string;
  argocd?: string;
}

/** How many denied values one finding names before "and N more". */
const LISTED_VALUES = 3;

const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

export function permissionFindings(ctx: ProjectsOf, index: ProjectIndex): EngineDiagnostic[] {
  const exp = ctx.expansion();
  if (!exp.apps.length) return [];
  const clusters = knownClusters(ctx.file);
  const argocdNs = argocdNamespace(ctx);
  const view = fieldsOf(ctx.doc);
  // One finding per place in the template and project; the values it denies listed in it.
  const groups = new Map<string, { denial: Denial; values: Set<string>; apps: ProjectApp[] }>();
  for (const a of exp.apps) {
    if (a.invalid?.length) continue; // skipped by the ApplicationSet controller: said elsewhere
    const spec = isObj(a.app.spec) ? a.app.spec : {};
    const project = str(spec.project) || 'default';
    const rules = index.projects.get(project)?.rules;
    if (!rules) continue;
    const found = denials(spec, project, rules, clusters, view);
    // Applications live in the ApplicationSet's namespace (expand.ts); outside Argo CD's own, the
    // project must list it in sourceNamespaces or the application controller refuses the Application
    // (controller/appcontroller.go getAppProj → AppProject.IsAppNamespacePermitted).
    const ns = ctx.doc.namespace;
    if (argocdNs && ns && isAppNamespacePermitted(rules, ns, argocdNs) === false)
      found.push({
        path: ['spec', 'template', 'spec', 'project'],
        at: view.templateProject,
        project,
        kind: 'namespace',
        value: `'${a.name}'`,
        namespace: ns,
        argocd: argocdNs,
      });
    for (const d of found) {
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
      siteOf(view, denial.at),
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

/**
 * What the denial means, in words that contain the phrase Argo CD writes in the Application's condition, so
 * a user can match the two: for the namespace, "is not permitted to use project" (util/argo/argo.go
 * ErrProjectNotPermitted); for sources and destinations, the phrases of `ValidatePermissions`. Names the
 * first few denied values.
 */
function argoWords(d: Denial, values: string[]): string {
  const shown =
    values.slice(0, LISTED_VALUES).join(', ') + (values.length > LISTED_VALUES ? ` and ${values.length - LISTED_VALUES} more` : '');
  if (d.kind === 'namespace')
    return `Argo CD marks ${shown} in namespace '${d.namespace}' with the condition "… is not permitted to use project '${d.project}'": the project's sourceNamespaces does not list ${d.namespace}, and Argo CD runs in ${d.argocd}`;
  return d.kind === 'repo'
    ? `application repo ${shown} is not permitted in project '${d.project}'`
    : `application destination ${shown} do not match any of the allowed destinations in project '${d.project}'`;
}

/**
 * The namespace Argo CD runs in, as the install model says for the install that runs this
 * ApplicationSet; undefined when no install (or installs that disagree) says it.
 */
function argocdNamespace(ctx: ProjectsOf): string | undefined {
  const file = ctx.file;
  const gov = governingFor(installModel(file), file, { path: file.path ?? '', namespace: ctx.doc.namespace || undefined });
  const namespaces = new Set(gov.installs.map((i) => i.namespace ?? ''));
  const [only] = namespaces;
  return namespaces.size === 1 && only ? only : undefined;
}

function denials(
  spec: { [key: string]: Json },
  project: string,
  rules: ProjectRules,
  clusters: KnownClusters,
  view: AppSetFields,
): Denial[] {
  const out: Denial[] = [];
  const base: JsonPath = ['spec', 'template', 'spec'];
  for (const { repoURL, path, at } of sourcesOf(spec, view.templateSpec)) {
    if (!repoURL || isSourcePermitted(rules, repoURL) !== false) continue;
    out.push({ path: [...base, ...path], at, project, kind: 'repo', value: repoURL });
  }
  const dest = isObj(spec.destination) ? spec.destination : {};
  const name = str(dest.name);
  const server = str(dest.server);
  const namespace = str(dest.namespace);
  const cluster = name ? clusters.byName.get(name) : server ? clusters.byServer.get(server) : undefined;
  if (cluster && !(name && server) && !isDestinationPermitted(rules, project, cluster, namespace, clusters.all)) {
    const shown = name ? cluster.name : cluster.server;
    out.push({
      path: [...base, 'destination'],
      at: view.templateDestination,
      project,
      kind: 'destination',
      value: `server '${shown}' and namespace '${namespace}'`,
    });
  }
  return out;
}

/** The sources `ValidatePermissions` checks, with where each `repoURL` sits under the template's spec. */
function sourcesOf(spec: { [key: string]: Json }, template: Field): { repoURL: string; path: JsonPath; at: Field }[] {
  if (isObj(spec.sourceHydrator)) {
    const dry = isObj(spec.sourceHydrator.drySource) ? spec.sourceHydrator.drySource : {};
    const at = sub(sub(sub(template, 'sourceHydrator'), 'drySource'), 'repoURL');
    return [{ repoURL: str(dry.repoURL), path: ['sourceHydrator', 'drySource', 'repoURL'], at }];
  }
  if (Array.isArray(spec.sources) && spec.sources.length) {
    const sources = sub(template, 'sources');
    return spec.sources.map((s, i) => ({
      repoURL: isObj(s) ? str(s.repoURL) : '',
      path: ['sources', i, 'repoURL'],
      at: sub(sub(sources, i), 'repoURL'),
    }));
  }
  const src = isObj(spec.source) ? spec.source : {};
  return [{ repoURL: str(src.repoURL), path: ['source', 'repoURL'], at: sub(sub(template, 'source'), 'repoURL') }];
}

/** The value where the template writes it, or the template's key when it comes from elsewhere (templatePatch). */
function siteOf(view: AppSetFields, at: Field): Span {
  return (at.exact ? (at.valueRange ?? at.keyRange) : undefined) ?? view.template.keySpan;
}

/**
 * Said instead of silence: the Applications whose project the repository does not define (or defines
 * in a way that cannot be read offline), so `permissionFindings` could not hold them against it. One
 * finding on the template's project, naming the projects, why each is not checked, and the
 * Applications. `default` is left out when the repository does not define it: Argo CD creates it
 * permitting every repository and destination. Nothing is said while the language server is still
 * reading the workspace.
 */
export function notChecked(ctx: ProjectsOf, index: ProjectIndex): EngineDiagnostic[] {
  if (index.uncertain === STILL_READING) return [];
  const exp = ctx.expansion();
  const why = new Map<string, string>();
  const apps: ProjectApp[] = [];
  for (const a of exp.apps) {
    if (a.invalid?.length) continue;
    const spec = isObj(a.app.spec) ? a.app.spec : {};
    const project = str(spec.project) || 'default';
    const known = index.projects.get(project);
    if (known?.rules) continue;
    if (known?.file) why.set(project, 'defined in more than one place or with a field that is not literal');
    else if (project === 'default') continue;
    else if (index.uncertain === NO_PROJECTS) why.set(project, `not in the repository (${NO_PROJECTS})`);
    else if (index.uncertain) why.set(project, `not among the AppProjects read offline (${index.uncertain})`);
    else continue; // an unknown project: appset/unknown-project says it
    apps.push(a);
  }
  if (!apps.length) return [];
  const projects = [...why.keys()];
  const reasons = new Map<string, string[]>();
  for (const [p, w] of why) reasons.set(w, [...(reasons.get(w) ?? []), p]);
  const said = [...reasons].map(
    ([w, ps]) =>
      `${ps.length === 1 ? 'AppProject' : 'AppProjects'} ${ps.map((p) => `"${p}"`).join(', ')} ${ps.length === 1 ? 'is' : 'are'} ${w}`,
  );
  const affected = affectedOf(apps, exp.paramSets ?? exp.apps.length);
  const d = finding(
    'appset/project-not-checked',
    `not checked: whether ${projects.length === 1 ? `project ${projects[0]} permits` : `projects ${projects.join(', ')} permit`} ${apps.length === 1 ? "this Application's" : `these ${apps.length} Applications'`} source repositories, destinations and namespace — ${said.join('; ')} — ${affectedText(affected)}`,
    siteOf(fieldsOf(ctx.doc), fieldsOf(ctx.doc).templateProject),
  );
  d.affected = affected;
  return [d];
}
