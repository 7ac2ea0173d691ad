/**
 * `appset plan <file>`: the RollingSync plan of each ApplicationSet in a file — steps, waves and
 * every Application — plus the rollout diagnostics (is the strategy going to be honoured at all?).
 */
import * as path from 'node:path';
import type { CliIO } from './io';
import { oneLine, textLines } from './safeText';
import { mdCodeProse, mdText as md } from './safeMarkdown';
import {
  enablementLine,
  planTitle,
  rollingSyncLines,
  skippedLine,
  timelineLines,
  timelineMarkdown,
  type EngineDiagnostic,
  type RolloutPlan,
} from '@appset-tools/engine';
import {
  LineMap,
  loadOneFile,
  formatDiagnostic,
  INPUT_USAGE,
  INSTANCE_USAGE,
  VERSION_USAGE,
  MINUTES_USAGE,
  engineArgs,
  instanceProblem,
  sortDiagnostics,
  toPosix,
  readCommand,
  choice,
  onlyFile,
} from './common';

const USAGE = `usage: appset plan <file> [options]

Prints the RollingSync plan of each ApplicationSet in the file: its steps, the waves of each step
(maxUpdate Applications at a time, in Application-name order) and every Application, as the Argo CD
ApplicationSet controller would roll them out, plus whether the controller has progressive syncs enabled,
and the timeline: the order and about how long it takes at an assumed time per sync, and where a manual
gate or a sync window stops it.

options:
  --output text|json|markdown  output format (default text; markdown for a job summary or a comment)
${INPUT_USAGE}
  --progressive-syncs auto|enabled|disabled
                               whether progressive syncs are enabled on the controller (default auto: detect
                               from the configuration of the Argo CD instance that runs it)
${INSTANCE_USAGE}
${MINUTES_USAGE}
  --max-apps N                 stop expanding an ApplicationSet after N Applications
${VERSION_USAGE}
  --new-git-globbing           git file generators use the new globbing
  --no-limits                  lift the template work, step, output and slow-function budgets
  --no-fail                    exit 0 even when the rollout has warnings

exit status: 0 plan printed, 1 rollout warnings or errors (e.g. the strategy is ignored because progressive
syncs are disabled), 2 bad usage or unreadable file, 3 a document could not be checked (a limit), 4 no
ApplicationSet`;

interface PlanResult {
  plan: RolloutPlan;
  line: number;
  exact: boolean;
  notes: string[];
  diagnostics: (EngineDiagnostic & { line: number; col: number })[];
}

export async function runPlan(args: string[], io: CliIO): Promise<number> {
  const own = { values: ['output'], flags: ['no-fail'], instance: true };
  const opts = readCommand('plan', USAGE, args, own, io, (p) => ({
    ...engineArgs(p, io.cwd, true),
    output: choice(p, 'output', ['text', 'json', 'markdown']),
    file: onlyFile(p),
    noFail: p.flags.has('no-fail'),
  }));
  if (typeof opts === 'number') return opts;
  const { output, file, noFail, settings, workspace } = opts;
  const loaded = loadOneFile('plan', file, io, settings, workspace);
  if (typeof loaded === 'number') return loaded;
  const { abs, text, service, analysis } = loaded;
  const bad = instanceProblem(service.settings(analysis), service.roots());
  if (bad) {
    io.err(oneLine(`appset plan: ${bad}`) + '\n');
    return 2;
  }
  const lines = new LineMap(text);
  const shown = toPosix(path.relative(io.cwd, abs) || path.basename(abs));
  const all = sortDiagnostics(service.diagnostics(analysis));
  const appsets = service.appsets(analysis);
  const results: PlanResult[] = appsets.map(({ span }) => {
    const exp = service.applications(analysis, span.start)!;
    const inDoc = all.filter((d) => d.span.start >= span.start && d.span.start <= span.end);
    return {
      plan: service.rolloutPlan(analysis, span.start) as RolloutPlan,
      line: lines.position(span.start).line,
      exact: exp.exact,
      notes: exp.notes,
      diagnostics: inDoc
        .filter((d) => d.code.startsWith('rollout/') || d.severity === 'error')
        .map((d) => ({ ...d, ...lines.position(d.span.start) })),
    };
  });
  if (output === 'json') {
    io.out(JSON.stringify({ file: shown, plans: results }, null, 2) + '\n');
  } else if (output === 'markdown') {
    io.out(renderMarkdown(results, shown));
  } else {
    for (const r of results) io.out(renderText(r, shown, lines, io.cwd));
  }
  // Errors outside every ApplicationSet (a broken document beside them) fail the plan too.
  const outside = all.filter(
    (d) => d.severity === 'error' && !appsets.some((c) => d.span.start >= c.span.start && d.span.start <= c.span.end),
  );
  for (const d of outside) io.err(formatDiagnostic(shown, lines, d) + '\n');
  const failing = outside.length > 0 || results.some((r) => r.diagnostics.some((d) => d.severity === 'error' || d.severity === 'warning'));
  return failing && !noFail ? 1 : 0;
}

function relative(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith('..') ? toPosix(rel) : file;
}

function renderText(r: PlanResult, shown: string, lines: LineMap, cwd: string): string {
  const p = r.plan;
  const out: string[] = [];
  out.push(`ApplicationSet ${p.appset || '(unnamed)'} (${shown}:${r.line})`);
  const en = p.enablement;
  out.push(`  ${enablementLine(en, (f) => relative(f, cwd))}`);
  for (const n of en.notes ?? []) out.push(`    note: ${n}`);
  for (const e of en.evidence) out.push(`    ${e.effect}: ${e.file === 'setting' ? '' : relative(e.file, cwd) + ': '}${e.description}`);
  if (p.strategy === 'AllAtOnce') {
    out.push(`  strategy: AllAtOnce — ${p.totalApps} Applications on ${p.clusters ?? 0} clusters sync at the same time`);
    const sk = skippedLine(p);
    if (sk) out.push(`  ${sk}`);
  } else {
    out.push(`  strategy: RollingSync · ${planTitle(p)}`);
    for (const line of rollingSyncLines(p)) out.push(`  ${line}`);
  }
  if (p.timeline) for (const line of timelineLines(p.timeline)) out.push(`  ${line}`);
  if (!r.exact && r.notes.length) out.push(`  note: the preview is not exact: ${r.notes.join('; ')}`);
  for (const d of r.diagnostics) out.push(`  ${formatDiagnostic(shown, lines, d)}`);
  return textLines(out);
}

/** The plans as markdown (a job summary): per ApplicationSet its strategy, steps and timeline. */
function renderMarkdown(results: PlanResult[], shown: string): string {
  const out: string[] = [];
  for (const r of results) {
    const p = r.plan;
    out.push(`### ${mdCodeProse(p.appset || '(unnamed)')} · ${md(shown)}:${r.line}`, '');
    out.push(
      p.strategy === 'AllAtOnce'
        ? `Strategy: AllAtOnce — ${p.totalApps} Applications on ${p.clusters ?? 0} clusters sync at the same time.`
        : `Strategy: RollingSync · ${md(planTitle(p))}${p.effective ? '' : ' — **ignored: progressive syncs are not enabled, so every Application syncs at once**'}`,
      '',
    );
    const sk = skippedLine(p);
    if (sk) out.push(md(sk.charAt(0).toUpperCase() + sk.slice(1)) + '.', '');
    if (p.timeline) out.push(...timelineMarkdown(p.timeline, md), '');
  }
  return textLines(out);
}
