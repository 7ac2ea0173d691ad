/**
 * The preview document: every generated Application as multi-document YAML, in the order the
 * controller writes them (sorted by name, `applicationset_controller.go`), with a header that says
 * how exact the preview is.
 */
import { stringifyYaml } from '../yaml';
import { runSteps } from '../steps';
import type { Expansion, ExpansionProblem, GeneratedApp } from './types';
import type { Source } from '../types';
import { compareGoStrings } from '../rules/order';
import { affectedOf, affectedText } from '../diagnostics/findings';
import { isObj } from '../objects';
import { memoized } from '../memoized';

export interface PreviewOptions {
  /**
   * The controller runs a RollingSync for this ApplicationSet: it writes every Application with
   * `syncPolicy.automated.enabled: false` when the template has an `automated` block (prune and
   * selfHeal kept) and triggers the syncs itself — argo-cd
   * `applicationset/progressivesync/progressive_sync.go` (`SyncDesiredApplications`, `disableAutomatedSync`).
   */
  rollingSync?: boolean;
  /** Where a problem was written, for a reader (`appset.yaml:14`); the header groups problems by it. */
  siteOf?(p: ExpansionProblem): string | undefined;
  /** Strings with line breaks or a leading `:` double-quoted (`stringifyYaml`'s `lineSafe`: `appset render` in CI). */
  lineSafe?: boolean;
}

/** A comment's text on one line: a name or value with a line break would end the comment and start YAML (or a CI command). */
const commentText = (s: string) =>
  s.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** A source in the preview: its label and, when known, where it is (`cluster Secret "prod" (clusters/prod.yaml:3)`). */
export function sourceText(s: Source): string {
  return s.where ? `${s.label} (${s.where})` : s.label;
}

/** Sources of the first affected parameter sets shown under a grouped error. */
const HEADER_SOURCES = 3;

/**
 * One header line per mistake as written: the expansion meets a typo once per parameter set, the
 * header says it once, where it is written, with the Applications it hits and where their
 * parameter sets came from (the same grouping as the diagnostics, diagnostics/findings.ts).
 */
function problemLines(exp: Expansion, opts: PreviewOptions): string[] {
  const groups = new Map<string, { first: ExpansionProblem; site?: string; who: { name: string; sources: Source[] }[] }>();
  for (const p of exp.problems) {
    if (p.severity !== 'error') continue;
    const site = opts.siteOf?.(p);
    const key = `${p.code}@${p.span ? `${p.span.start}:${p.span.end}` : p.path.join('/')}`;
    const g = groups.get(key) ?? { first: p, site, who: [] };
    if (p.who) g.who.push(p.who);
    groups.set(key, g);
  }
  const out: string[] = [];
  for (const g of groups.values()) {
    const msg = g.first.message.replace(/\s*\n\s*/g, ' ');
    if (!g.who.length) {
      out.push(`# error${g.site ? ` at ${g.site}` : ''}: ${msg}`);
      continue;
    }
    const affected = affectedOf(g.who, exp.paramSets ?? exp.apps.length);
    out.push(`# error${g.site ? ` at ${g.site}` : ''}: ${msg} — ${affectedText(affected)}`);
    const from = affected.sources.slice(0, HEADER_SOURCES).map(sourceText);
    if (from.length) out.push(`#   parameter sets from: ${from.join(', ')}${affected.sources.length > HEADER_SOURCES ? ', …' : ''}`);
  }
  return out.map(commentText);
}

/** The Application as the controller writes it under an active RollingSync (a copy; the input is untouched). */
export function withAutomatedDisabled(app: unknown): unknown {
  const spec = isObj<unknown>(app) ? app.spec : undefined;
  const policy = isObj<unknown>(spec) ? spec.syncPolicy : undefined;
  const automated = isObj<unknown>(policy) ? policy.automated : undefined;
  if (!isObj<unknown>(app) || !isObj<unknown>(spec) || !isObj<unknown>(policy) || !isObj<unknown>(automated)) return app;
  return { ...app, spec: { ...spec, syncPolicy: { ...policy, automated: { ...automated, enabled: false } } } };
}

/**
 * The YAML of an Application, kept per Application object: an edit that leaves an Application as it was
 * (renderMemo.ts re-uses it whole, e.g. every Application but one after an edit in a list element, or
 * every one when only the rollout or a comment changed) does not write it again. Application objects are
 * never changed once made.
 */
const yamlOfApp = new WeakMap<object, string[]>();

function appYaml(app: GeneratedApp['app'], rollingSync: boolean, lineSafe: boolean): string {
  const slot = (rollingSync ? 1 : 0) + (lineSafe ? 2 : 0);
  const kept = memoized(yamlOfApp, app, noYaml);
  return (kept[slot] ??= stringifyYaml(rollingSync ? withAutomatedDisabled(app) : app, lineSafe));
}
function noYaml(): string[] {
  return [];
}

/** Applications written between two steps of `previewTextSteps`. */
const APPS_PER_STEP = 25;

export function previewText(appsetName: string, exp: Expansion, opts: PreviewOptions = {}): string {
  return runSteps(previewTextSteps(appsetName, exp, opts));
}

/** `previewText` in steps of a few Applications (the language server answers other requests between them). */
export function* previewTextSteps(appsetName: string, exp: Expansion, opts: PreviewOptions = {}): Generator<void, string> {
  const head: string[] = [
    `# Preview of ApplicationSet "${commentText(appsetName)}": ${exp.apps.length} Application${exp.apps.length === 1 ? '' : 's'}`,
    '# Generated offline by ApplicationSet Tools; read-only, updates as you edit.',
  ];
  if (!exp.exact) head.push('# NOT EXACT: the controller may produce something different (see notes below).');
  if (exp.capped) head.push('# STOPPED at the appsetTools.maxApplications cap: only the first Applications are shown.');
  const disabled = opts.rollingSync ? exp.apps.filter((a) => withAutomatedDisabled(a.app) !== a.app).length : 0;
  if (disabled)
    head.push(
      `# RollingSync is active: the controller writes syncPolicy.automated.enabled: false on ${disabled === exp.apps.length ? 'every Application' : `${disabled} Applications`} and syncs them step by step (shown so below).`,
    );
  for (const n of exp.notes) head.push(commentText(`# note: ${n}`));
  head.push(...problemLines(exp, opts));
  yield;
  const apps = [...exp.apps].sort((a, b) => compareGoStrings(a.name, b.name));
  yield;
  const docs: string[] = [];
  for (const a of apps) {
    if (docs.length % APPS_PER_STEP === APPS_PER_STEP - 1) yield;
    // Where its parameter set came from (a matrix combines several sources).
    const from = a.sources?.length ? `# from: ${commentText(a.sources.map(sourceText).join(' + '))}\n` : '';
    const prefix =
      from + (a.invalid?.length ? a.invalid.map((m) => `# SKIPPED by the controller: ${commentText(m.message)}\n`).join('') : '');
    docs.push(prefix + appYaml(a.app, !!opts.rollingSync, !!opts.lineSafe));
  }
  return head.join('\n') + '\n' + (docs.length ? '---\n' + docs.join('---\n') : '# (no Applications)\n');
}
