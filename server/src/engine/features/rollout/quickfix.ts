/**
 * Quick fixes for progressive syncs. Every edit is a text edit on the original text at the right
 * indentation (see yamlEdit.ts), never a rewrite of the document.
 * - insert a RollingSync strategy rolled out by a label (from template labels or cluster labels; a
 *   cluster-only label is also copied into template.metadata.labels in the template mode's syntax);
 * - enable progressive syncs in the Argo CD configuration found in the workspace, or set the override;
 * - add a cluster label to the template, replace an unsupported operator, fix a maxUpdate format,
 *   remove `automated` from the template under RollingSync.
 */
import * as YAML from 'yaml';
import type { AppSetContext } from '../context';
import type { CodeAction, EngineDiagnostic, Span, TextEdit } from '../../types';
import { spanAt } from '../../yaml/document';
import type { GeneratedApp } from '../../expand/types';
import { CM_KEY, FLAG, getEnablement, type ConfigTarget } from '../../rollout/enablement';
import { clusterLabels } from '../../rollout/labels';
import { compareNames } from '../../rollout/plan';
import { getStrategy } from './plan';
import { isRollingSync } from '../../rollout/spec';
import { Commands } from '../../../protocol';
import { appendAt, indentUnit, removePair, replacePair, sequenceIndent, yamlString, type Edit } from '../../yaml/edit';
import { yamlLimitMessage } from '../../yaml/limits';

/** Label keys that usually describe a rollout order. */
const PREFERRED_KEYS = ['tier', 'ring', 'wave', 'stage', 'env', 'environment', 'rollout', 'phase', 'channel', 'traffic'];

/** Rank of a label value in a rollout: earlier-is-safer words first. */
const VALUE_RANKS: [RegExp, number][] = [
  [/canary|pilot|first/, 0],
  [/^dev|develop|sandbox/, 10],
  [/test/, 20],
  [/qa|^int|integration/, 30],
  [/stag|preprod|pre-prod|uat/, 40],
  [/low/, 50],
  [/med|mid/, 60],
  [/high|critical/, 70],
  [/prod|live/, 80],
];
const UNKNOWN_RANK = 55;

export function valueRank(v: string): number {
  const l = v.toLowerCase();
  for (const [re, r] of VALUE_RANKS) if (re.test(l)) return r;
  return UNKNOWN_RANK;
}

/** Orders label values for a rollout: known words by risk, others alphabetically. */
export function orderValues(values: string[]): string[] {
  return [...values].sort((a, b) => valueRank(a) - valueRank(b) || compareNames(a, b));
}

export interface StrategyProposal {
  key: string;
  /** 'app': already an Application label; 'cluster': only a cluster label (must be copied into the template). */
  from: 'app' | 'cluster';
  values: string[];
  maxUpdates: (number | string | undefined)[];
}

const MAX_STEPS = 12;

/** Picks the label to roll out by: present on every Application (or cluster), 2–12 values. */
export function proposeStrategy(apps: readonly GeneratedApp[]): StrategyProposal | undefined {
  const valid = apps.filter((a) => !a.invalid?.length);
  if (!valid.length) return undefined;
  const candidates: { key: string; from: 'app' | 'cluster'; values: string[]; score: number }[] = [];
  const consider = (key: string, from: 'app' | 'cluster', get: (a: GeneratedApp) => string | undefined) => {
    if (candidates.some((c) => c.key === key)) return;
    const values = new Set<string>();
    for (const a of valid) {
      const v = get(a);
      if (v === undefined) return;
      values.add(v);
      if (values.size > MAX_STEPS) return;
    }
    if (values.size < 2) return;
    const vs = [...values];
    const known = vs.filter((v) => valueRank(v) !== UNKNOWN_RANK).length;
    const pref = PREFERRED_KEYS.findIndex((k) => key.toLowerCase() === k || key.toLowerCase().endsWith('/' + k));
    candidates.push({ key, from, values: vs, score: (pref >= 0 ? 20 - pref : 0) + known * 3 + (from === 'app' ? 1 : 0) });
  };
  const appKeys = new Set<string>();
  for (const a of valid) for (const k of Object.keys(a.labels)) appKeys.add(k);
  for (const k of [...appKeys].sort()) consider(k, 'app', (a) => (Object.prototype.hasOwnProperty.call(a.labels, k) ? a.labels[k] : undefined));
  const clusterKeys = new Set<string>();
  for (const a of valid) for (const k of clusterLabels(a.params).keys()) clusterKeys.add(k);
  for (const k of [...clusterKeys].sort()) consider(k, 'cluster', (a) => clusterLabels(a.params).get(k));
  if (!candidates.length) return undefined;
  candidates.sort((a, b) => b.score - a.score || compareNames(a.key, b.key));
  const best = candidates[0];
  const values = orderValues(best.values);
  // First step: a canary group goes together; otherwise test the change on one Application.
  // Middle steps 25% at a time, the last (usually the largest, most critical) 50%.
  const maxUpdates = values.map((v, i) => (i === 0 ? (valueRank(v) === 0 ? '100%' : 1) : i === values.length - 1 ? '50%' : '25%'));
  return { key: best.key, from: best.from, values, maxUpdates };
}

/** The template expression for a cluster label in the ApplicationSet's template mode. */
export function clusterLabelExpression(key: string, goTemplate: boolean): string {
  return goTemplate ? `{{ index .metadata.labels ${JSON.stringify(key)} }}` : `{{metadata.labels.${key}}}`;
}

function strategyLines(p: StrategyProposal, unit: number, seq: number): string[] {
  const i = (n: number) => ' '.repeat(n);
  const step = unit * 2 + seq; // column of `- ` under `steps:`
  const lines = ['strategy:', `${i(unit)}type: RollingSync`, `${i(unit)}rollingSync:`, `${i(unit * 2)}steps:`];
  p.values.forEach((v, k) => {
    const exprCol = step + 2 + seq; // column of `- key:` under `matchExpressions:`
    lines.push(`${i(step)}- matchExpressions:`);
    lines.push(`${i(exprCol)}- key: ${yamlString(p.key)}`);
    lines.push(`${i(exprCol + 2)}operator: In`);
    lines.push(`${i(exprCol + 2)}values:`);
    lines.push(`${i(exprCol + 2 + seq)}- ${yamlString(v)}`);
    const mu = p.maxUpdates[k];
    if (mu !== undefined) lines.push(`${i(step + 2)}maxUpdate: ${typeof mu === 'number' ? mu : mu}`);
  });
  return lines;
}

function parseText(text: string, index: number): YAML.Document.Parsed | undefined {
  if (yamlLimitMessage(text)) return undefined;
  const docs = YAML.parseAllDocuments(text, { strict: false });
  return Array.isArray(docs) ? (docs[index] as YAML.Document.Parsed | undefined) : undefined;
}

/** Edit adding `key: <expression>` to template.metadata.labels. */
function addTemplateLabelEdit(ctx: AppSetContext, key: string): TextEdit | undefined {
  const text = ctx.file.text;
  const goTemplate = (ctx.doc.value.spec as { goTemplate?: unknown } | undefined)?.goTemplate === true;
  const value = `'${clusterLabelExpression(key, goTemplate).replace(/'/g, "''")}'`;
  const e = appendAt(text, ctx.doc.doc, ['spec', 'template', 'metadata', 'labels'], [`${yamlString(key)}: ${value}`]);
  return e && { file: ctx.file.uri, ...e };
}

export function insertStrategyAction(ctx: AppSetContext, diagnostics: EngineDiagnostic[]): CodeAction | undefined {
  const p = proposeStrategy(ctx.expansion().apps);
  if (!p) return undefined;
  const text = ctx.file.text;
  const doc = ctx.doc.doc;
  const unit = indentUnit(text, doc);
  const lines = strategyLines(p, unit, sequenceIndent(text, doc, unit));
  const existing = ctx.doc.value.spec && typeof ctx.doc.value.spec === 'object' && !Array.isArray(ctx.doc.value.spec) && Object.prototype.hasOwnProperty.call(ctx.doc.value.spec, 'strategy');
  const main: Edit | undefined = existing ? replacePair(text, doc, ['spec', 'strategy'], lines) : appendAt(text, doc, ['spec'], lines, unit);
  if (!main) return undefined;
  const edits: TextEdit[] = [{ file: ctx.file.uri, ...main }];
  if (p.from === 'cluster') {
    const label = addTemplateLabelEdit(ctx, p.key);
    if (!label) return undefined;
    edits.push(label);
  }
  return {
    title: `Roll out by "${p.key}": RollingSync ${p.values.join(' → ')}${p.from === 'cluster' ? ` (copies the cluster label into template.metadata.labels)` : ''}`,
    kind: 'quickfix',
    diagnosticCodes: diagnostics.map((d) => d.code),
    diagnostics,
    isPreferred: true,
    edits: edits.sort((a, b) => b.span.start - a.span.start),
  };
}

/** Edits that turn the workspace's Argo CD configuration to "enabled". */
export function enableEdits(ctx: AppSetContext): { edits: TextEdit[]; where: string } | undefined {
  const en = getEnablement(ctx.file);
  const fixable = en.evidence.filter((e) => (e.effect === 'disables' || e.effect === 'ignored') && e.valueSpan && e.enableText);
  if (fixable.length && en.evidence.filter((e) => e.effect === 'disables').every((e) => fixable.includes(e))) {
    return {
      edits: fixable.map((e) => ({ file: e.file, span: e.valueSpan!, newText: e.enableText! })),
      where: [...new Set(fixable.map((e) => basename(e.file)))].join(', '),
    };
  }
  if (en.evidence.some((e) => e.effect === 'disables')) return undefined;
  const order: ConfigTarget['kind'][] = ['configmap', 'helm-values', 'argocd-cr'];
  const targets = [...en.targets].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  for (const t of targets) {
    const file = ctx.file.workspace.file(t.file);
    const doc = file && parseText(file.text, t.docIndex);
    if (!file || !doc) continue;
    const value = `${CM_KEY}: "true"`;
    const e =
      t.kind === 'configmap'
        ? appendAt(file.text, doc, ['data'], [value])
        : t.kind === 'helm-values'
          ? appendAt(file.text, doc, ['configs', 'params'], [value])
          : appendAt(file.text, doc, ['spec', 'applicationSet', 'extraCommandArgs'], [`- ${FLAG}`]);
    if (e) return { edits: [{ file: t.file, ...e }], where: basename(t.file) };
  }
  return undefined;
}

function basename(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}

function enableActions(ctx: AppSetContext, d: EngineDiagnostic): CodeAction[] {
  const out: CodeAction[] = [];
  const fix = enableEdits(ctx);
  if (fix) out.push({ title: `Enable progressive syncs in ${fix.where}`, kind: 'quickfix', diagnosticCodes: [d.code], diagnostics: [d], isPreferred: true, edits: fix.edits });
  out.push({
    title: 'Progressive syncs are enabled outside this workspace: set appsetTools.progressiveSyncs to "enabled"',
    kind: 'quickfix',
    diagnosticCodes: [d.code],
    diagnostics: [d],
    command: { id: Commands.setProgressiveSyncs, title: 'Set appsetTools.progressiveSyncs', args: ['enabled'] },
  });
  return out;
}

function replaceAction(ctx: AppSetContext, d: EngineDiagnostic, title: string, span: Span, newText: string, preferred: boolean): CodeAction {
  return { title, kind: 'quickfix', diagnosticCodes: [d.code], diagnostics: [d], isPreferred: preferred, edits: [{ file: ctx.file.uri, span, newText }] };
}

const overlaps = (a: Span, b: Span) => a.start <= b.end && b.start <= a.end;

export function rolloutCodeActions(ctx: AppSetContext, span: Span, diagnostics: EngineDiagnostic[]): CodeAction[] {
  const out: CodeAction[] = [];
  const text = ctx.file.text;
  let strategyOffered = false;
  for (const d of diagnostics) {
    switch (d.code) {
      case 'rollout/progressive-syncs-disabled':
      case 'rollout/progressive-syncs-not-found':
        out.push(...enableActions(ctx, d));
        break;
      case 'rollout/blast-radius': {
        const a = insertStrategyAction(ctx, [d]);
        if (a) out.push(a);
        strategyOffered = true;
        break;
      }
      case 'rollout/empty-step': {
        const key = (d.data as { clusterLabel?: string } | undefined)?.clusterLabel;
        const e = key ? addTemplateLabelEdit(ctx, key) : undefined;
        if (key && e) out.push({ title: `Copy the cluster label "${key}" into template.metadata.labels`, kind: 'quickfix', diagnosticCodes: [d.code], diagnostics: [d], isPreferred: true, edits: [e] });
        break;
      }
      case 'appset/step-operator': {
        const hint = (d.data as { replacement?: string } | undefined)?.replacement;
        for (const op of ['In', 'NotIn']) out.push(replaceAction(ctx, d, `Use operator ${op}`, d.span, op, op === (hint ?? 'In')));
        break;
      }
      case 'appset/max-update': {
        const digits = (d.data as { replacement?: string } | undefined)?.replacement;
        if (digits !== undefined) {
          out.push(replaceAction(ctx, d, `Use maxUpdate: ${digits} (${digits} at a time)`, d.span, digits, true));
          out.push(replaceAction(ctx, d, `Use maxUpdate: "${digits}%" (a percentage)`, d.span, `"${digits}%"`, false));
        }
        break;
      }
      case 'rollout/automated-disabled': {
        const e = removePair(text, ctx.doc.doc, ['spec', 'template', 'spec', 'syncPolicy', 'automated']);
        if (e) out.push({ title: 'Remove syncPolicy.automated (RollingSync decides when Applications sync)', kind: 'quickfix', diagnosticCodes: [d.code], diagnostics: [d], edits: [{ file: ctx.file.uri, ...e }] });
        break;
      }
    }
  }
  // Also offered without a diagnostic (below the threshold, one cluster): on `generators:` or `strategy:`.
  if (!strategyOffered && !isRollingSync(getStrategy(ctx))) {
    const on = [spanAt(ctx.doc.doc, ['spec', 'generators'], 'key'), spanAt(ctx.doc.doc, ['spec', 'strategy'], 'key')];
    if (on.some((s) => overlaps(s, span))) {
      const a = insertStrategyAction(ctx, []);
      if (a) out.push({ ...a, kind: 'refactor', isPreferred: false });
    }
  }
  return out;
}
