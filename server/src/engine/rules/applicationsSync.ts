/**
 * Which applications-sync policy the ApplicationSet controller applies to one ApplicationSet (argo-cd
 * `applicationset/utils/policy.go` and `cmd/argocd-applicationset-controller/commands/
 * applicationset_controller.go`): the ApplicationSet's own `spec.syncPolicy.applicationsSync` when it
 * sets one and the policy override is enabled, else the controller's `--policy` (empty = `sync`). The
 * override (`--enable-policy-override`) defaults to on only while the policy read from the environment
 * (`applicationsetcontroller.policy`) is empty: Argo CD v3.5.1 computes that default when the flags are
 * defined, before pflag parses `--policy`, so a `--policy` flag alone leaves it on.
 */
export type SyncPolicyName = 'sync' | 'create-only' | 'create-update' | 'create-delete';

const KNOWN = new Set<string>(['sync', 'create-only', 'create-update', 'create-delete']);

export interface EffectivePolicy {
  policy: SyncPolicyName;
  /** Plain words: which setting decided, e.g. `the controller's --policy create-only (…:12) overrides it`. */
  why: string;
}

/** The controller's settings as the install model gives them (values as written, with where). */
export interface ControllerPolicy {
  /** `flag`: given as `--policy`, which pflag parses after the override's default was computed. */
  policy?: { value: string; where: string; flag?: boolean };
  override?: { value: boolean; where: string };
  /**
   * The override when no `--enable-policy-override`/env sets it: on while the policy read from the
   * environment (env var or ConfigMap, not the `--policy` flag) is empty. Default: the policy is empty.
   */
  overrideDefault?: boolean;
}

export function effectivePolicy(own: string, controller: ControllerPolicy): EffectivePolicy {
  // Values as the controller reads them, untrimmed (an unknown policy stops it: lint says so).
  const ctl = controller.policy?.value ?? '';
  const overrideOn = controller.override ? controller.override.value : (controller.overrideDefault ?? ctl === '');
  const ctlWords = controller.policy
    ? `the controller's policy ${ctl || '(empty)'} (${controller.policy.where})`
    : "the controller's default policy";
  if (own && KNOWN.has(own) && overrideOn)
    return {
      policy: own as SyncPolicyName,
      why: `applicationsSync: ${own}${
        controller.override
          ? ` (policy override enabled by ${controller.override.where})`
          : controller.policy?.flag && ctl !== ''
            ? ` (${ctlWords} is a --policy flag, and the override stays on: its default is computed from the ConfigMap's policy, which is empty)`
            : ` (${ctlWords} lets it decide)`
      }`,
    };
  const policy = (KNOWN.has(ctl) ? ctl : 'sync') as SyncPolicyName;
  if (own && own !== policy)
    return {
      policy,
      why: `${ctlWords} applies: applicationsSync: ${own} is ignored because the policy override is off${controller.override ? ` (${controller.override.where})` : ''}`,
    };
  return { policy, why: controller.policy ? ctlWords : own ? `applicationsSync: ${own}` : "the controller's default policy (sync)" };
}

/** Whether a policy lets the controller delete Applications it no longer generates. */
export const policyDeletes = (p: SyncPolicyName): boolean => p === 'sync' || p === 'create-delete';
