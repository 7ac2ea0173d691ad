/**
 * `appset lint --format sarif`: SARIF 2.1.0 (OASIS), in the shape GitHub code scanning ingests —
 * one rule per diagnostic code it reports (help text, help URI to the code's section of docs/codes.md), one
 * result per finding with its exact region (UTF-16 columns, end column exclusive), a stable
 * `partialFingerprints` entry, related locations, the affected Applications as properties, and
 * `suppressions` for findings an inline comment suppresses.
 */
import { ALL_CODES, type CodeInfo } from '@appset-tools/engine';
import type { Severity } from '@appset-tools/engine';
import { TOOL_NAME, TOOL_VERSION, README_URL, codeHelpUri, type LintReport, type ReportFinding, type ReportLocation } from './report';

/** The partialFingerprints key; bump the suffix if the fingerprint recipe ever changes. */
export const FINGERPRINT_KEY = 'appsetToolsFinding/v1';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

function ruleName(code: string): string {
  return code
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

function rule(c: CodeInfo) {
  const area = c.code.split('/')[0];
  return {
    id: c.code,
    name: ruleName(c.code),
    shortDescription: { text: c.summary },
    fullDescription: { text: c.summary },
    help: {
      text: `${c.summary} See ${codeHelpUri(c.code)}`,
      markdown: `${c.summary}\n\n[\`${c.code}\` in the ApplicationSet Tools documentation](${codeHelpUri(c.code)})`,
    },
    helpUri: codeHelpUri(c.code),
    defaultConfiguration: { level: LEVEL[c.severity] },
    properties: {
      tags: ['argo-cd', 'applicationset', area],
      precision: 'high',
      'problem.severity': LEVEL[c.severity] === 'note' ? 'recommendation' : LEVEL[c.severity],
    },
  };
}

/** Paths in SARIF are URIs relative to %SRCROOT%: percent-encode what a URI cannot hold. */
function uriOf(p: string): string {
  return p
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}

function physical(l: Partial<ReportLocation> & { path: string }) {
  const region =
    l.line !== undefined
      ? { region: { startLine: l.line, startColumn: l.col ?? 1, endLine: l.endLine ?? l.line, endColumn: l.endCol ?? l.col ?? 1 } }
      : {};
  const absolute = l.path.startsWith('/');
  return {
    physicalLocation: {
      artifactLocation: absolute ? { uri: 'file://' + uriOf(l.path) } : { uri: uriOf(l.path), uriBaseId: 'SRCROOT' },
      ...region,
    },
  };
}

function result(f: ReportFinding, ruleIndex: Map<string, number>) {
  const idx = ruleIndex.get(f.code);
  const res: Record<string, unknown> = {
    ruleId: f.code,
    ...(idx !== undefined ? { ruleIndex: idx } : {}),
    level: LEVEL[f.severity],
    message: { text: f.message },
    locations: [physical(f)],
    partialFingerprints: { [FINGERPRINT_KEY]: f.fingerprint },
  };
  if (f.related?.length) res.relatedLocations = f.related.map((r, i) => ({ id: i + 1, ...physical(r), message: { text: r.message } }));
  if (f.suppressed) res.suppressions = [{ kind: 'inSource', status: 'accepted', justification: f.suppressed.justification }];
  const props: Record<string, unknown> = {};
  if (f.applicationSet !== undefined) props.applicationSet = f.applicationSet;
  if (f.affected) {
    props.affectedApplications = f.affected.count;
    if (f.affected.of !== undefined) props.generatedApplications = f.affected.of;
    props.applications = f.affected.names;
  }
  if (f.tags?.length) props.tags = f.tags;
  if (Object.keys(props).length) res.properties = props;
  return res;
}

/**
 * The SARIF log of a lint report. Paths are relative to the repository's root (SRCROOT, which the log
 * names without saying where it was on this machine: code scanning resolves it to the checkout).
 */
export function toSarif(report: LintReport): object {
  // Only the rules the log reports (GitHub shows each rule's help beside its results; 83 rules' help
  // for three findings is noise and size), in registry order.
  const reported = new Set(report.files.flatMap((f) => f.diagnostics.map((d) => d.code)));
  const used = ALL_CODES.filter((c) => reported.has(c.code));
  const rules = used.map(rule);
  const ruleIndex = new Map(used.map((c, i) => [c.code, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: TOOL_NAME,
            version: TOOL_VERSION,
            semanticVersion: TOOL_VERSION,
            informationUri: README_URL,
            rules,
          },
        },
        originalUriBaseIds: { SRCROOT: { description: { text: "The repository's root folder." } } },
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: report.problems.length === 0,
            toolExecutionNotifications: report.problems.map((p) => ({
              level: 'error',
              message: { text: p.message },
              locations: [physical({ path: p.path })],
            })),
          },
        ],
        results: report.files.flatMap((f) => f.diagnostics.map((d) => result(d, ruleIndex))),
      },
    ],
  };
}
