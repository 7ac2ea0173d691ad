/**
 * The end of the install scan (scan.ts), once every file is read: what is said of remote bases and
 * bounds, Helm's overrides, spans from the located trees, the installs' names and namespaces, and the
 * scan's answer without its internal fields.
 */
import { dirname, relativePath } from '../paths';
import { installOf } from './instances';
import { TOP, type Collector } from './collector';
import { CM_NAME, type WorkspaceScan } from './evidence';
import { applyOverrides } from './overrides';
import { resolveSpans, whereOf } from './spans';

export function finishScan(c: Collector): WorkspaceScan {
  noteRemoteBases(c);
  // An install whose entries reached the bound: its answers are unknown, and say why.
  for (const [key, t] of c.truncated)
    c.evidence.push({
      file: t.site.file.path,
      description: `not read: ${t.what}`,
      effect: 'ignored',
      instance: key,
      unread: true,
    });
  applyOverrides(c);
  // The fix writes in the values Helm reads last (highest rank first; the sort is stable).
  c.targets.sort((a, b) => (b.rank ?? -1) - (a.rank ?? -1));
  resolveSpans(c.evidence);
  resolveSpans(c.settings);
  nameInstances(c);
  looseInstances(c);
  // Bases referenced by an overlay exist as installs even when they hold no evidence of their own.
  for (const inst of [...c.instances.values()]) {
    for (const b of inst.bases)
      if (!c.instances.has(b))
        c.instances.set(b, { key: b, name: relativePath(c.roots, b), scope: installOf(b + '/x').scope, watched: [], bases: [] });
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const evidence = c.evidence.map(({ site, chain, rank, slot, ...e }) => {
    const where = whereOf(c.roots, e, site);
    if (where) e.where = where;
    return e;
  });
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const settings = c.settings.map(({ site, chain, rank, slot, ...e }) => {
    const where = whereOf(c.roots, e, site);
    if (where) e.where = where;
    return e;
  });
  return {
    evidence,
    settings,
    targets: c.targets,
    instances: [...c.instances.values()],
    deployed: c.installers.deployed,
    appNamespaces: [...c.appNamespaces].map(([namespace, file]) => ({ namespace, file })),
    settingsTruncated: [...c.settingsTruncated],
  };
}

/**
 * A remote base is only Argo CD's configuration when its kustomization is an install: one the model
 * already knows, or one named or namespaced like Argo CD (`argocd/`, `namespace: argocd`).
 */
function noteRemoteBases(c: Collector) {
  for (const r of c.remoteBases) {
    const dir = dirname(r.site.file.path);
    const ns = c.kustomizeNamespaces.get(dir) ?? '';
    if (!c.instances.has(r.key) && !/argo-?cd|gitops/i.test(dir.slice(dir.lastIndexOf('/') + 1)) && !/argo-?cd|gitops/i.test(ns)) continue;
    c.evidence.push({
      file: r.site.file.path,
      description:
        r.what ??
        `not read: remote base ${r.ref} (kustomize fetches it when it builds; it cannot be read offline and may configure the ApplicationSet controller)`,
      effect: 'ignored',
      site: r.site,
      instance: c.instanceKey(TOP, r.site),
      unread: true,
    });
  }
}

/** A folder's install is named by its folder, an Application's by the Application; a folder's namespace is its kustomization's. */
function nameInstances(c: Collector) {
  for (const inst of c.instances.values()) {
    if (!inst.key.startsWith('app:')) {
      inst.name = relativePath(c.roots, inst.key);
      inst.namespace ??= c.kustomizeNamespaces.get(inst.key) ?? inst.bases.map((b) => c.kustomizeNamespaces.get(b)).find(Boolean);
    } else
      inst.name = `Application ${inst.key.slice(inst.key.lastIndexOf('#') + 1)} (${relativePath(c.roots, inst.key.slice(4, inst.key.lastIndexOf('#')))})`;
  }
}

/**
 * Installs defined only by params ConfigMaps that nothing in the repository deploys, in folders that hold
 * no other part of Argo CD (a copy kept for reference, a snippet): "applied by hand, if at all". Such a
 * folder is the install's configuration when the repository holds no other install; beside a real one it
 * must not make ApplicationSets ambiguous (install/instances.ts leaves it out of the candidates then).
 */
function looseInstances(c: Collector) {
  const files = new Map<string, Set<string>>();
  const note = (instance: string | undefined, file: string) => {
    if (instance) files.set(instance, (files.get(instance) ?? new Set()).add(file));
  };
  for (const e of c.evidence) note(e.instance, e.file);
  for (const s of c.settings) note(s.instance, s.file);
  for (const t of c.targets) note(t.instance, t.file);
  for (const inst of c.instances.values()) {
    const own = files.get(inst.key);
    if (inst.key.startsWith('app:') || !own?.size || [...own].some((f) => !c.byHand.has(f))) continue;
    inst.loose = `${[...own].map((f) => relativePath(c.roots, f)).join(', ')}: a ${CM_NAME} that nothing in the repository deploys, with no other part of Argo CD beside it`;
  }
}
