/**
 * The AppProjects a repository defines: `kind: AppProject` resources, and entries of the argocd-apps
 * chart's `projects` values (chart 2.x: a map keyed by name; 1.x: a list with `name`), each with
 * where it is written. `default` always exists: Argo CD creates it (`util/db` / `server/project`
 * `EnsureDefaultProject`), so it is never "unknown".
 *
 * The controller skips a generated Application whose project does not exist (argo-cd
 * `applicationset/controllers/applicationset_controller.go` `validateGeneratedApplications`:
 * "application references project … which does not exist"). Offline, that is only checkable when the
 * repository keeps its AppProjects: the check runs when it finds at least one and none it cannot read
 * (a Helm template or a templated name means the full list is unknown, so nothing is claimed). An
 * AppProject in a documentation folder (`docs/`) is an example for readers, not a project of the
 * repository's Argo CD, and is not counted.
 */
import type { SourceText } from '../inputs';
import type { Json, Source, Span } from '../types';
import type { AppSetDoc } from '../kinds';
import { APP_PROJECTS } from '../workspace/interests';
import type { ProjectRules } from '../rules/appProject';
import { isObj } from '../objects';
import { workspaceRelative } from '../paths';

export interface KnownProject {
  name: string;
  file: string;
  span?: Span;
  /**
   * What it permits, when that is certain offline: every field literal, and the project defined once
   * (a name defined in several places, e.g. one per environment, leaves it unknown).
   */
  rules?: ProjectRules;
}

export interface ProjectIndex {
  /** Projects by name (`default` included, with no file). */
  projects: Map<string, KnownProject>;
  /** Why the list may be incomplete (then no project is called unknown); undefined when complete. */
  uncertain?: string;
}

/**
 * A generated Application as the project rules read it (the expansion's `GeneratedApp` is one): its
 * rendered manifest, name, where its parameters came from, which generator made it, and whether the
 * controller skips it as invalid.
 */
export interface ProjectApp {
  app: { [key: string]: Json };
  name: string;
  readonly sources?: Source[];
  generatorIndex: number;
  invalid?: readonly unknown[];
}

/**
 * What the project rules (`unknownProject.ts`, `projectPermissions.ts`) read of one ApplicationSet: its
 * file, its document, and the Applications it generates. The expansion sits a floor above `validate/`,
 * so the features' context hands it over (it has this shape as it is).
 */
export interface ProjectsOf {
  file: SourceText;
  doc: AppSetDoc;
  expansion(): { apps: readonly ProjectApp[]; paramSets?: number };
}

/** `ProjectIndex.uncertain` while the language server has not read the workspace yet (then nothing is claimed). */
export const STILL_READING = 'the workspace is still being read';
/** `ProjectIndex.uncertain` when the repository keeps no AppProject at all. */
export const NO_PROJECTS = 'no AppProject in the workspace';

const TEMPLATED = /\{\{|\$\{|<<|\$[A-Z_]/;
const cache = new WeakMap<object, { version: number; index: ProjectIndex }>();

export function knownProjects(file: SourceText): ProjectIndex {
  const ws = file.workspace;
  // The language server's first answer does not wait for the workspace: until it is read, no project
  // is called unknown (the server validates again once it is).
  if (ws.stillReading(APP_PROJECTS)) return { projects: new Map([['default', { name: 'default', file: '' }]]), uncertain: STILL_READING };
  const hit = cache.get(ws);
  if (hit && hit.version === ws.version) return hit.index;
  const projects = new Map<string, KnownProject>();
  let uncertain: string | undefined;
  let found = 0;
  for (const f of ws.matching(APP_PROJECTS)) {
    // A documentation folder's AppProjects are examples for readers, not projects any Argo CD has.
    if (inDocs(file, f.path)) continue;
    const declares = /^kind:[ \t]*["']?AppProject\b/m.test(f.text);
    let named = 0;
    for (const d of f.docs) {
      const v = d.value;
      if (!isObj(v)) continue;
      if (v.kind === 'AppProject' && typeof v.apiVersion === 'string' && v.apiVersion.startsWith('argoproj.io/')) {
        const name = isObj(v.metadata) ? v.metadata.name : undefined;
        if (typeof name !== 'string' || !name || TEMPLATED.test(name)) {
          uncertain ??= `an AppProject in ${f.path} has no literal name`;
          continue;
        }
        named++;
        add(projects, { name, file: f.path, span: d.span, rules: rulesOf(v.spec) });
        continue;
      }
      // argocd-apps values: `projects:` at the top or under the dependency's alias.
      for (const site of [v.projects, ...Object.values(v).map((x) => (isObj(x) ? x.projects : undefined))]) {
        const entries: [string, unknown][] = isObj(site)
          ? Object.entries(site)
          : Array.isArray(site)
            ? site.filter(isObj).map((e) => [String(e.name ?? ''), e] as [string, unknown])
            : [];
        for (const [name, e] of entries) {
          if (!isObj(e) || !('sourceRepos' in e || 'destinations' in e || 'description' in e)) continue;
          if (!name || TEMPLATED.test(name)) continue;
          named++;
          add(projects, { name, file: f.path, span: d.span, rules: rulesOf(e) });
        }
      }
    }
    // A file that declares AppProjects we could not read (a Helm template, broken YAML).
    if (declares && !named) uncertain ??= `${f.path} declares an AppProject that cannot be read without rendering it`;
    found += named;
  }
  if (!found) uncertain ??= NO_PROJECTS;
  projects.set('default', projects.get('default') ?? { name: 'default', file: '' });
  const index = { projects, uncertain };
  cache.set(ws, { version: ws.version, index });
  return index;
}

/** Whether `path` lies in a documentation folder (`docs/`, `doc/`) of its workspace. */
function inDocs(file: SourceText, path: string): boolean {
  const rel = workspaceRelative(file.host.roots(), path) ?? path;
  return rel
    .split('/')
    .slice(0, -1)
    .some((seg) => seg === 'docs' || seg === 'doc');
}

/** Keeps the first place a project is defined; a second definition makes its rules unknown. */
function add(projects: Map<string, KnownProject>, p: KnownProject): void {
  const seen = projects.get(p.name);
  if (!seen) projects.set(p.name, p);
  else if (seen.file !== p.file || seen.span?.start !== p.span?.start) seen.rules = undefined;
}

const strings = (v: unknown): string[] | undefined =>
  v === undefined || v === null ? [] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;

/** The permission fields of a project's spec, or undefined when any of them is not a literal. */
function rulesOf(spec: unknown): ProjectRules | undefined {
  if (!isObj(spec)) return undefined;
  const sourceRepos = strings(spec.sourceRepos);
  const rawDest = spec.destinations ?? [];
  if (!sourceRepos || !Array.isArray(rawDest)) return undefined;
  const destinations: ProjectRules['destinations'] = [];
  for (const d of rawDest) {
    if (!isObj(d)) return undefined;
    const field = (k: string) => (d[k] === undefined || d[k] === null ? '' : typeof d[k] === 'string' ? (d[k] as string) : undefined);
    const server = field('server');
    const name = field('name');
    const namespace = field('namespace');
    if (server === undefined || name === undefined || namespace === undefined) return undefined;
    destinations.push({ server, name, namespace });
  }
  const sourceNamespaces = strings(spec.sourceNamespaces);
  if (!sourceNamespaces) return undefined;
  const all = [...sourceRepos, ...sourceNamespaces, ...destinations.flatMap((d) => [d.server, d.name, d.namespace])];
  if (all.some((x) => TEMPLATED.test(x))) return undefined;
  return { sourceRepos, destinations, permitOnlyProjectScopedClusters: spec.permitOnlyProjectScopedClusters === true, sourceNamespaces };
}
