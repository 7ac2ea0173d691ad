/**
 * The applications-sync policy the controller that runs an ApplicationSet applies to it: its own
 * `applicationsSync` against the governing install's `applicationsetcontroller.policy` and
 * `…enable.policy.override` (read from the install model, `install/model.ts` `settingOf`; the rule is
 * `rules/applicationsSync.ts`). `appset diff` says with it whether a removed Application goes.
 */
import type { AppSetContext } from '../context';
import { governingFor, installModel, settingBool, settingOf } from '../../install/model';
import { effectivePolicy, type EffectivePolicy } from '../../rules/applicationsSync';

export function applicationsSyncPolicy(ctx: AppSetContext): EffectivePolicy {
  return ctx.memo('policy.applicationsSync', () => {
    const spec = ctx.doc.value.spec;
    const sp = spec && typeof spec === 'object' && !Array.isArray(spec) ? spec.syncPolicy : undefined;
    const own = sp && typeof sp === 'object' && !Array.isArray(sp) ? sp.applicationsSync : undefined;
    const file = ctx.file;
    const model = installModel(file);
    const gov = governingFor(model, file, { path: file.path ?? '', namespace: ctx.doc.namespace || undefined });
    const policy = settingOf(model, gov, 'policy');
    // The override's default is `policy == ""` evaluated when the flags are defined, i.e. on the policy
    // read from the environment (env var or argocd-cmd-params-cm), before pflag parses `--policy`
    // (cmd/argocd-applicationset-controller/commands/applicationset_controller.go: the
    // --enable-policy-override default is computed right after StringVar(&policy, …) set the env
    // value). So a `--policy` flag alone leaves the override on.
    const fromEnv = settingOf(model, gov, 'policy', ['env', 'configmap']);
    const overrideDefault = (fromEnv?.value ?? '') === '';
    const override = settingOf(model, gov, 'policyOverride');
    return effectivePolicy(typeof own === 'string' ? own : '', {
      ...(policy ? { policy: { value: policy.value, where: policy.where, flag: policy.level === 'flag' } } : {}),
      overrideDefault,
      ...(override ? { override: { value: settingBool(override, overrideDefault), where: override.where } } : {}),
    });
  });
}
