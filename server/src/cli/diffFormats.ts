/**
 * Text and markdown forms of `appset diff`. The markdown is a pull-request comment: a marker line (so
 * the GitHub Action and the GitLab job update their previous comment instead of adding one), a
 * summary line, one table per changed ApplicationSet, and the field-level details folded.
 */
import type { AppChange, AppSetDiff, DiffReport, Json, StepSize } from '@appset-tools/engine';
import { messageLine, textLines } from './safeText';
import { mdCode, mdCodeProse, mdText } from './safeMarkdown';

const NOTHING =
  'the generators produce no Application at this revision (a selector or path that matches nothing now): the controller deletes every Application of this ApplicationSet';

export const COMMENT_MARKER = '<!-- appset-tools:diff -->';
/** Rows shown per ApplicationSet table before the rest is folded. */
const TABLE_ROWS = 25;

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

export function summaryText(r: DiffReport): string {
  const s = r.summary;
  if (!s.added && !s.removed && !s.changed && !s.applicationSets) return `No generated Application changes against ${r.base}.`;
  const parts = [`${s.added} added`, `${s.removed} removed`, `${s.changed} changed`];
  const moved = s.moved ? `, ${plural(s.moved, 'Application')} move between rollout steps` : '';
  const deletes = s.deletesResources
    ? `; ${plural(s.deletesResources, 'removal')} ${s.deletesResources === 1 ? 'deletes' : 'delete'} the resources in the cluster`
    : '';
  return `${plural(s.applicationSets, 'ApplicationSet')} changed against ${r.base}: Applications ${parts.join(', ')}${moved}${deletes}; ${atOnceText(s)}.`;
}

/**
 * How many Applications sync at once. Each ApplicationSet rolls out on its own, so with several the merge
 * starts every one's first wave together: that sum is the headline, not the largest wave of one of them.
 */
function atOnceText(s: DiffReport['summary']): string {
  if (!s.syncAtOnce) return 'nothing syncs';
  if (s.startingAppSets <= 1) return `at most ${plural(s.syncAtOnce, 'Application')} sync at once`;
  return `this merge starts ${plural(s.startsAtOnce, 'Application')} syncing at once across ${s.startingAppSets} ApplicationSets (each rolls out on its own; the largest wave of one is ${s.syncAtOnce})`;
}

/** A removed Application: what goes, consequence first. */
function deletionText(c: AppChange): string {
  const d = c.deletion;
  if (!d) return 'deleted';
  if (d.application === 'kept') return `not deleted: ${d.why}`;
  return d.resources === 'deleted' ? `deleted with its resources (${d.why})` : `deleted, its resources stay (${d.why})`;
}

function where(c: AppChange): string {
  if (c.change === 'removed') return deletionText(c);
  const moved =
    c.fromStep !== undefined
      ? c.step !== undefined
        ? `moves from step ${c.fromStep} to step ${c.step}`
        : `leaves step ${c.fromStep}`
      : '';
  let what: string;
  if (!c.syncs) what = c.change === 'changed' ? 'no sync (metadata only)' : 'not created (invalid)';
  else if (c.note) what = c.note;
  else if (c.step === undefined) what = 'all at once';
  else what = `step ${c.step} · wave ${c.wave ?? '-'}`;
  return moved ? `${what}; ${moved}` : what;
}

function strategyText(a: AppSetDiff): string {
  const s = a.strategy;
  const ignored = ' (ignored: progressive syncs not enabled)';
  const head = s.head ? `${s.head}${s.head === 'RollingSync' && !s.effective ? ignored : ''}` : '';
  const base = s.base ? `${s.base}${s.base === 'RollingSync' && s.effectiveBase === false ? ignored : ''}` : '';
  if (s.base && s.head && base !== head) return `${base} → ${head}`;
  return head || base;
}

const stepList = (steps: StepSize[] | undefined) =>
  steps
    ? steps.map((s) => `${s.step}: ${s.apps}${s.atOnce !== s.apps ? ` (${s.atOnce ? `${s.atOnce} at once` : 'manual'})` : ''}`).join(', ')
    : 'none';

/** What the change does to the rollout itself, one line each; nothing when the plan is the same. */
export function rolloutLines(a: AppSetDiff): string[] {
  const r = a.rollout;
  const out: string[] = [];
  if (JSON.stringify(r.base) !== JSON.stringify(r.head) && (r.base || r.head))
    out.push(`steps (Applications per step): ${stepList(r.base)} → ${stepList(r.head)}`);
  for (const s of r.emptied) {
    const sel = r.base?.find((x) => x.step === s)?.selector;
    out.push(`step ${s}${sel ? ` (${sel})` : ''} now selects no Application: that stage of the rollout disappears`);
  }
  for (const g of r.grown) out.push(`step ${g.step} syncs ${g.to} Applications at once (was ${g.from})`);
  if (r.atOnce.base !== undefined && r.atOnce.head !== undefined && r.atOnce.base !== r.atOnce.head)
    out.push(`when every Application syncs, at most ${r.atOnce.head} sync at once (was ${r.atOnce.base})`);
  return out;
}

/**
 * The rollout timeline before → after (`rollout/timeline.ts`, the same words `appset plan` and the
 * rollout view print), then where the head's rollout stops; nothing when neither side has one.
 */
export function timelineLines(a: AppSetDiff): string[] {
  const { base, head } = a.timeline;
  if (!base && !head) return [];
  const out = [
    base && head && base.summary !== head.summary
      ? `${base.summary} → ${head.summary}`
      : `${(head ?? base)!.summary}${head ? '' : ' (before; the ApplicationSet is deleted)'}`,
  ];
  for (const x of head?.stops ?? []) out.push(`stop at step ${x.step}: ${x.text}${x.where ? ` (${x.where})` : ''}`);
  return out;
}

function title(a: AppSetDiff): string {
  const renamed = a.renamedFrom !== undefined ? ` (renamed from ${a.renamedFrom})` : '';
  const status =
    a.status === 'added'
      ? 'new ApplicationSet'
      : a.status === 'removed'
        ? 'ApplicationSet deleted'
        : a.status === 'renamed'
          ? 'renamed'
          : 'changed';
  return `${a.name || '(unnamed)'}${renamed} — ${status}, ${a.file.head ?? a.file.base}`;
}

function counts(a: AppSetDiff): string {
  const n = (k: AppChange['change']) => a.changes.filter((c) => c.change === k).length;
  return `${n('added')} added, ${n('removed')} removed, ${n('changed')} changed, ${a.unchanged} unchanged; ${a.syncAtOnce ? `at most ${plural(a.syncAtOnce, 'Application')} sync at once` : 'nothing syncs'}`;
}

const short = (v: Json | undefined) => {
  if (v === undefined) return '(none)';
  const s = JSON.stringify(v);
  return s.length > 80 ? s.slice(0, 77) + '…' : s;
};

export function diffText(r: DiffReport): string {
  const out: string[] = [summaryText(r)];
  for (const a of r.appsets) {
    if (a.status === 'unchanged') continue;
    out.push('', `ApplicationSet ${title(a)}`, `  strategy: ${strategyText(a)}; ${counts(a)}`);
    for (const e of a.errors.head) out.push(`  !! the controller fails at the head revision: ${messageLine(e)}`);
    if (a.generatesNothing) out.push(`  !! ${NOTHING}`);
    for (const l of rolloutLines(a)) out.push(`  rollout: ${l}`);
    for (const l of timelineLines(a)) out.push(`  timeline: ${l}`);
    for (const c of a.changes) {
      out.push(`  ${c.change === 'added' ? '+' : c.change === 'removed' ? '-' : '~'} ${c.name}: ${where(c)}`);
      for (const f of c.fields ?? []) out.push(`      ${f.path}: ${short(f.before)} → ${short(f.after)}`);
    }
    if (a.waves.length > 1)
      out.push(`  sync order: ${a.waves.map((w) => `${w.step ? `step ${w.step} wave ${w.wave}` : 'all'} (${w.apps.length})`).join(' → ')}`);
    if (!a.exact) out.push('  note: the preview is not exact (live-data generators or non-deterministic functions)');
  }
  const assumes = assumptionsOf(r);
  if (assumes) out.push('', `timeline assumes: ${assumes}`);
  return textLines(out);
}

// User text in the comment goes through safeMarkdown.ts: names and values as code, prose escaped.
const ICON: Record<AppChange['change'], string> = { added: '➕ added', removed: '➖ removed', changed: '✏️ changed' };

/**
 * The pull-request comment must fit GitHub's 65,536 characters: under this budget, every changed
 * ApplicationSet's summary, rollout and sync order come first; its table and field changes follow while
 * they fit, and what is left out is said in a visible line at the end (never inside a fold).
 */
export const COMMENT_LIMIT = 60_000;

export function diffMarkdown(r: DiffReport, limit = COMMENT_LIMIT): string {
  const head = [COMMENT_MARKER, `### ApplicationSet changes`, '', `**${mdText(summaryText(r))}**`];
  const assumes = assumptionsOf(r);
  const footer = ['', `<sub>${assumes ? `Timelines assume ${mdText(assumes)}. ` : ''}appset diff --base ${mdText(r.base)}</sub>`];
  const sections = r.appsets.filter((a) => a.status !== 'unchanged').map((a) => ({ a, top: topLines(a), details: detailLines(a) }));
  const size = (lines: string[]) => lines.reduce((n, l) => n + l.length + 1, 0);
  // Room for the note that says what was cut.
  let used = size(head) + size(footer) + 1000;
  const withTop = new Set<number>();
  const withDetails = new Set<number>();
  /** ApplicationSets shown with their first rows only. */
  const partly = new Set<number>();
  sections.forEach((s, i) => {
    if (used + size(s.top) <= limit) {
      used += size(s.top);
      withTop.add(i);
    }
  });
  sections.forEach((s, i) => {
    if (!withTop.has(i)) return;
    if (used + size(s.details) <= limit) {
      used += size(s.details);
      withDetails.add(i);
      return;
    }
    // Too long whole: its first rows (the table without the folds) when they fit.
    const end = s.details.findIndex((l, j) => j >= 3 && !l.startsWith('|'));
    const firstRows = s.details.slice(0, end < 0 ? undefined : end);
    if (used + size(firstRows) <= limit) {
      used += size(firstRows);
      s.details = firstRows;
      partly.add(i);
    }
  });
  const out = [...head];
  sections.forEach((s, i) => {
    if (withTop.has(i)) out.push(...s.top);
    if (withDetails.has(i) || partly.has(i)) out.push(...s.details);
  });
  const left = sections.filter((s, i) => !withTop.has(i)).map((s) => mdCodeProse(s.a.name || '(unnamed)'));
  const noDetails = sections
    .filter((s, i) => withTop.has(i) && !withDetails.has(i) && s.a.changes.length)
    .map((s) => mdCodeProse(s.a.name || '(unnamed)'));
  if (left.length || noDetails.length) {
    const parts = [
      left.length ? `${left.length} ApplicationSet${left.length === 1 ? '' : 's'} left out (${list(left)})` : '',
      noDetails.length ? `the Applications of ${list(noDetails)} (all but the first ${TABLE_ROWS}, or all) left out` : '',
    ].filter(Boolean);
    out.push(
      '',
      `> ✂️ **This comment is cut to fit: ${parts.join('; ')}.** The whole report is the job's artifact (\`appset-diff.md\` in \`appset-tools-report\`, written by \`--report\`), or run ${mdCodeProse(`appset diff --base ${r.base}`)} locally.`,
    );
  }
  out.push(...footer);
  return textLines(out);
}

/** What the timelines shown assume (said once: every side computes them with the same setting). */
function assumptionsOf(r: DiffReport): string | undefined {
  const shown = r.appsets.filter((a) => a.status !== 'unchanged');
  const tl =
    shown.map((a) => a.timeline.head ?? a.timeline.base).find((t) => t?.mode === 'rolling') ??
    shown.map((a) => a.timeline.head ?? a.timeline.base).find(Boolean);
  return tl?.assumptions.join('; ');
}

/** At most five names, then how many more. */
const list = (names: string[]) => names.slice(0, 5).join(', ') + (names.length > 5 ? `, and ${names.length - 5} more` : '');

/** An ApplicationSet's heading, what happens to it, its rollout and sync order: always shown. */
function topLines(a: AppSetDiff): string[] {
  const out = [
    '',
    `#### ${mdCodeProse(a.name || '(unnamed)')}${a.renamedFrom !== undefined ? ` (renamed from ${mdCodeProse(a.renamedFrom)})` : ''} · ${mdText(a.file.head ?? a.file.base ?? '')}`,
    '',
    `${a.status === 'added' ? 'New ApplicationSet. ' : a.status === 'removed' ? 'ApplicationSet deleted: Kubernetes deletes its Applications. ' : ''}Strategy: ${mdText(strategyText(a))} — ${mdText(counts(a))}.`,
  ];
  for (const e of a.errors.head) out.push('', `> ❗ The controller fails at this revision: ${mdText(e)}`);
  if (a.generatesNothing) out.push('', `> ⚠️ ${NOTHING}`);
  const rollout = rolloutLines(a);
  if (rollout.length) out.push('', ...rollout.map((l) => `- Rollout: ${mdText(l)}`));
  const [when, ...stops] = timelineLines(a);
  if (when) out.push('', `⏱️ Timeline: ${mdText(when)}`, ...(stops.length ? ['', ...stops.map((l) => `- ⏸️ ${mdText(l)}`)] : []));
  if (a.changes.length && a.waves.length > 1)
    out.push('', `Sync order: ${a.waves.map((w) => `${w.step ? `step ${w.step} wave ${w.wave}` : 'all'} (${w.apps.length})`).join(' → ')}`);
  return out;
}

/** The Applications that change: the first rows as a table, the rest and the field changes folded. */
function detailLines(a: AppSetDiff): string[] {
  if (!a.changes.length) return [];
  const out = ['', '| Application | change | syncs in | changed fields |', '| --- | --- | --- | --- |'];
  const rows = a.changes.map(
    (c) =>
      `| ${mdCode(c.name)} | ${ICON[c.change]} | ${mdText(where(c))} | ${mdText(
        (c.fields ?? [])
          .slice(0, 3)
          .map((f) => f.path)
          .join(', ') + ((c.fields?.length ?? 0) > 3 ? ', …' : ''),
      )} |`,
  );
  out.push(...rows.slice(0, TABLE_ROWS));
  if (rows.length > TABLE_ROWS) {
    out.push(
      '',
      `<details><summary>${rows.length - TABLE_ROWS} more Applications</summary>`,
      '',
      '| Application | change | syncs in | changed fields |',
      '| --- | --- | --- | --- |',
      ...rows.slice(TABLE_ROWS),
      '',
      '</details>',
    );
  }
  const detailed = a.changes.filter((c) => c.fields?.length);
  if (detailed.length) {
    out.push('', '<details><summary>Field changes</summary>', '');
    for (const c of detailed) {
      out.push(`- ${mdCodeProse(c.name)}`);
      for (const f of c.fields!) out.push(`  - ${mdCodeProse(f.path)}: ${mdCodeProse(short(f.before))} → ${mdCodeProse(short(f.after))}`);
    }
    out.push('', '</details>');
  }
  return out;
}
