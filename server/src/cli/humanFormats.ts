/**
 * The human-facing formats of `appset lint`: `text` (one line per finding), `github` (workflow
 * commands that GitHub Actions turns into annotations on the pull request's diff) and `markdown`
 * (a summary and one table per file, for job summaries and PR comments).
 */
import type { Severity } from '@appset-tools/engine';
import { codeHelpUri, summaryLine, type LintReport, type ReportFinding } from './report';
import { messageLine, oneLine, textLines } from './safeText';
import { mdCodeProse, mdText } from './safeMarkdown';

export function toText(r: LintReport): string {
  const out: string[] = [];
  for (const f of r.files)
    for (const d of f.diagnostics) {
      if (d.suppressed) continue;
      out.push(textLine(d));
      // Where the affected Applications' parameter sets came from, as clickable locations under the finding.
      if (d.affected)
        for (const rel of d.related ?? [])
          out.push(`  ${rel.path}${rel.line ? `:${rel.line}:${rel.col}` : ''} from: ${messageLine(rel.message)}`);
    }
  out.push(summaryLine(r));
  return textLines(out);
}

export function textLine(d: ReportFinding): string {
  return oneLine(`${d.path}:${d.line}:${d.col} ${d.severity} ${d.code} ${messageLine(d.message)}`);
}

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

/** Workflow-command escaping (GitHub's toolkit `escapeData` / `escapeProperty`). */
const escData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => escData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function toGithub(r: LintReport): string {
  const out: string[] = [];
  for (const f of r.files) {
    for (const d of f.diagnostics) {
      if (d.suppressed) continue;
      const props = [`file=${escProp(d.path)}`, `line=${d.line}`, `endLine=${d.endLine}`, `col=${d.col}`];
      // endColumn only makes sense on one line (GitHub drops columns of multi-line annotations).
      if (d.endLine === d.line) props.push(`endColumn=${d.endCol}`);
      props.push(`title=${escProp(d.code)}`);
      out.push(`::${COMMAND[d.severity]} ${props.join(',')}::${escData(d.message)}`);
    }
  }
  for (const p of r.problems) out.push(`::error file=${escProp(p.path)},title=appset lint::${escData(p.message)}`);
  out.push(summaryLine(r));
  return out.join('\n') + '\n';
}

const ICON: Record<Severity, string> = { error: '❌ error', warning: '⚠️ warning', information: 'ℹ️ info', hint: '💡 hint' };
export function toMarkdown(r: LintReport): string {
  const out: string[] = [];
  const s = r.summary;
  const verdict = s.failed ? '❌' : '✅';
  out.push(`### ${verdict} appset lint: ${mdText(summaryLine(r))}`, '');
  for (const f of r.files) {
    const shown = f.diagnostics.filter((d) => !d.suppressed);
    const suppressed = f.diagnostics.filter((d) => d.suppressed);
    if (!shown.length && !suppressed.length) continue;
    out.push(`**${mdCodeProse(f.path)}**`, '');
    if (shown.length) {
      out.push('| line | severity | code | finding |', '| ---: | --- | --- | --- |');
      for (const d of shown)
        out.push(`| ${d.line} | ${ICON[d.severity]} | [\`${d.code}\`](${codeHelpUri(d.code)}) | ${mdText(d.message)} |`);
      out.push('');
    }
    if (suppressed.length) {
      out.push(`<details><summary>${suppressed.length} suppressed</summary>`, '');
      for (const d of suppressed)
        out.push(`- line ${d.line} \`${d.code}\`: ${mdText(d.message)} — *${mdText(d.suppressed!.justification)}*`);
      out.push('', '</details>', '');
    }
  }
  for (const p of r.problems) out.push(`- ❗ ${mdCodeProse(p.path)}: ${mdText(p.message)}`);
  while (out.length && !out[out.length - 1]) out.pop();
  return textLines(out);
}
