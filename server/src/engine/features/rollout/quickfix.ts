/**
 * Quick fixes for progressive syncs. Every edit is a text edit on the original text at the right
 * indentation (see yamlEdit.ts), never a rewrite of the document.
 * - insert a RollingSync strategy rolled out by a label (from template labels or cluster labels; a
 *   cluster-only label is also copied into template.metadata.labels in the template mode's syntax);
 * - enable progressive syncs in the Argo CD configuration found in the workspace, or set the override;
 * - add a cluster label to the template, replace an unsupported operator, fix a maxUpdate format,
 *   remove `automated` from the template under RollingSync.
 */
import {
  parseDocuments,
  type YamlDocument,
  appendAt,
  indentUnit,
  removePair,
  replacePair,
  sequenceIndent,
  yamlString,
  type Edit,
  prefersFlowLists,
} from '../../yaml';
import type { AppSetContext } from '../context';
import { fieldsOf } from '../../fields/appset';
import type { CodeAction, EngineDiagnostic, Span, TextEdit } from '../../types';
import { CM_KEY, CM_NAME, FLAG, type ConfigTarget } from '../../rollout/enablement';
import { dirname, relativePath } from '../../paths';
import { enablementFor, getStrategy } from './plan';
import { lengthText, proposeStrategies, type StrategyProposal } from '../../rollout/strategies';
import { paramExpression } from '../../rollout/clusterStrategy';
import { isRollingSync } from '../../rollout/spec';
import { Commands } from '@appset-tools/protocol';
import { quickFix } from '../quickFix';

export { orderValues, valueRank } from '../../rollout/strategies';
/** The template expression for a cluster label in the ApplicationSet's template mode. */
export function clusterLabelExpression(key: string, goTemplate: boolean): string {
  return goTemplate ? `{{ index .metadata.labels ${JSON.stringify(key)} }}` : `{{metadata.labels.${key}}}`;
}

function strategyLines(p: StrategyProposal, unit: number, seq: number, flow: boolean): string[] {
  const i = (n: number) => ' '.repeat(n);
  const step = unit * 2 + seq; // column of `- ` under `steps:`
  const lines = ['strategy:', `${i(unit)}type: RollingSync`, `${i(unit)}rollingSync:`, `${i(unit * 2)}steps:`];
  for (const st of p.steps) {
    const exprCol = step + 2 + seq; // column of `- key:` under `matchExpressions:`
    lines.push(`${i(step)}- matchExpressions:`);
    lines.push(`${i(exprCol)}- key: ${yamlString(p.key)}`);
    lines.push(`${i(exprCol + 2)}operator: In`);
    if (flow) lines.push(`${i(exprCol + 2)}values: [${st.values.map(yamlString).join(', ')}]`);
    else {
      lines.push(`${i(exprCol + 2)}values:`);
      for (const v of st.values) lines.push(`${i(exprCol + 2 + seq)}- ${yamlString(v)}`);
    }
    const mu = st.maxUpdate;
    lines.push(`${i(step + 2)}maxUpdate: ${typeof mu === 'number' ? mu : mu}`);
  }
  return lines;
}

function parseText(text: string, index: number): YamlDocument | undefined {
  return parseDocuments(text)[index];
}

function isGoTemplate(ctx: AppSetContext): boolean {
  return (ctx.doc.value.spec as { goTemplate?: unknown } | undefined)?.goTemplate === true;
}

/** Edit adding `key: <expression>` to template.metadata.labels (the cluster label `key`, or the parameter `param`). */
function addTemplateLabelEdit(ctx: AppSetContext, key: string, param?: string): TextEdit | undefined {
  const text = ctx.file.text;
  const goTemplate = isGoTemplate(ctx);
  const expr = param !== undefined ? paramExpression(param, goTemplate) : clusterLabelExpression(key, goTemplate);
  const value = `'${expr.replace(/'/g, "''")}'`;
  const e = appendAt(text, ctx.doc.doc, ['spec', 'template', 'metadata', 'labels'], [`${yamlString(key)}: ${value}`]);
  return e && { file: ctx.file.uri, ...e };
}

const PACE_WORDS: Record<StrategyProposal['pace'], (maxWave: number) => string> = {
  careful: () => '',
  faster: () => ', faster',
  steady: (n) => `, ${n} at a time`,
  cluster: () => ', one cluster at a time',
};

/** What else the fix writes into the template, for its title. */
function labelWords(ctx: AppSetContext, p: StrategyProposal): string {
  if (p.from === 'cluster') return ' (copies the cluster label into template.metadata.labels)';
  if (p.from === 'param' && p.param !== undefined)
    return ` (adds the label ${p.key}: '${paramExpression(p.param, isGoTemplate(ctx))}' to template.metadata.labels)`;
  return '';
}

/** The quick fixes that insert a strategy: two to four, safest first, sizes, waves and time in the title. */
export function insertStrategyActions(ctx: AppSetContext, diagnostics: EngineDiagnostic[]): CodeAction[] {
  const proposals = proposeStrategies(ctx.expansion().apps, ctx.file.settings.maxWaveSize ?? 10);
  const out: CodeAction[] = [];
  const text = ctx.file.text;
  const doc = ctx.doc.doc;
  const unit = indentUnit(text, doc);
  const seq = sequenceIndent(text, doc, unit);
  const flow = prefersFlowLists(doc);
  const existing =
    ctx.doc.value.spec &&
    typeof ctx.doc.value.spec === 'object' &&
    !Array.isArray(ctx.doc.value.spec) &&
    Object.prototype.hasOwnProperty.call(ctx.doc.value.spec, 'strategy');
  proposals.forEach((p, k) => {
    const lines = strategyLines(p, unit, seq, flow);
    const main: Edit | undefined = existing
      ? replacePair(text, doc, ['spec', 'strategy'], lines)
      : appendAt(text, doc, ['spec'], lines, unit);
    if (!main) return;
    const edits: TextEdit[] = [{ file: ctx.file.uri, ...main }];
    if (p.from !== 'app') {
      const label = addTemplateLabelEdit(ctx, p.key, p.from === 'param' ? p.param : undefined);
      if (!label) return;
      edits.push(label);
    }
    out.push(
      quickFix(
        // Counts, not percentages: "45" is what the step syncs at once, "25%" would leave the reader to compute it.
        `Roll out by ${p.key}${PACE_WORDS[p.pace](ctx.file.settings.maxWaveSize ?? 10)}: ${p.atOnce ?? p.summary}${labelWords(ctx, p)} — ${lengthText(p, ctx.file.settings.minutesPerSync ?? 3)}`,
        diagnostics,
        edits.sort((a, b) => b.span.start - a.span.start),
        k === 0,
      ),
    );
  });
  return out;
}

export interface EnableFix {
  edits: TextEdit[];
  createFiles?: { file: string; text: string }[];
  /** Workspace-relative file(s) changed or created. */
  where: string;
  /** What happens next, for the title: who restarts the controller. */
  restart: string;
  /** The fix deploys this file (written but not deployed), rather than writing the setting. */
  deploys?: string;
}

const RESTART_MANUAL = 'then restart the ApplicationSet controller';
const RESTART_BY: Record<ConfigTarget['kind'], string> = {
  configmap: RESTART_MANUAL,
  'configmap-generator': 'kustomize renames the ConfigMap, so the controller restarts',
  'helm-values': 'the chart restarts the controller',
  'argocd-cr': 'the Operator restarts the controller',
};

/**
 * Edits that turn the configuration of the Argo CD that runs this ApplicationSet to "enabled", or, when
 * what is written would enable them but nothing deploys it, the step that deploys it. Never an edit that
 * leaves a file invalid YAML (a key written twice is refused by kubectl, kustomize and Argo CD alike).
 */
export function enableEdits(ctx: AppSetContext): EnableFix | undefined {
  const fix = enableEditsUnchecked(ctx);
  return fix && fix.edits.every((e) => keepsYamlValid(ctx, e)) ? fix : undefined;
}

/** True when `edit` leaves its file with no more broken documents than it had (a duplicate key is one). */
function keepsYamlValid(ctx: AppSetContext, edit: TextEdit): boolean {
  const file = ctx.file.workspace.file(edit.file);
  if (!file) return true;
  const after = file.text.slice(0, edit.span.start) + edit.newText + file.text.slice(edit.span.end);
  const broken = (text: string) => parseDocuments(text).filter((d) => d.errors.length).length;
  return broken(after) <= broken(file.text);
}

/** The params ConfigMap that would enable progressive syncs once deployed, and the step that deploys it. */
function deployFix(ctx: AppSetContext, en: ReturnType<typeof enablementFor>): EnableFix | undefined {
  if (!en.undeployed) return undefined;
  const unbuilt = en.evidence.find((e) => e.effect === 'ignored' && e.undeployed);
  if (!unbuilt) return undefined;
  const rel = (f: string) => relativePath(ctx.file.host.roots(), f);
  const dir = dirname(unbuilt.file);
  const base = unbuilt.file.slice(dir.length + 1);
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const k = ctx.file.workspace.file(`${dir}/${name}`);
    if (!k) continue;
    // The kustomization beside it builds the folder: list the file in its resources.
    const doc = parseText(k.text, 0);
    const e = doc ? appendAt(k.text, doc, ['resources'], [`- ${base}`]) : undefined;
    return e ? { edits: [{ file: k.path, ...e }], where: rel(k.path), restart: RESTART_MANUAL, deploys: base } : undefined;
  }
  // A plain folder nothing deploys: a kustomization that lists the ConfigMap is what `kubectl apply -k`
  // and an Argo CD Application of the folder build (install/notDeployed.ts counts it as deployed).
  const target = `${dir}/kustomization.yaml`;
  if (ctx.file.host.stat(target)) return undefined;
  return {
    edits: [],
    createFiles: [
      {
        file: target,
        text: `# Deploys ${base}: kubectl apply -k ${rel(dir) || '.'} (or an Argo CD Application of this folder).\nresources:\n  - ${base}\n`,
      },
    ],
    where: `${rel(target)} (new)`,
    restart: `apply it with kubectl apply -k, ${RESTART_MANUAL}`,
    deploys: base,
  };
}

function enableEditsUnchecked(ctx: AppSetContext): EnableFix | undefined {
  const en = enablementFor(ctx);
  // Written but not deployed: the missing step is deploying it, never writing the setting again.
  if (en.undeployed) return deployFix(ctx, en);
  const roots = ctx.file.host.roots();
  const rel = (f: string) => relativePath(roots, f);
  const fixable = en.evidence.filter((e) => (e.effect === 'disables' || e.effect === 'ignored') && e.valueSpan && e.enableText);
  if (fixable.length && en.evidence.filter((e) => e.effect === 'disables').every((e) => fixable.includes(e))) {
    return {
      edits: fixable.map((e) => ({ file: e.file, span: e.valueSpan!, newText: e.enableText! })),
      where: [...new Set(fixable.map((e) => rel(e.file)))].join(', '),
      restart: RESTART_MANUAL,
    };
  }
  if (en.evidence.some((e) => e.effect === 'disables')) return undefined;
  // Written but not deployed while something else decides (a deployed flag): the kustomization beside it builds it.
  const unbuilt = en.evidence.find((e) => e.effect === 'ignored' && e.unlisted);
  if (unbuilt) {
    const dir = dirname(unbuilt.file);
    for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
      const k = ctx.file.workspace.file(`${dir}/${name}`);
      const doc = k && parseText(k.text, 0);
      const e = k && doc ? appendAt(k.text, doc, ['resources'], [`- ${unbuilt.file.slice(dir.length + 1)}`]) : undefined;
      if (k && e) return { edits: [{ file: k.path, ...e }], where: rel(k.path), restart: RESTART_MANUAL };
    }
  }
  const order: ConfigTarget['kind'][] = ['configmap', 'configmap-generator', 'helm-values', 'argocd-cr'];
  const targets = [...en.targets].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  for (const t of targets) {
    const file = ctx.file.workspace.file(t.file);
    const doc = file && parseText(file.text, t.docIndex);
    if (!file || !doc) continue;
    // A generator that already lists the key would get it twice, which kustomize refuses: not a
    // YAML error, so the check below would not see it (kustomize api/internal/generators/utils.go).
    if (t.kind === 'configmap-generator' && file.text.includes(`${CM_KEY}=`)) continue;
    const value = `${CM_KEY}: "true"`;
    const e =
      t.kind === 'configmap'
        ? appendAt(file.text, doc, ['data'], [value])
        : t.kind === 'configmap-generator'
          ? appendAt(file.text, doc, t.path ?? [], [`- ${CM_KEY}=true`])
          : t.kind === 'helm-values'
            ? appendAt(file.text, doc, [...(t.path ?? []), 'configs', 'params'], [value])
            : appendAt(file.text, doc, ['spec', 'applicationSet', 'extraCommandArgs'], [`- ${FLAG}`]);
    if (e) return { edits: [{ file: t.file, ...e }], where: rel(t.file), restart: RESTART_BY[t.kind] };
  }
  // No configuration of this instance in the repository: create one next to the ApplicationSet.
  return createConfigFix(ctx);
}

/** The ConfigMap file created when the repository holds no configuration for this ApplicationSet's Argo CD. */
export function paramsConfigMapText(namespace: string, eol = '\n'): string {
  return [
    '# Turns on progressive syncs (RollingSync strategies) in the ApplicationSet controller.',
    '# The controller reads this ConfigMap when it starts: after applying it, restart it with',
    `#   kubectl -n ${namespace} rollout restart deployment argocd-applicationset-controller`,
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    `  name: ${CM_NAME}`,
    `  namespace: ${yamlString(namespace)}`,
    '  labels:',
    `    app.kubernetes.io/name: ${CM_NAME}`,
    '    app.kubernetes.io/part-of: argocd',
    'data:',
    `  ${CM_KEY}: "true"`,
    '',
  ].join(eol);
}

function createConfigFix(ctx: AppSetContext): EnableFix | undefined {
  const path = ctx.file.path;
  if (!path) return undefined;
  const dir = dirname(path);
  const target = `${dir}/${CM_NAME}.yaml`;
  if (ctx.file.workspace.file(target) || ctx.file.host.stat(target)) return undefined;
  const meta = ctx.doc.value.metadata;
  const ns =
    meta && typeof meta === 'object' && !Array.isArray(meta) && typeof meta.namespace === 'string' && meta.namespace
      ? meta.namespace
      : 'argocd';
  const edits: TextEdit[] = [];
  // A kustomization beside it must pick the file up: as a patch over an upstream install, else as a resource.
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const k = ctx.file.workspace.file(`${dir}/${name}`);
    const doc = k && parseText(k.text, 0);
    if (!k || !doc) continue;
    const v = doc.toJS() as Record<string, unknown> | null;
    const resources = Array.isArray(v?.resources) ? (v!.resources as unknown[]).map(String) : [];
    const overInstall = resources.some((r) => /argo-cd|argoproj|install\.ya?ml|(^|\/)argocd(\/|$)/i.test(r));
    const e = overInstall
      ? appendAt(k.text, doc, ['patches'], [`- path: ${CM_NAME}.yaml`])
      : appendAt(k.text, doc, ['resources'], [`- ${CM_NAME}.yaml`]);
    if (e) edits.push({ file: k.path, ...e });
    break;
  }
  return {
    edits,
    createFiles: [{ file: target, text: paramsConfigMapText(ns) }],
    where: relativePath(ctx.file.host.roots(), target) + ' (new)',
    restart: RESTART_MANUAL,
  };
}

/** The override, worded as what it is: the user vouches for a controller configured elsewhere. */
export const OUTSIDE_TITLE = 'I have enabled it outside this repository (sets appsetTools.progressiveSyncs to "enabled")';

function enableActions(ctx: AppSetContext, d: EngineDiagnostic): CodeAction[] {
  const out: CodeAction[] = [];
  const fix = enableEdits(ctx);
  if (fix) {
    const file = fix.where.replace(/ \(new\)$/, '');
    const title = fix.deploys
      ? `Deploy ${fix.deploys}: ${fix.createFiles?.length ? `create ${file} listing it` : `list it in ${file}`} (${fix.restart})`
      : `Enable progressive syncs: ${fix.createFiles?.length ? `create ${file}` : `in ${file}`} (${fix.restart})`;
    out.push({
      ...quickFix(title, [d], fix.edits, true),
      ...(fix.createFiles ? { createFiles: fix.createFiles } : {}),
    });
  }
  out.push({
    title: OUTSIDE_TITLE,
    kind: 'quickfix',
    diagnosticCodes: [d.code],
    diagnostics: [d],
    command: { id: Commands.setProgressiveSyncs, title: 'Set appsetTools.progressiveSyncs', args: ['enabled'] },
  });
  return out;
}

function replaceAction(
  ctx: AppSetContext,
  d: EngineDiagnostic,
  title: string,
  span: Span,
  newText: string,
  preferred: boolean,
): CodeAction {
  return quickFix(title, [d], [{ file: ctx.file.uri, span, newText }], preferred);
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
      case 'rollout/blast-radius':
      case 'rollout/large-wave': {
        // Too many at once: the safer strategies replace what is written.
        if (!strategyOffered) out.push(...insertStrategyActions(ctx, [d]));
        strategyOffered = true;
        break;
      }
      case 'policy/change-at-once': {
        // The change syncs too much at once (features/policy/changeGate.ts): the strategy the controller
        // ignores is turned on, else a RollingSync is proposed.
        if ((d.data as { mode?: string } | undefined)?.mode === 'ignored') out.push(...enableActions(ctx, d));
        else if (!strategyOffered) {
          out.push(...insertStrategyActions(ctx, [d]));
          strategyOffered = true;
        }
        break;
      }
      case 'rollout/empty-step': {
        const key = (d.data as { clusterLabel?: string } | undefined)?.clusterLabel;
        const e = key ? addTemplateLabelEdit(ctx, key) : undefined;
        if (key && e) out.push(quickFix(`Copy the cluster label "${key}" into template.metadata.labels`, [d], [e], true));
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
        if (e)
          out.push(
            quickFix('Remove syncPolicy.automated (RollingSync decides when Applications sync)', [d], [{ file: ctx.file.uri, ...e }]),
          );
        break;
      }
    }
  }
  // Also offered without a diagnostic (below the threshold, one cluster): on `generators:` or `strategy:`.
  if (!strategyOffered && !isRollingSync(getStrategy(ctx))) {
    const view = fieldsOf(ctx.doc);
    const on = [view.generators.keySpan, view.strategy.at.strategy.keySpan];
    if (on.some((s) => overlaps(s, span))) {
      for (const a of insertStrategyActions(ctx, [])) out.push({ ...a, kind: 'refactor', isPreferred: false });
    }
  }
  return out;
}
