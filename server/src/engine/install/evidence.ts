/**
 * What the install scan (scan.ts) reports: the evidence of progressive syncs and of the other
 * controller settings the engine models, where each configuration lives (for the quick fixes), and how
 * evidence decides. The names the controller reads are here once: its ConfigMap keys, flags and env vars
 * (Argo CD `cmd/argocd-applicationset-controller/commands/applicationset_controller.go`).
 */
import type { Span } from '../types';
import type { JsonPath } from '../yaml';
import type { Enablement, EnablementEvidence } from '@appset-tools/protocol';
import type { Instance } from './instances';
import type { Installers } from './installers';
import type { FormSite } from './sink';

export const CM_NAME = 'argocd-cmd-params-cm';
export const CM_KEY = 'applicationsetcontroller.enable.progressive.syncs';
export const FLAG = '--enable-progressive-syncs';
export const ENV = 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS';
export const OLD_CM_KEY = 'applicationsetcontroller.enable.progressive.rollouts';
export const OLD_FLAG = '--enable-progressive-rollouts';
export const OLD_ENV = 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_ROLLOUTS';
export const RENAMED = 'renamed to "progressive syncs" in Argo CD 2.6 (argo-cd PR #12265); the controller no longer reads it';

/**
 * The other controller settings the engine models, each as its ConfigMap key, flag and env var
 * (Argo CD `cmd/argocd-applicationset-controller/commands/applicationset_controller.go`, wired from
 * `argocd-cmd-params-cm` in `manifests/base/applicationset-controller/argocd-applicationset-controller-deployment.yaml`).
 */
export const CONTROLLER_SETTINGS = [
  {
    name: 'newGitFileGlobbing',
    cm: 'applicationsetcontroller.enable.new.git.file.globbing',
    flag: '--enable-new-git-file-globbing',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_NEW_GIT_FILE_GLOBBING',
    bool: true,
  },
  { name: 'policy', cm: 'applicationsetcontroller.policy', flag: '--policy', env: 'ARGOCD_APPLICATIONSET_CONTROLLER_POLICY' },
  {
    name: 'policyOverride',
    cm: 'applicationsetcontroller.enable.policy.override',
    flag: '--enable-policy-override',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_POLICY_OVERRIDE',
    bool: true,
  },
  {
    name: 'scmProviders',
    cm: 'applicationsetcontroller.enable.scm.providers',
    flag: '--enable-scm-providers',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_SCM_PROVIDERS',
    bool: true,
  },
  {
    name: 'allowedScmProviders',
    cm: 'applicationsetcontroller.allowed.scm.providers',
    flag: '--allowed-scm-providers',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_ALLOWED_SCM_PROVIDERS',
  },
  {
    name: 'namespaces',
    cm: 'applicationsetcontroller.namespaces',
    flag: '--applicationset-namespaces',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_NAMESPACES',
  },
  // Read by the application controller and the API server, not by the ApplicationSet controller
  // (`--application-namespaces`, util/security/application_namespaces.go IsNamespaceEnabled): an
  // ApplicationSet outside Argo CD's namespace creates its Applications in its own namespace, which must be
  // enabled here too. Only the ConfigMap key is read (the flag and env var belong to other Deployments).
  { name: 'applicationNamespaces', cm: 'application.namespaces', flag: '', env: '' },
] as const;

export type ControllerSettingName = (typeof CONTROLLER_SETTINGS)[number]['name'];

/** One value of a modelled controller setting, as written in one place. */
export interface SettingEvidence {
  setting: ControllerSettingName;
  value: string;
  level: EvidenceLevel;
  file: string;
  /** `argocd/argocd-cmd-params-cm.yaml:7` */
  where?: string;
  span?: Span;
  instance?: string;
  /** Internal: where it sits, for the span. */
  site?: FormSite;
}

/** Which controller input a piece of evidence sets; decides precedence. */
export type EvidenceLevel = 'flag' | 'env' | 'configmap';

/** Where a configuration lives, so a quick fix can edit it. */
export type ConfigTargetKind = 'configmap' | 'helm-values' | 'argocd-cr' | 'configmap-generator';

export interface ConfigTarget {
  kind: ConfigTargetKind;
  file: string;
  /** Index of the YAML document in the file. */
  docIndex: number;
  /** Key of the install it configures (see instances.ts). */
  instance?: string;
  /** Path of the list to extend inside the document (configMapGenerator literals), or the key an umbrella chart's argo-cd values sit under. */
  path?: JsonPath;
  /** Helm merge position of these values (the fix writes in the values Helm reads last). */
  rank?: number;
}

export interface DetailedEvidence extends EnablementEvidence {
  level?: EvidenceLevel;
  /** Span of the scalar that holds the setting, for quick fixes (only for plain YAML fields). */
  valueSpan?: Span;
  /** The replacement text that makes this piece of evidence enable the feature. */
  enableText?: string;
  /** Key of the install it configures (see instances.ts). */
  instance?: string;
  /** A remote kustomize base that could configure the controller but cannot be read offline. */
  unread?: true;
  /** Written but not deployed: what is missing (the file is built or applied by nothing). */
  undeployed?: string;
  /** Ignored because the kustomization beside its file does not list the file (the fix adds it to its resources). */
  unlisted?: true;
}

export interface EnablementDetails extends Enablement {
  evidence: DetailedEvidence[];
  /** Argo CD configuration resources found (edited by the "enable" quick fix when nothing decides). */
  targets: ConfigTarget[];
}

export const SEARCHED = [
  `ConfigMap ${CM_NAME} (data, kustomize configMapGenerator)`,
  'Deployment argocd-applicationset-controller (args, env), also as kustomize patches',
  'argo-cd Helm chart values (configs.params, applicationSet.extraArgs/extraEnv), also inline in Argo CD Applications',
  'ArgoCD resources of the Argo CD Operator (spec.applicationSet.extraCommandArgs/env)',
];

export interface WorkspaceScan {
  evidence: DetailedEvidence[];
  /** The other controller settings the engine models (git file globbing, policy, SCM providers, namespaces). */
  settings: SettingEvidence[];
  targets: ConfigTarget[];
  instances: Instance[];
  /** Folders an Application's or Flux Kustomization's path deploys (installers.ts). */
  deployed: Installers['deployed'];
  /** Namespaces that hold Argo CD Applications of the repository, each with the first file that does. */
  appNamespaces: { namespace: string; file: string }[];
  /** Installs whose controller settings reached the model's bound: their settings are not all known. */
  settingsTruncated: string[];
  /**
   * Bounds the workspace listing reached (YAML files, folder entries, depth, Terraform files), one
   * sentence each: files never read, any of which may install or configure Argo CD, so an answer
   * about the configuration is unknown (install/completeness.ts).
   */
  listingCaps?: string[];
}

/** Combines evidence into a state: flag > env > ConfigMap; within a level any enabling evidence wins. */
export function decide(evidence: DetailedEvidence[]): 'enabled' | 'disabled' | 'not-found' {
  for (const level of ['flag', 'env', 'configmap'] as const) {
    const at = evidence.filter((e) => e.level === level && e.effect !== 'ignored');
    if (at.some((e) => e.effect === 'enables')) return 'enabled';
    if (at.length) return 'disabled';
  }
  return 'not-found';
}

/** The evidence that decided a state (the first at the deciding level). */
export function firstDeciding(evidence: DetailedEvidence[], state: 'enabled' | 'disabled' | 'not-found'): DetailedEvidence | undefined {
  if (state === 'not-found') return undefined;
  for (const level of ['flag', 'env', 'configmap'] as const) {
    const e = evidence.find((x) => x.level === level && x.effect === (state === 'enabled' ? 'enables' : 'disables'));
    if (e) return e;
  }
  return undefined;
}
