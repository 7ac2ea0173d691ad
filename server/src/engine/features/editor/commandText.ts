/**
 * What the server's commands return and say, for editors without a preview window or a rollout view
 * (Neovim, Helix, Emacs): the plan as plain text, and a one-line summary of the preview and the plan
 * for the message a lens shows. The VS Code client draws the same data in its own views.
 */
import type { Expansion } from '../../expand/types';
import type { RolloutPlan } from '@appset-tools/protocol';
import { enablementLine, planTitle, rollingSyncLines, skippedLine } from '../../rollout/describe';

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
const MAX_NAMES = 5;

function names(list: string[]): string {
  const shown = list.slice(0, MAX_NAMES).join(', ');
  return list.length > MAX_NAMES ? `${shown}, … (${list.length - MAX_NAMES} more)` : shown;
}

/** `guestbook: 3 Applications (guestbook-dev, …) · not exact: …` */
export function previewSummary(name: string, exp: Expansion): string {
  const apps = [...exp.apps].map((a) => a.name || '(no name)').sort();
  const head = `${name || 'ApplicationSet'}: ${plural(apps.length, 'Application')}${exp.capped ? '+' : ''}`;
  return `${head}${apps.length ? ` (${names(apps)})` : ''}${exp.exact ? '' : ' · not exact: ' + exp.notes.join('; ')}`;
}

/** `guestbook: RollingSync · 2 steps · …` or the AllAtOnce blast radius. */
export function planSummary(p: RolloutPlan): string {
  if (p.strategy === 'AllAtOnce')
    return `${p.appset || 'ApplicationSet'}: AllAtOnce — ${plural(p.totalApps, 'Application')} on ${plural(p.clusters ?? 0, 'cluster')} sync at the same time`;
  return `${p.appset || 'ApplicationSet'}: RollingSync · ${planTitle(p)}`;
}

/** The plan as text: steps, waves and every Application (what `appset plan` prints, without file positions). */
export function planText(p: RolloutPlan): string {
  const out: string[] = [planSummary(p)];
  const en = p.enablement;
  out.push(enablementLine(en));
  for (const e of en.evidence) out.push(`  ${e.effect}: ${e.file === 'setting' ? '' : e.file + ': '}${e.description}`);
  if (p.strategy === 'RollingSync') out.push(...rollingSyncLines(p));
  else {
    const sk = skippedLine(p);
    if (sk) out.push(sk);
  }
  return out.join('\n') + '\n';
}
