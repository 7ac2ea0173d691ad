/**
 * `appset diff --format sarif`: what a change does, as code-scanning results in the ApplicationSet's
 * file at the head revision — removals that delete resources and generators that now produce nothing
 * (on `generators:`), steps that empty or sync more at once and new places the rollout stops (on the
 * step), and the head's permission denials (`appset/project-denies`, where lint puts them). The same
 * SARIF writer as `appset lint` (`sarif.ts`), one rule per code of the registry.
 */
import {
  codeInfo,
  fingerprints,
  lineOfOffset,
  lineStarts,
  type AppSetDiff,
  type DiffReport,
  type SideAppSet,
  type Span,
} from '@appset-tools/engine';
import type { LintReport, ReportFile, ReportFinding } from './report';
import { TOOL_NAME, TOOL_VERSION } from './report';
import { toSarif } from './sarif';

interface Result {
  code: string;
  message: string;
  span?: Span;
  names?: string[];
}

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;
const listed = (names: string[]) => names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');

function resultsOf(a: AppSetDiff, head: SideAppSet | undefined): Result[] {
  const sites = head?.sites;
  const out: Result[] = [];
  const stepSpan = (step: number) => sites?.steps[step - 1] ?? sites?.doc;
  const deleting = a.changes.filter((c) => c.deletion?.resources === 'deleted').map((c) => c.name);
  if (deleting.length)
    out.push({
      code: 'diff/deletes-resources',
      message: `${plural(deleting.length, 'removed Application')} ${deleting.length === 1 ? 'deletes its' : 'delete their'} resources in the cluster: ${listed(deleting)}`,
      span: sites?.generators,
      names: deleting,
    });
  if (a.generatesNothing)
    out.push({
      code: 'diff/generates-nothing',
      message: `the generators produce no Application at this revision (they produced ${plural(a.changes.filter((c) => c.change === 'removed').length, 'Application')}): the controller deletes every Application of ${a.name}`,
      span: sites?.generators,
    });
  for (const step of a.rollout.emptied) {
    const sel = a.rollout.base?.find((s) => s.step === step)?.selector;
    out.push({
      code: 'diff/step-emptied',
      message: `step ${step}${sel ? ` (${sel})` : ''} now selects no Application: that stage of the rollout disappears`,
      span: stepSpan(step),
    });
  }
  for (const g of a.rollout.grown)
    out.push({
      code: 'diff/wave-grows',
      message: `step ${g.step} syncs ${g.to} Applications at once (was ${g.from})`,
      span: stepSpan(g.step),
    });
  const before = new Set((a.timeline.base?.stops ?? []).map((x) => `${x.step}\u0000${x.kind}\u0000${x.text}`));
  for (const x of a.timeline.head?.stops ?? [])
    if (!before.has(`${x.step}\u0000${x.kind}\u0000${x.text}`))
      out.push({ code: 'diff/rollout-stops', message: `the rollout ${x.text}${x.where ? ` (${x.where})` : ''}`, span: stepSpan(x.step) });
  return out;
}

/** The diff's results as a lint report (files of the head revision), then SARIF. */
export function diffSarif(report: DiffReport, heads: readonly SideAppSet[]): object {
  const files = new Map<string, ReportFile & { text?: string; spans: (Span | undefined)[] }>();
  for (const a of report.appsets) {
    if (a.status === 'unchanged') continue;
    const head = heads.find((h) => h.file === a.file.head && h.name === a.name && h.namespace === a.namespace);
    const path = a.file.head ?? a.file.base ?? '';
    const file = files.get(path) ?? { path, applicationSets: 0, diagnostics: [], text: head?.sites?.text, spans: [] };
    file.applicationSets++;
    const results: (Result & { severity?: ReportFinding['severity'] })[] = resultsOf(a, head);
    for (const d of head?.sites?.denials ?? []) results.push({ code: d.code, message: d.message, span: d.span, names: d.affected?.names });
    for (const r of results) {
      file.diagnostics.push({
        path,
        line: 0,
        col: 0,
        endLine: 0,
        endCol: 0,
        severity: codeInfo(r.code)!.severity,
        code: r.code,
        message: r.message,
        fingerprint: '',
        applicationSet: a.name,
        ...(r.names?.length ? { affected: { count: r.names.length, names: r.names } } : {}),
      });
      file.spans.push(r.span);
    }
    files.set(path, file);
  }
  const out: ReportFile[] = [];
  for (const f of files.values()) {
    const text = f.text ?? '';
    const starts = lineStarts(text);
    const at = (o: number) => {
      const l = lineOfOffset(starts, o);
      return { line: l + 1, col: o - starts[l] + 1 };
    };
    const prints = fingerprints(
      f.path,
      text,
      f.diagnostics.map((d, i) => ({ code: d.code, span: f.spans[i] ?? { start: 0, end: 0 } })),
    );
    f.diagnostics.forEach((d, i) => {
      const span = f.spans[i];
      d.fingerprint = prints[i];
      if (!span || !f.text) {
        // The ApplicationSet is gone at the head revision: the result names its former file only.
        delete (d as Partial<ReportFinding>).line;
        delete (d as Partial<ReportFinding>).col;
        delete (d as Partial<ReportFinding>).endLine;
        delete (d as Partial<ReportFinding>).endCol;
        return;
      }
      const s = at(span.start);
      // The result covers the first line of what it points at (a step's whole block is no better a mark).
      const eol = text.indexOf('\n', span.start);
      const e = at(Math.max(span.start, Math.min(span.end, eol < 0 ? text.length : eol)));
      Object.assign(d, { line: s.line, col: s.col, endLine: e.line, endCol: e.col });
    });
    out.push({ path: f.path, applicationSets: f.applicationSets, diagnostics: f.diagnostics });
  }
  const lint: LintReport = {
    version: 1,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    files: out,
    problems: [],
  } as unknown as LintReport;
  return toSarif(lint);
}
