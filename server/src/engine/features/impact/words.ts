/**
 * What the editor says of a change's impact: the lens over the ApplicationSet, its key fact first
 * ("This change: 540 Applications sync, all at once on 12 clusters (strategy ignored)"), and the
 * hover with the breakdown (counts, waves, the rollout before → after, steps emptied or grown,
 * Applications that move, deletions). Nothing when nothing changes.
 */
import { minutesText } from '../../rollout/timeline';
import type { AppSetDiff } from './diff';
import type { ChangeImpact } from './summary';

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;
const MAX_ROWS = 8;

/** `the canary step` for a step that selects one value of one label, else `step 1 (tier In (canary, edge))`. */
export function stepName(step: number, selector: string): string {
  const one = /^[^ ]+ In \(([^,()]+)\)$/.exec(selector);
  return one ? `the ${one[1]} step` : `step ${step}${selector ? ` (${selector})` : ''}`;
}

function deletionWords(i: ChangeImpact): string | undefined {
  if (!i.removed) return undefined;
  if (!i.deleted) return `${plural(i.removed, 'Application')} no longer generated, kept`;
  if (i.deletesResources === i.deleted) return `${i.deleted} deleted with their resources`;
  if (!i.deletesResources) return `${i.deleted} deleted (resources kept)`;
  return `${i.deleted} deleted (${i.deletesResources} with their resources)`;
}

/** The lens title; undefined when nothing changes. */
export function impactLensTitle(i: ChangeImpact): string | undefined {
  if (i.none) return undefined;
  const parts: string[] = [];
  if (i.generatesNothing) parts.push(`the generators produce nothing: every Application goes`);
  if (i.syncing) {
    const who =
      i.syncing === i.total && i.total > 1
        ? `all ${i.total} Applications sync`
        : `${plural(i.syncing, 'Application')} sync${i.syncing === 1 ? 's' : ''}`;
    if (i.mode === 'rolling') {
      parts.push(who, plural(i.waves, 'wave'));
      if (i.minutes) parts.push(minutesText(i.minutes));
    } else
      parts.push(
        `${who}, ${i.syncing === 1 ? 'on' : 'all at once on'} ${plural(i.clusters, 'cluster')}${i.mode === 'ignored' ? ' (strategy ignored)' : ''}`,
      );
  } else if (i.changed || i.added)
    parts.push(`${plural(i.changed + i.added, 'Application')} change${i.changed + i.added === 1 ? 's' : ''}, none syncs`);
  for (const e of i.emptied) parts.push(`${stepName(e.step, e.selector)} is now empty`);
  for (const g of i.grown) parts.push(`step ${g.step} now syncs ${g.to} at once (was ${g.from})`);
  const del = deletionWords(i);
  if (del) parts.push(del);
  if (!parts.length) parts.push('the rollout plan changes, no Application syncs');
  return `This change: ${parts.join(' · ')}`;
}

/** The breakdown (markdown) shown on hovering the ApplicationSet's first line; `baseline` names what it is compared with. */
export function impactMarkdown(i: ChangeImpact, d: AppSetDiff, baseline: string): string | undefined {
  if (i.none) return undefined;
  const out: string[] = [`**This change** (against ${baseline}), ApplicationSet \`${d.name}\``, ''];
  out.push(
    `- ${plural(i.added, 'Application')} added, ${i.removed} removed, ${i.changed} changed; ${plural(i.syncing, 'Application')} sync${i.syncing === 1 ? 's' : ''} (of ${i.total})`,
  );
  if (i.syncing) {
    if (i.mode === 'rolling')
      out.push(
        `- in ${plural(i.waves, 'wave')} one after another, at most ${i.atOnce} at once on ${plural(i.clustersAtOnce, 'cluster')}` +
          (i.minutes ? `: ${minutesText(i.minutes)} at ${i.minutesPerSync} min a sync` : ''),
      );
    else
      out.push(
        `- all at once on ${plural(i.clusters, 'cluster')}` +
          (i.mode === 'ignored'
            ? ': the RollingSync strategy is ignored (progressive syncs are not enabled on the controller)'
            : ' (no RollingSync strategy)'),
      );
  }
  const rows = d.waves.filter((w) => w.step !== undefined);
  for (const w of rows.slice(0, MAX_ROWS))
    out.push(
      `  - step ${w.step} wave ${w.wave}: ${plural(w.apps.length, 'Application')} (${w.apps.slice(0, 3).join(', ')}${w.apps.length > 3 ? ', …' : ''})`,
    );
  if (rows.length > MAX_ROWS) out.push(`  - and ${plural(rows.length - MAX_ROWS, 'more wave')}`);
  if (i.notSynced) out.push(`- ${plural(i.notSynced, 'Application')} the rollout never syncs (no step selects it, or a manual gate)`);
  const tb = d.timeline.base?.summary;
  const th = d.timeline.head?.summary;
  if (tb !== th) out.push(`- the rollout before → after: ${tb ?? 'none'} → ${th ?? 'none'}`);
  for (const e of i.emptied)
    out.push(`- ${stepName(e.step, e.selector)} (step ${e.step}) selected Applications before and selects none now`);
  for (const g of i.grown) out.push(`- step ${g.step}: ${g.from} → ${g.to} Applications at once`);
  const moved = d.changes.filter((c) => c.fromStep !== undefined);
  if (moved.length)
    out.push(
      `- ${plural(moved.length, 'Application')} move${moved.length === 1 ? 's' : ''} between steps: ` +
        moved
          .slice(0, MAX_ROWS)
          .map((c) => `${c.name} step ${c.fromStep} → ${c.step ?? 'none'}`)
          .join(', ') +
        (moved.length > MAX_ROWS ? ', …' : ''),
    );
  const removed = d.changes.filter((c) => c.change === 'removed');
  for (const c of removed.slice(0, MAX_ROWS))
    out.push(`- ${c.name}: Application ${c.deletion?.application}, resources ${c.deletion?.resources} (${c.deletion?.why})`);
  if (removed.length > MAX_ROWS) out.push(`- and ${plural(removed.length - MAX_ROWS, 'more removed Application')}`);
  for (const e of d.errors.head.slice(0, 3)) out.push(`- the controller fails now: ${e}`);
  if (!d.exact) out.push('- some Applications could not be rendered exactly here: these numbers are not certain');
  return out.join('\n');
}
