/**
 * The result of `appset lint` as data, before any format: every finding located by line and column,
 * with its fingerprint, suppression and affected Applications. Each output format (`text`, `json`,
 * `sarif`, `github`, `markdown`) is a function of this report, so they all say the same thing.
 *
 * The JSON format is this report as it is. CONTRACT (`version: 1`): fields may be added, none renamed
 * or removed; a breaking change increments `version`.
 */
import type { Severity } from '@appset-tools/engine';
import { PRODUCT_NAME, PRODUCT_VERSION } from '../product';

export const REPORT_VERSION = 1;
export const TOOL_NAME = PRODUCT_NAME;
export const TOOL_VERSION = PRODUCT_VERSION;
export { README_URL, codeAnchor, codeHelpUri } from '@appset-tools/engine';

export interface ReportLocation {
  /** Path relative to the repository root (git work tree, else the current folder; `/`-separated), or absolute outside it. */
  path: string;
  line: number;
  col: number;
  endLine: number;
  /** Exclusive: the column just after the last character (1-based). */
  endCol: number;
}

export interface ReportFinding extends ReportLocation {
  severity: Severity;
  code: string;
  message: string;
  /** Stable across line moves and message wording: see engine/diagnostics/fingerprint.ts. */
  fingerprint: string;
  /** The ApplicationSet (metadata.name) the finding is about, when it is inside one. */
  applicationSet?: string;
  /** Present when an `# appset-tools: ignore` comment suppresses it; suppressed findings are not counted. */
  suppressed?: { justification: string };
  /** Generated Applications the finding affects (when it is about generated Applications). */
  affected?: {
    count: number;
    of?: number;
    names: string[];
    sources?: { kind: string; label: string; path?: string; line?: number; col?: number }[];
  };
  related?: (Partial<ReportLocation> & { path: string; message: string })[];
  tags?: string[];
}

export interface ReportFile {
  path: string;
  applicationSets: number;
  /** Findings in position order (JSON name kept from the first version of the format). */
  diagnostics: ReportFinding[];
}

export interface LintReport {
  version: number;
  tool: { name: string; version: string };
  files: ReportFile[];
  /** Inputs that could not be read or checked (they make the exit status 2). */
  problems: { path: string; message: string }[];
  /** What the workspace scan left out (files over the size limit, caps), as stderr's notes say; absent when nothing. */
  notes?: string[];
  summary: {
    files: number;
    applicationSets: number;
    errors: number;
    warnings: number;
    information: number;
    hints: number;
    suppressed: number;
    /** The `--fail-on` level and whether the findings reach it. */
    failOn: FailOn;
    failed: boolean;
    /**
     * Documents that could not be checked (findings whose code is `unchecked` in the registry, at the
     * registry's severity or above): `appset lint` fails closed on them with exit status 3.
     */
    unchecked: number;
  };
}

export type FailOn = 'error' | 'warning' | 'information' | 'never';

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/** Does a finding of this severity fail the run at this `--fail-on` level? */
export function fails(severity: Severity, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return RANK[severity] <= RANK[failOn];
}

export function summarize(
  files: ReportFile[],
  problems: LintReport['problems'],
  failOn: FailOn,
  unchecked = 0,
  notes: string[] = [],
): LintReport {
  const counted = files.flatMap((f) => f.diagnostics).filter((d) => !d.suppressed);
  const count = (s: Severity) => counted.filter((d) => d.severity === s).length;
  return {
    version: REPORT_VERSION,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    files,
    problems,
    ...(notes.length ? { notes } : {}),
    summary: {
      files: files.length,
      applicationSets: files.reduce((n, f) => n + f.applicationSets, 0),
      errors: count('error'),
      warnings: count('warning'),
      information: count('information'),
      hints: count('hint'),
      suppressed: files.reduce((n, f) => n + f.diagnostics.filter((d) => d.suppressed).length, 0),
      failOn,
      failed: counted.some((d) => fails(d.severity, failOn)),
      unchecked,
    },
  };
}

export const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/** The one-line summary every human-readable format ends with. */
export function summaryLine(r: LintReport): string {
  const s = r.summary;
  const sup = s.suppressed ? `, ${s.suppressed} suppressed` : '';
  const unchecked = s.unchecked ? `; ${plural(s.unchecked, 'document')} NOT CHECKED` : '';
  return `${plural(s.applicationSets, 'ApplicationSet')} in ${plural(s.files, 'file')}: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.information + s.hints, 'note')}${sup}${unchecked}`;
}
