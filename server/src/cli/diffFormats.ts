/**
 * Text and markdown forms of `appset diff`. The markdown is a pull-request comment: a marker line (so
 * the GitHub Action and the GitLab job update their previous comment instead of adding one), a
 * summary line, one table per changed ApplicationSet, and the field-level details folded.
 */
import type { Json } from '../engine';
import type { AppChange, AppSetDiff, DiffReport, StepSize } from './appsetDiff';

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
  return `${plural(s.applicationSets, 'ApplicationSet')} changed against ${r.base}: Applications ${parts.join(', ')}${moved}${deletes}; ${s.syncAtOnce ? `at most ${plural(s.syncAtOnce, 'Application')} sync at once` : 'nothing syncs'}.`;
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
    for (const e of a.errors.head) out.push(`  !! the controller fails at the head revision: ${e}`);
    if (a.generatesNothing) out.push(`  !! ${NOTHING}`);
    for (const l of rolloutLines(a)) out.push(`  rollout: ${l}`);
    for (const c of a.changes) {
      out.push(`  ${c.change === 'added' ? '+' : c.change === 'removed' ? '-' : '~'} ${c.name}: ${where(c)}`);
      for (const f of c.fields ?? []) out.push(`      ${f.path}: ${short(f.before)} → ${short(f.after)}`);
    }
    if (a.waves.length > 1)
      out.push(`  sync order: ${a.waves.map((w) => `${w.step ? `step ${w.step} wave ${w.wave}` : 'all'} (${w.apps.length})`).join(' → ')}`);
    if (!a.exact) out.push('  note: the preview is not exact (live-data generators or non-deterministic functions)');
  }
  return out.join('\n') + '\n';
}

/** Markdown table cell: no pipes, newlines or HTML. */
const cell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\r?\n/g, ' ');
const code = (s: string) => '`' + cell(s).replace(/`/g, "'") + '`';
const ICON: Record<AppChange['change'], string> = { added: '➕ added', removed: '➖ removed', changed: '✏️ changed' };

export function diffMarkdown(r: DiffReport): string {
  const out: string[] = [COMMENT_MARKER, `### ApplicationSet changes`, '', `**${cell(summaryText(r))}**`];
  for (const a of r.appsets) {
    if (a.status === 'unchanged') continue;
    out.push(
      '',
      `#### ${code(a.name || '(unnamed)')}${a.renamedFrom !== undefined ? ` (renamed from ${code(a.renamedFrom)})` : ''} · ${cell(a.file.head ?? a.file.base ?? '')}`,
    );
    out.push(
      '',
      `${a.status === 'added' ? 'New ApplicationSet. ' : a.status === 'removed' ? 'ApplicationSet deleted: Kubernetes deletes its Applications. ' : ''}Strategy: ${cell(strategyText(a))} — ${cell(counts(a))}.`,
    );
    for (const e of a.errors.head) out.push('', `> ❗ The controller fails at this revision: ${cell(e)}`);
    if (a.generatesNothing) out.push('', `> ⚠️ ${NOTHING}`);
    const rollout = rolloutLines(a);
    if (rollout.length) out.push('', ...rollout.map((l) => `- Rollout: ${cell(l)}`));
    if (!a.changes.length) continue;
    out.push('', '| Application | change | syncs in | changed fields |', '| --- | --- | --- | --- |');
    const rows = a.changes.map(
      (c) =>
        `| ${code(c.name)} | ${ICON[c.change]} | ${cell(where(c))} | ${cell(
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
        out.push(`- ${code(c.name)}`);
        for (const f of c.fields!) out.push(`  - ${code(f.path)}: ${code(short(f.before))} → ${code(short(f.after))}`);
      }
      out.push('', '</details>');
    }
    if (a.waves.length > 1)
      out.push(
        '',
        `Sync order: ${a.waves.map((w) => `${w.step ? `step ${w.step} wave ${w.wave}` : 'all'} (${w.apps.length})`).join(' → ')}`,
      );
  }
  out.push('', `<sub>appset diff --base ${cell(r.base)}</sub>`);
  return out.join('\n') + '\n';
}
