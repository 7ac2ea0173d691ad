/**
 * Sync window entries that can never match because they name a cluster the way the Applications do
 * not. Argo CD matches a window's `applications` against the Application's name, and its `clusters`
 * against the Application's `spec.destination.name` or `spec.destination.server` as written
 * (argo-cd pkg/apis/application/v1alpha1/types.go, SyncWindows.Matches; gobwas globs). A window written
 * `clusters: [prod-01]` for Applications whose destination is `server: https://10.0.0.1:6443` (or a
 * cluster name under `applications:`) matches nothing, and the controller says nothing about it: the
 * window the user meant to hold the rollout never applies.
 */
import type { GeneratedApp } from '../expand/types';
import { compareNames } from './plan';
import { chooseProject, globMatch, projectOf, targetOf, type ProjectWindows, type SyncWindowSpec } from './syncWindows';

export interface KnownCluster {
  name: string;
  server: string;
}

export interface WindowMiss {
  project: ProjectWindows;
  window: SyncWindowSpec;
  field: 'clusters' | 'applications';
  entry: string;
  /** The cluster the entry names, and how the Applications write their destination to it. */
  cluster: KnownCluster;
  writtenAs: 'server' | 'name';
  /** Applications of this ApplicationSet (in that project) going to that cluster. */
  apps: string[];
}

/** At most this many windows × entries are looked at (hostile workspaces). */
const MAX_ENTRIES = 2000;

export function windowMisses(
  apps: readonly GeneratedApp[],
  projects: readonly ProjectWindows[],
  clusters: readonly KnownCluster[],
  near: string,
  namespace?: string,
): WindowMiss[] {
  if (!projects.length || !clusters.length) return [];
  // The Applications per project the ApplicationSet's Applications use.
  const byProject = new Map<ProjectWindows, GeneratedApp[]>();
  for (const a of apps) {
    if (a.invalid?.length) continue;
    const p = chooseProject(projects, projectOf(a), near, namespace);
    if (!p) continue;
    const list = byProject.get(p) ?? [];
    list.push(a);
    byProject.set(p, list);
  }
  const out: WindowMiss[] = [];
  let seen = 0;
  for (const [project, list] of byProject) {
    const targets = list.map((a) => ({ app: a, t: targetOf(a) }));
    for (const w of project.windows) {
      for (const field of ['clusters', 'applications'] as const) {
        for (const entry of w[field]) {
          if (++seen > MAX_ENTRIES) return out;
          // An entry that matches one of these Applications does its job.
          const hits = (x: { name: string; destName: string; destServer: string }) =>
            field === 'applications'
              ? globMatch(entry, x.name)
              : (x.destName !== '' && globMatch(entry, x.destName)) || (x.destServer !== '' && globMatch(entry, x.destServer));
          if (targets.some(({ t }) => hits(t))) continue;
          const miss = missFor(entry, field, clusters, targets);
          if (miss) out.push({ project, window: w, field, entry, ...miss, apps: [...miss.apps].sort(compareNames) });
        }
      }
    }
  }
  return out;
}

function missFor(
  entry: string,
  field: 'clusters' | 'applications',
  clusters: readonly KnownCluster[],
  targets: readonly { app: GeneratedApp; t: { destName: string; destServer: string } }[],
): Pick<WindowMiss, 'cluster' | 'writtenAs' | 'apps'> | undefined {
  for (const c of clusters) {
    const byName = c.name !== '' && globMatch(entry, c.name);
    const byServer = c.server !== '' && globMatch(entry, c.server);
    if (!byName && !byServer) continue;
    // The Applications that go to this cluster, and how they write it.
    const viaServer = targets.filter(({ t }) => t.destName === '' && t.destServer === c.server);
    const viaName = targets.filter(({ t }) => t.destName === c.name);
    if (field === 'clusters') {
      // A name where the Applications write the server, or a server where they write the name.
      if (byName && viaServer.length) return { cluster: c, writtenAs: 'server', apps: viaServer.map((x) => x.app.name) };
      if (byServer && viaName.length) return { cluster: c, writtenAs: 'name', apps: viaName.map((x) => x.app.name) };
    } else {
      const all = [...viaServer, ...viaName];
      if (all.length) return { cluster: c, writtenAs: viaName.length ? 'name' : 'server', apps: all.map((x) => x.app.name) };
    }
  }
  return undefined;
}
