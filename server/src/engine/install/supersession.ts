/**
 * Which install runs an ApplicationSet once the repository is applied: the one fact every answer that
 * depends on the controller shares (the version, progressive-sync enablement, `appset instances`, the plan,
 * the status bar and rollout view), computed here and nowhere else.
 *
 * A repository often bootstraps Argo CD once from outside (`kubectl apply -k argocd/bootstrap`, Terraform,
 * a script) and then lets Argo CD manage itself: an Application or an ApplicationSet of the repository
 * deploys a second definition of the same Argo CD (Argo CD docs/operator-manual/declarative-setup.md,
 * "Manage Argo CD Using Argo CD"). Once that one syncs, it replaces the bootstrap's resources in the same
 * namespace (the same Deployment, the same `argocd-cmd-params-cm`): its settings and its version are the
 * ones the controller runs with, and the bootstrap's are set aside, however near the ApplicationSet the
 * bootstrap sits (install/instances.ts chooses by folder). So:
 * - a chosen install that nothing in the repository deploys is **replaced** by an install the repository
 *   deploys that is Argo CD itself (states a version, is argo-cd chart values, an Application installing
 *   Argo CD, an Operator `ArgoCD`) and runs in the same namespace, when that one also runs the
 *   ApplicationSet's namespace;
 * - when such a deployed install exists but a namespace of the two is not known, whether it replaces the
 *   bootstrap cannot be decided (`undecided`): the bootstrap stays, and an answer on which the two differ
 *   is unknown (rollout/enablement.ts).
 */
import type { InstallEvidence } from '../versions/detect';
import type { ConfigTarget } from './evidence';
import { dirname } from '../paths';
import { folderDeployed, type Installers } from './installers';
import { installOf, isSample, namespaceWatched, type Instance, type InstanceChoice } from './instances';

/** What the rule reads of the install model (install/model.ts `InstallModel`). */
export interface SupersessionInputs {
  scan: { instances: Instance[]; deployed: Installers['deployed']; targets: ConfigTarget[] };
  versions: InstallEvidence[];
  appSetDeploys(): Installers['deployed'];
}

/** The choice of install/instances.ts after supersession. */
export interface RunningChoice extends InstanceChoice {
  /** Bootstraps applied from outside that the chosen installs replace once synced (set aside). */
  setAside?: Instance[];
  /**
   * A bootstrap kept, and the installs the repository deploys that may replace it but whose namespace (or
   * the bootstrap's) is not known: whether they replace it cannot be decided.
   */
  undecided?: { bootstrap: Instance; deployed: Instance[] };
}

const keysOf = (i: Instance) => [i.key, ...i.bases];
/** The install's own folder for a folder key (`app:` keys name an Application's file). */
const folderOf = (key: string) => (key.startsWith('app:') ? undefined : key);
/** The version evidence's install key (install/model.ts `versionInstance`, repeated to stay below it). */
const versionKey = (e: InstallEvidence) => e.instance ?? installOf(e.file).key;

/** True when `dir`, or a folder up to three levels above it whose kustomization builds it, is deployed. */
function dirDeployed(deployed: Installers['deployed'], dir: string): boolean {
  for (let n = 0; n < 4 && dir && dir !== '/' && dir !== '.'; n++, dir = dirname(dir)) if (folderDeployed({ deployed }, dir)) return true;
  return false;
}

/**
 * True when the repository keeps the evidence applied: a GitOps resource (an Application installing the
 * chart, a HelmRelease), or a file in a folder (or below one) an Application's or Flux Kustomization's path
 * deploys. A file nothing here deploys is applied from outside — by hand, Terraform, a script — once.
 */
export function deployedFromRepository(model: Pick<SupersessionInputs, 'scan'>, e: InstallEvidence): boolean {
  return !!e.reconciled || dirDeployed(model.scan.deployed, dirname(e.file));
}

/** True when an ApplicationSet's template deploys the evidence's folder or one up to three levels above it. */
export function deployedByAppSet(model: Pick<SupersessionInputs, 'appSetDeploys'>, e: InstallEvidence): boolean {
  const deploys = model.appSetDeploys();
  return deploys.length > 0 && dirDeployed(deploys, dirname(e.file));
}

/** True when the repository keeps the evidence's install applied (its own GitOps resource, or an ApplicationSet's template). */
export function evidenceDeployed(model: Pick<SupersessionInputs, 'scan' | 'appSetDeploys'>, e: InstallEvidence): boolean {
  return deployedFromRepository(model, e) || deployedByAppSet(model, e);
}

/** True when the repository (an Application, a Flux Kustomization, an ApplicationSet's template) deploys the install. */
export function installDeployed(model: SupersessionInputs, inst: Instance): boolean {
  if (inst.key.startsWith('app:')) return true;
  const keys = new Set(keysOf(inst));
  const versions = model.versions.filter((v) => keys.has(versionKey(v)));
  if (versions.some((v) => evidenceDeployed(model, v))) return true;
  const dir = folderOf(inst.key);
  if (!dir) return false;
  return dirDeployed(model.scan.deployed, dir) || dirDeployed(model.appSetDeploys(), dir);
}

/**
 * True when the install is Argo CD itself, not only configuration for one: it states a version, or is
 * argo-cd chart values, an Application installing Argo CD, an Operator `ArgoCD` (a lone params ConfigMap
 * configures whichever Argo CD runs beside it and replaces nothing).
 */
export function isArgoCdItself(model: SupersessionInputs, inst: Instance): boolean {
  if (inst.loose) return false;
  if (inst.key.startsWith('app:')) return true;
  const keys = new Set(keysOf(inst));
  if (model.versions.some((v) => keys.has(versionKey(v)))) return true;
  return model.scan.targets.some(
    (t) => (t.kind === 'helm-values' || t.kind === 'argocd-cr') && t.instance !== undefined && keys.has(t.instance),
  );
}

/** `argocd/apps/argocd/` or `Application argocd (…)`, as install/instances.ts names installs in its `why`. */
const named = (i: Instance) => (i.key.startsWith('app:') ? i.name : `${i.name}/`);

/** Applies supersession to the folder rule's choice for an ApplicationSet in `namespace`. */
export function supersede(
  model: SupersessionInputs,
  choice: InstanceChoice,
  namespace: string | undefined,
  roots: readonly string[],
): RunningChoice {
  if (!choice.instances.length) return choice;
  const all = model.scan.instances;
  const isBase = (i: Instance) => all.some((o) => o.bases.includes(i.key));
  const runsIt = (i: Instance) => !namespace || !i.namespace || namespaceWatched(i.watched, i.namespace, namespace);
  // The installs the repository deploys that are Argo CD itself: the only ones that can replace a bootstrap.
  // Cheap tests first: whether an install is deployed may parse the ApplicationSet files (their templates'
  // paths), which only a repository with a second definition of Argo CD needs.
  const rivals = all.filter((i) => !isBase(i) && !isSample(i, roots) && runsIt(i) && isArgoCdItself(model, i));
  let deployedCache: Instance[] | undefined;
  const deployed = () => (deployedCache ??= rivals.filter((i) => installDeployed(model, i)));
  const kept: Instance[] = [];
  const replacing: Instance[] = [];
  const setAside: Instance[] = [];
  let undecided: RunningChoice['undecided'];
  for (const inst of choice.instances) {
    const may = !isSample(inst, roots) && isArgoCdItself(model, inst) && rivals.some((d) => d !== inst);
    if (!may || installDeployed(model, inst)) {
      kept.push(inst);
      continue;
    }
    const others = deployed().filter((d) => d !== inst);
    const same = inst.namespace ? others.filter((d) => d.namespace === inst.namespace) : [];
    if (same.length) {
      setAside.push(inst);
      for (const d of same) if (!replacing.includes(d)) replacing.push(d);
      continue;
    }
    kept.push(inst);
    const maybe = others.filter((d) => !d.namespace || !inst.namespace);
    if (maybe.length && !undecided) undecided = { bootstrap: inst, deployed: maybe };
  }
  if (!setAside.length) return undecided ? { ...choice, undecided } : choice;
  const instances = [...kept, ...replacing.filter((r) => !kept.includes(r))];
  const nsPart = namespace && instances.some((i) => i.namespace === namespace) ? ` for namespace ${namespace}` : '';
  const why = `the repository deploys ${replacing.map(named).join(', ')}${nsPart}, which replaces the bootstrap ${setAside.map(named).join(', ')} applied from outside once synced (Argo CD managing itself)`;
  return {
    ...choice,
    instances,
    why: kept.length ? `${choice.why}; ${why}` : why,
    rejected: [
      ...choice.rejected.filter((r) => !instances.includes(r.inst)),
      ...setAside.map((inst) => ({ inst, why: `it is a bootstrap applied from outside that ${replacing.map(named).join(', ')} replaces` })),
    ],
    setAside,
  };
}
