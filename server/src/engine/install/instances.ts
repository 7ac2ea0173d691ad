/**
 * Which Argo CD instance runs an ApplicationSet, so that its enablement is read from that
 * instance's configuration only (a staging install must not vouch for production).
 *
 * The rule, in order (README "Which Argo CD instance"):
 * 1. an explicit mapping (`appsetTools.instances` / `instances:` in `.appset-tools.yaml`) whose
 *    `applicationSets` globs match the file: that mapping's `config` paths (and its own
 *    `progressiveSyncs` answer, if given) decide;
 * 2. otherwise the installs found in the workspace whose scope holds the file — an install's scope is
 *    the folder it sits in, or the folder above when that folder is named like an install
 *    (`argocd/`, `install/`, `bootstrap/`, …); kustomize `base/` and `overlays/<name>/` count as
 *    one install per overlay; an Argo CD Application that installs Argo CD with Helm governs the whole
 *    workspace;
 * 3. an install whose namespace is known (the resource's, the kustomization's, the Application's
 *    destination) must be the ApplicationSet's `metadata.namespace` or list it in
 *    `applicationsetcontroller.namespaces`;
 * 4. the nearest scope wins; installs tied at the same depth that disagree make the answer the least
 *    enabled one (and the finding names them);
 * 5. when no install's folder holds the file, the repository's installs govern every ApplicationSet in
 *    the namespaces they run ApplicationSets in, wherever its file lies (argocd-autopilot keeps Argo CD
 *    in `bootstrap/argo-cd/` and the ApplicationSets in `apps/`; an umbrella chart in `charts/argocd/`):
 *    one install, or several that are then tied as in 4. Installs in sample folders (`examples/`,
 *    `test/`, `docs/`, …) only govern their own folder: they are not what the repository deploys.
 */
import type { InstanceMapping } from '../host';
import { doublestarMatch } from '../rules/globs';
import { dirname, relativePath } from '../paths';
import { gobwasMatch } from '../rules/gobwasGlob';
import { foldAscii } from '../workspace/names';

/**
 * True when the controller of an install in `own` processes ApplicationSets in `namespace`: its own
 * namespace always, others when a pattern of `applicationsetcontroller.namespaces` matches, by glob or
 * as `/regexp/` (Argo CD `applicationset/utils/utils.go` IsNamespaceAllowed, `util/glob/list.go`).
 */
export function namespaceWatched(patterns: readonly string[], own: string | undefined, namespace: string): boolean {
  if (own === namespace) return true;
  return patterns.some((p) => {
    if (p.length > 1 && p.startsWith('/') && p.endsWith('/')) {
      try {
        return new RegExp(p.slice(1, -1)).test(namespace);
      } catch {
        return false;
      }
    }
    return gobwasMatch(p, namespace);
  });
}

export interface Instance {
  /** Key: absolute folder of the install (or `app:<file>#<name>` for an Argo CD Application). */
  key: string;
  /** Workspace-relative name shown to users (`argocd/overlays/prod`, `.` for the root). */
  name: string;
  /** Absolute folder whose ApplicationSets it governs ('' = everything). */
  scope: string;
  namespace?: string;
  /** Extra namespaces the controller watches (`applicationsetcontroller.namespaces`). */
  watched: string[];
  /** Keys of installs whose evidence also applies (a kustomize overlay's base). */
  bases: string[];
  /**
   * Set when the install is only a params ConfigMap that nothing in the repository deploys (install/finish.ts
   * `looseInstances`), saying so: it runs ApplicationSets only where no other install could.
   */
  loose?: string;
}

const KUSTOMIZE_LEAVES = new Set(['base', 'bases', 'patches', 'components', 'resources']);
const OVERLAY_DIRS = new Set(['overlays', 'overlay', 'envs', 'environments']);
/** Folder names (in lower case) that hold an install rather than the things it runs; and any name holding `argo`. */
const INSTALL_LIKE = new Set([
  'install',
  'installation',
  'bootstrap',
  'gitops',
  'platform',
  'system',
  'infra',
  'infrastructure',
  'manifests',
  'config',
  'configs',
  'deploy',
  'helm',
  'chart',
  'charts',
  'values',
  'cluster-config',
  'cd',
]);

/**
 * True when a folder's name says it holds an Argo CD install (`argocd/`, `bootstrap/`, `install/`, …), in
 * any case. A set and `includes`, not a pattern (compiling it was 0.17 ms of a first answer, workspace/names.ts).
 */
export function isInstallFolder(name: string): boolean {
  const folded = foldAscii(name);
  return folded.includes('argo') || INSTALL_LIKE.has(folded);
}

/** Instance key, scope and base of a configuration file in the workspace. */
export function installOf(file: string): { key: string; scope: string; base?: string } {
  const segs = dirname(file).split('/');
  let overlayAt = -1;
  for (let i = segs.length - 2; i > 0; i--)
    if (OVERLAY_DIRS.has(segs[i].toLowerCase())) {
      overlayAt = i;
      break;
    }
  let key: string;
  let root: string;
  let base: string | undefined;
  if (overlayAt > 0) {
    key = segs.slice(0, overlayAt + 2).join('/');
    root = segs.slice(0, overlayAt).join('/');
    base = root;
  } else {
    let end = segs.length;
    while (end > 2 && KUSTOMIZE_LEAVES.has(segs[end - 1].toLowerCase())) end--;
    key = segs.slice(0, end).join('/');
    root = key;
  }
  const name = root.slice(root.lastIndexOf('/') + 1);
  const scope = isInstallFolder(name) ? dirname(root) : root;
  return { key, scope, base };
}

/**
 * Folders (their names in lower case, compared in any case) that hold samples, tests, documentation and
 * archived setups rather than what the repository deploys.
 */
const SAMPLE_DIR = new Set([
  'example',
  'examples',
  'sample',
  'samples',
  'test',
  'tests',
  'testdata',
  'test-data',
  'fixture',
  'fixtures',
  'doc',
  'docs',
  'demo',
  'demos',
  'e2e',
  'hack',
  'archive',
  'archived',
  'archives',
]);

/** The file (or folder) an install is defined by, for `app:<file>#<name>` keys too. */
export const installSource = (key: string) => (key.startsWith('app:') ? key.slice(4, key.lastIndexOf('#')) : key);

/** True when the install lies in a sample folder of the workspace (see SAMPLE_DIR). */
export function isSample(inst: Pick<Instance, 'key'>, roots: readonly string[]): boolean {
  const rel = relativePath(roots, installSource(inst.key));
  return rel.split('/').some((seg) => SAMPLE_DIR.has(foldAscii(seg)));
}

const within = (dir: string, scope: string) => scope === '' || scope === '/' || dir === scope || dir.startsWith(scope + '/');

export interface InstanceChoice {
  /** The installs that run it (several when tied). Empty: none governs it. */
  instances: Instance[];
  /** Why, in plain words: `installed beside it in argocd/`, `mapped in appsetTools.instances ("prod")`. */
  why: string;
  /** Installs left out because of their namespace (for the "not found" explanation). */
  otherNamespace: Instance[];
  /** Installs found but not applied, with the reason (for "not found": never "nothing configures it" when one was found). */
  rejected: { inst: Instance; why: string }[];
  /** The mapping that decided, if any. */
  mapping?: InstanceMapping;
}

/**
 * True when a mapping's path or glob covers `file`: workspace-relative (the editor setting) or absolute
 * (`.appset-tools.yaml` resolves its paths against its own folder); a folder covers everything below it.
 */
function covers(pattern: string, roots: readonly string[], file: string): boolean {
  const abs = pattern.startsWith('/');
  const subject = abs ? file : relativePath(roots, file);
  const p = abs ? pattern.replace(/\/+$/, '') : pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  if (p === '' || p === '.' || p === '**') return true;
  return subject === p || subject.startsWith(p.replace(/\/\*\*$/, '') + '/') || doublestarMatch(p)(subject);
}

/** Which mapping (if any) claims an ApplicationSet file. */
export function mappingFor(mappings: readonly InstanceMapping[], roots: readonly string[], file: string): InstanceMapping | undefined {
  return mappings.find((m) => m.applicationSets.some((g) => covers(g, roots, file)));
}

/** True when `file` lies under one of the mapping's config paths (files or folders, workspace-relative or absolute). */
export function inMappingConfig(m: InstanceMapping, roots: readonly string[], file: string): boolean {
  return (m.config ?? []).some((c) => covers(c, roots, file));
}

/** Steps 2–4 of the rule. */
export function chooseInstances(
  all: readonly Instance[],
  file: string,
  namespace: string | undefined,
  roots: readonly string[],
): InstanceChoice {
  const dir = dirname(file);
  const isBase = (i: Instance) => all.some((o) => o.bases.includes(i.key));
  // An Application installing Argo CD governs the workspace, unless it is a sample: then only its folder.
  const scopeOf = (i: Instance) => (i.scope === '' && isSample(i, roots) ? dirname(installSource(i.key)) : i.scope);
  const inScope = all.filter((i) => within(dir, scopeOf(i)) && !isBase(i));
  const nsOk = (i: Instance) => !namespace || !i.namespace || namespaceWatched(i.watched, i.namespace, namespace);
  // A params ConfigMap nothing deploys is an install only where no other install could run it.
  const firm = (list: Instance[]) => (list.some((i) => !i.loose) ? list.filter((i) => !i.loose) : list);
  let candidates = firm(inScope.filter(nsOk));
  let repositoryWide = false;
  if (!candidates.length) {
    // Rule 5: no install's folder holds it, so the repository's installs (not samples) run it by namespace.
    candidates = firm(all.filter((i) => !isBase(i) && !isSample(i, roots) && nsOk(i)));
    repositoryWide = candidates.length > 0;
  }
  const otherNamespace = all.filter((i) => !isBase(i) && !nsOk(i) && (within(dir, scopeOf(i)) || !isSample(i, roots)));
  const rejected = all
    .filter((i) => !isBase(i) && !candidates.includes(i))
    .map((inst) => ({
      inst,
      why: !nsOk(inst)
        ? `it runs ApplicationSets in namespace ${inst.namespace}${inst.watched.length ? ` (and ${inst.watched.join(', ')})` : ''}, this one is in ${namespace}`
        : isSample(inst, roots)
          ? `it lies in a sample folder (${relativePath(roots, installSource(inst.key))}), which governs only its own folder`
          : inst.loose
            ? `it is only ${inst.loose}, and another install runs it`
            : `an install nearer to this file runs it`,
    }));
  if (!candidates.length) return { instances: [], why: '', otherNamespace, rejected };
  const depth = (i: Instance) => (scopeOf(i) === '' ? -1 : scopeOf(i).length);
  const best = Math.max(...candidates.map(depth));
  const nearest = repositoryWide ? candidates : candidates.filter((i) => depth(i) === best);
  const names = nearest.map((i) => (i.key.startsWith('app:') ? i.name : `${i.name}/`));
  const nsPart = namespace && nearest.some((i) => i.namespace === namespace) ? ` for namespace ${namespace}` : '';
  const why =
    nearest.length > 1
      ? `several Argo CD installs could run it (${names.join(', ')})`
      : repositoryWide
        ? `the repository's only Argo CD install, ${names[0]}${nsPart ? `, runs ApplicationSets${nsPart}` : ', runs the ApplicationSets of every folder'}`
        : nearest[0].key.startsWith('app:')
          ? `installed by ${names[0]}${nsPart}`
          : `installed beside it in ${relativePath(roots, nearest[0].key) === '.' ? 'the workspace root' : names[0]}${nsPart}`;
  return { instances: nearest, why, otherNamespace, rejected };
}
