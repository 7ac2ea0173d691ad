/**
 * Plain-words descriptions of a plan, shared by the code lenses, the hover and `appset plan`.
 */
import type { PlanStep, RolloutPlan } from './types';

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** `maxUpdate 50% → 2 at a time, 2 waves` / `all at once, 1 wave` / `maxUpdate 0 → manual gate`. */
export function stepPace(s: PlanStep): string {
  const mu = s.maxUpdate === undefined ? '' : `maxUpdate ${s.maxUpdate}${s.maxUpdateError ? ' (invalid)' : ''} → `;
  if (s.manual) return `${mu}manual gate: sync by hand`;
  if (s.concurrency === null) return `${mu}all at once, ${plural(s.waves.length, 'wave')}`;
  return `${mu}${s.concurrency} at a time, ${plural(s.waves.length, 'wave')}`;
}

/** `Step 2 · tier In (low-traffic) · 3 apps · maxUpdate 50% → 2 at a time, 2 waves`. */
export function stepTitle(s: PlanStep): string {
  return `Step ${s.step} · ${s.selector} · ${plural(s.apps.length, 'app')} · ${stepPace(s)}`;
}

/** `3 steps · 12 apps · 7 waves · 0 unselected`. */
export function planTitle(p: RolloutPlan): string {
  const parts = [plural(p.steps.length, 'step'), plural(p.totalApps, 'app'), plural(p.totalWaves, 'wave'), `${p.unselected.length} unselected`];
  const manual = p.steps.filter((s) => s.manual).length;
  if (manual) parts.push(plural(manual, 'manual gate'));
  if (p.enablement.state !== 'enabled') parts.push(p.enablement.state === 'disabled' ? 'IGNORED: progressive syncs disabled' : 'progressive syncs not found enabled');
  return parts.join(' · ');
}

/** maxUpdate in plain words. */
export function explainMaxUpdate(s: PlanStep): string {
  const m = s.apps.length - (s.syncedEarlier?.length ?? 0);
  const all = `the next step starts when all ${m} are Healthy`;
  const base = s.percentageBase !== undefined && typeof s.maxUpdate === 'string' && s.maxUpdate.endsWith('%') ? ` (${s.maxUpdate} of ${s.percentageBase})` : '';
  const rules = 'percentages round down, minimum 1; 0 = manual';
  if (s.manual) return `maxUpdate ${s.maxUpdate}: the controller syncs none of this step's ${m} Applications — sync them by hand; ${all}.`;
  if (s.concurrency === null) return `No maxUpdate: all ${m} of this step's Applications sync at the same time; ${all}.`;
  const err = s.maxUpdateError ? ` "${s.maxUpdate}" is not an integer or "<int>%" (${s.maxUpdateError}), so the controller uses 1.` : '';
  return `At most ${s.concurrency}${base} of this step's ${m} Applications sync at the same time; ${all}; ${rules}.${err}`;
}
