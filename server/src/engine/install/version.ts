/**
 * The version of the Argo CD that runs an ApplicationSet, decided once from the install model for
 * every front (lint, plan, render, hover, `appset instances`, the status bar).
 *
 * The installs that run it (install/model.ts `governing`) state their versions; when several are
 * tied and disagree, the oldest is taken (a field it lacks is the one that costs silently). One case
 * makes the version unknown instead: a **superseded bootstrap**. A repository often installs Argo CD
 * once from outside — `kubectl apply` of a pinned `install.yaml`, a manifest handed to Terraform or a
 * script — and then lets Argo CD manage itself from the repository (Argo CD's "manage Argo CD using
 * Argo CD" pattern: an Application of the argo-cd chart or of a kustomization that replaces the
 * bootstrap's resources in the same namespace). When an install that states a version is applied
 * from outside (nothing in the repository deploys it) and another install that could run the same
 * ApplicationSet defines Argo CD itself (argo-cd chart values, an Application installing the chart,
 * an Operator `ArgoCD`) without saying which version, the pinned manifest says which version was
 * bootstrapped, not which one runs now: the version is not known.
 *
 * When the other install states its version too and the repository deploys it (an Application or a
 * folder an Application deploys: Argo CD managing itself, docs/operator-manual/declarative-setup.md
 * "Manage Argo CD Using Argo CD"), it replaces the bootstrap's resources once synced: its version is the
 * one that runs, and the bootstrap's is set aside (`bootstrap`), however old or new it is.
 */
import type { InstallEvidence } from '../versions/detect';
import { rank, label } from '../versions/releases';
import { relativePath } from '../paths';
import { deployedFromRepository } from './supersession';
import { installKeys, versionInstance, type Governing, type InstallModel } from './model';
import type { Instance } from './instances';

export interface GoverningVersion {
  /** The evidence that decides (the oldest of the governing installs' versions). */
  pick: InstallEvidence;
  /** Other versions stated in the repository, as labels ("Argo CD 3.4, Argo CD 3.5"). */
  disagree?: string;
  /**
   * Set when `pick` is a superseded bootstrap: the installs that could run the ApplicationSet, define
   * Argo CD and state no version. The running version is then not known.
   */
  superseded?: Instance[];
  /** Versions of installs applied from outside that an install the repository deploys replaces (set aside). */
  bootstrap?: InstallEvidence[];
}

/** The version evidence of the governing install(s), and whether it is only a superseded bootstrap. */
export function governingVersion(model: InstallModel, gov: Governing): GoverningVersion | undefined {
  const owned = model.versions.filter((e) => gov.owns(e.file, e.instance ?? versionInstance(e)));
  if (!owned.length) return undefined;
  // A self-managed Argo CD the repository deploys replaces the bootstrap applied from outside: another
  // install of the same namespace was chosen instead of it (install/supersession.ts), or, inside the
  // governing installs, the evidence the repository deploys wins over the one applied from outside.
  const deployed = owned.filter((e) => deployedFromRepository(model, e));
  // Bootstraps the running install replaces were set aside when it was chosen (install/supersession.ts).
  const asideKeys = new Set((gov.choice?.setAside ?? []).flatMap(installKeys));
  let bootstrap: InstallEvidence[] = model.versions.filter((e) => asideKeys.has(versionInstance(e)));
  let mine = owned;
  if (deployed.length && deployed.length < owned.length) {
    bootstrap = [...bootstrap, ...owned.filter((e) => !deployed.includes(e))];
    mine = deployed;
  }
  const sorted = [...mine].sort(
    (a, b) =>
      rank(a.line) - rank(b.line) ||
      Number(!!b.belowOldest) - Number(!!a.belowOldest) ||
      a.file.localeCompare(b.file) ||
      a.span.start - b.span.start,
  );
  const pick = sorted[0];
  const lines = [...new Set(model.versions.filter((e) => !bootstrap.includes(e)).map((e) => e.line))]
    .filter((l) => l !== pick.line)
    .sort((a, b) => rank(a) - rank(b));
  const disagree = lines.length ? lines.map(label).join(', ') : undefined;
  const silent = gov.installs.filter((i) => definesArgoCd(model, i) && !statesVersion(model, i));
  if (silent.length && !mine.some((e) => deployedFromRepository(model, e))) return { pick, disagree, superseded: silent };
  return { pick, disagree, ...(bootstrap.length ? { bootstrap } : {}) };
}

/** True when some version evidence belongs to the install (or the base its overlay builds on). */
function statesVersion(model: InstallModel, inst: Instance): boolean {
  const keys = new Set(installKeys(inst));
  return model.versions.some((v) => keys.has(versionInstance(v)));
}

/**
 * True when the install is Argo CD itself, not only configuration for one: argo-cd chart values, an
 * Application installing the chart, an Operator `ArgoCD` (a lone argocd-cmd-params-cm configures
 * whichever install runs beside it, and says nothing about a second Argo CD).
 */
function definesArgoCd(model: InstallModel, inst: Instance): boolean {
  if (inst.key.startsWith('app:')) return true;
  const keys = new Set(installKeys(inst));
  return model.scan.targets.some(
    (t) => (t.kind === 'helm-values' || t.kind === 'argocd-cr') && t.instance !== undefined && keys.has(t.instance),
  );
}

/** "terraform/…/install.yaml states Argo CD 2.6.7 …; apps/argo/cd/ … state none": the sentence both lint and the report use. */
export function supersededWhy(v: GoverningVersion, roots: readonly string[], versionText: string): string {
  const names = (v.superseded ?? []).map((i) => (i.key.startsWith('app:') ? i.name : `${i.name}/`));
  return `${relativePath(roots, v.pick.file)} installs ${versionText}, but nothing in the repository deploys it (a bootstrap applied from outside, e.g. by hand, Terraform or a script), and ${names.join(', ')} ${names.length === 1 ? 'defines' : 'define'} Argo CD for the same ApplicationSets without saying which version`;
}
