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
    const override = settingOf(model, gov, 'policyOverride');
    return effectivePolicy(typeof own === 'string' ? own : '', {
      ...(policy ? { policy: { value: policy.value, where: policy.where } } : {}),
      ...(override ? { override: { value: settingBool(override), where: override.where } } : {}),
    });
  });
}
