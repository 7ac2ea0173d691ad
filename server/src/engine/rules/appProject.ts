/**
 * What an AppProject permits, as Argo CD decides it (argo-cd `pkg/apis/application/v1alpha1/
 * app_project_types.go`: `IsSourcePermitted`, `isDestinationMatched`, `IsDestinationPermitted`; the
 * repository URLs compared through `util/git` `NormalizeGitURL`). An Application the project does not
 * permit is created by the ApplicationSet controller, then refused by the application controller
 * (`util/argo/argo.go` `ValidatePermissions`: an InvalidSpecError condition), so it never syncs.
 *
 * Every answer is `true`, `false` or `undefined` (cannot be known offline); only `false` is reported.
 */
import { globMatch, gobwasMatch } from './gobwasGlob';

export interface ProjectDestination {
  server: string;
  name: string;
  namespace: string;
}

/** The permission fields of one AppProject's spec, as written. */
export interface ProjectRules {
  sourceRepos: string[];
  destinations: ProjectDestination[];
  permitOnlyProjectScopedClusters: boolean;
  /** Namespaces outside Argo CD's own whose Applications may use the project (`sourceNamespaces`). */
  sourceNamespaces: string[];
}

/** A destination cluster as Argo CD resolves it (its registered name and server). */
export interface ResolvedCluster {
  name: string;
  server: string;
  /** The project a cluster Secret is scoped to (`project` field), '' for none. */
  project: string;
}

// A URL whose normalisation depends on Go's net/url escaping rules (escapes, spaces, queries,
// fragments, backslashes) is not compared offline.
const UNCERTAIN_URL = /[%\s#?\\]/;
const SSH_URL = /^(ssh:\/\/)?([^/:]*?)@[^@]+$/;

/** `NormalizeGitURL` for the URLs it leaves as they are apart from case, `.git` and the SSH form. */
export function normalizeGitURL(repo: string): string | undefined {
  let r = repo.trim().toLowerCase();
  if (UNCERTAIN_URL.test(r)) return undefined;
  if (SSH_URL.test(r) && !r.startsWith('ssh://')) r = 'ssh://' + r.replace(':', '/');
  if (r.endsWith('.git')) r = r.slice(0, -4);
  return r.startsWith('ssh://') ? r.slice('ssh://'.length) : r;
}

const isDeny = (p: string) => p.startsWith('!');

/** `IsSourcePermitted`: any pattern matches and no deny pattern excludes the repository. */
export function isSourcePermitted(rules: ProjectRules, repoURL: string): boolean | undefined {
  const src = normalizeGitURL(repoURL);
  if (src === undefined) return undefined;
  let any = false;
  for (const raw of rules.sourceRepos) {
    const base = normalizeGitURL(isDeny(raw) ? raw.slice(1) : raw);
    if (base === undefined) return undefined;
    const pattern = isDeny(raw) ? '!' + base : base;
    const matched = globMatch(pattern, src, true, '/');
    if (matched) any = true;
    else if (isDeny(pattern)) return false;
  }
  return any;
}

/** `isDestinationMatched` (the operator precedence of the Go code kept: `a || (b && c)`). */
function isDestinationMatched(rules: ProjectRules, dst: ProjectDestination): boolean {
  let any = false;
  for (const item of rules.destinations) {
    const nameMatched = dst.name !== '' && globMatch(item.name, dst.name, true);
    const serverMatched = dst.server !== '' && globMatch(item.server, dst.server, true);
    const nsMatched = globMatch(item.namespace, dst.namespace, true);
    if ((serverMatched || nameMatched) && nsMatched) any = true;
    else if ((!nameMatched && isDeny(item.name)) || (!serverMatched && isDeny(item.server) && nsMatched)) return false;
    else if (!nsMatched && isDeny(item.namespace) && serverMatched) return false;
  }
  return any;
}

/**
 * `IsDestinationPermitted` for a cluster resolved from the repository's inventory. `scoped` lists the
 * clusters whose Secrets are scoped to this project (`permitOnlyProjectScopedClusters`).
 */
export function isDestinationPermitted(
  rules: ProjectRules,
  project: string,
  cluster: ResolvedCluster,
  namespace: string,
  clusters: readonly ResolvedCluster[],
): boolean {
  const dst = { server: cluster.server, name: cluster.name, namespace };
  const matched = isDestinationMatched(rules, dst);
  if (!matched || !rules.permitOnlyProjectScopedClusters) return matched;
  return clusters.some((c) => c.project === project && (c.name === dst.name || c.server === dst.server));
}

/**
 * `IsAppNamespacePermitted` (app_project_types.go): an Application in the Argo CD namespace may use
 * any project; one elsewhere only a project whose `sourceNamespaces` matches its namespace
 * (`util/glob` `MatchStringInList` with REGEXP: a `/…/` entry is a Go regular expression, any other a
 * gobwas glob). A regular expression that does not settle it leaves the answer unknown.
 */
export function isAppNamespacePermitted(rules: ProjectRules, appNamespace: string, argocdNamespace: string): boolean | undefined {
  if (appNamespace === '' || appNamespace === argocdNamespace) return true;
  let regexp = false;
  for (const entry of rules.sourceNamespaces) {
    if (entry.length > 1 && entry.startsWith('/') && entry.endsWith('/')) regexp = true;
    else if (gobwasMatch(entry, appNamespace)) return true;
  }
  return regexp ? undefined : false;
}
