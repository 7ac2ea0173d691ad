/**
 * How many Applications one commit syncs at the same time — the number a CI gate and the editor's
 * policy note both ask about. One home for it: an effective RollingSync syncs wave by wave (plan.ts);
 * anything else (AllAtOnce, or a RollingSync the controller ignores because progressive syncs are
 * off) syncs every valid Application in one wave.
 */
import type { AppSetContext } from '../context';
import { getRolloutPlan } from './plan';
import type { RolloutPlan } from '@appset-tools/protocol';

export interface SyncWave {
  /** 1-based RollingSync step, absent for all-at-once. */
  step?: number;
  /** 1-based wave number within the step (1 for all-at-once). */
  wave: number;
  apps: string[];
}

export interface SyncWaves {
  /** 'rolling' when the controller runs the RollingSync plan; 'all-at-once' otherwise. */
  mode: 'rolling' | 'all-at-once';
  waves: SyncWave[];
  /** The largest wave (first one when tied); undefined when there is no Application. */
  largest?: SyncWave;
  /** The RollingSync plan as written, whatever the controller does with it. */
  plan: RolloutPlan;
}

/** The waves one commit syncs for this ApplicationSet, as the controller would run them. */
export function syncWaves(ctx: AppSetContext): SyncWaves {
  return ctx.memo('rollout.syncWaves', () => {
    const plan = getRolloutPlan(ctx);
    let waves: SyncWave[];
    if (plan.effective) {
      waves = plan.steps.flatMap((s) => s.waves.map((w) => ({ step: s.step, wave: w.wave, apps: w.apps })));
    } else {
      const apps = ctx
        .expansion()
        .apps.filter((a) => !a.invalid?.length)
        .map((a) => a.name);
      waves = apps.length ? [{ wave: 1, apps }] : [];
    }
    let largest: SyncWave | undefined;
    for (const w of waves) if (!largest || w.apps.length > largest.apps.length) largest = w;
    return { mode: plan.effective ? 'rolling' : 'all-at-once', waves, largest, plan };
  });
}
