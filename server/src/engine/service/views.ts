/**
 * The facade's views of an ApplicationSet: the preview (and a Helm chart template's rendering), the
 * rollout plan, their texts for the server's commands, the status bar's file info and the install
 * model's reports.
 */
import type { EngineHost } from '../host';
import { runSteps } from '../steps';
import type { WorkspaceIndex } from '../workspace/index';
import type { ExpansionProblem } from '../expand/types';
import { lineNumber } from '../yaml';
import type { AppSetContext } from '../features/context';
import { previewTextSteps } from '../expand/preview';
import { planSummary, planText, previewSummary } from '../features/editor/commandText';
import type { FileInfo, PreviewResult, RolloutPlan } from '@appset-tools/protocol';
import { configFor } from '../config/load';
import { effectiveSettings } from '../config/apply';
import { enablementFor, getRolloutPlan, getStrategy } from '../features/rollout/plan';
import { describeInstances } from '../rollout/enablement';
import { installReport, installReportLines, type InstallReport } from '../install/report';
import { parseInstallFilesAhead } from '../install/model';
import { decidedWhere, shownInstanceName } from '../rollout/describe';
import { rollingSyncWithSteps } from '../rollout/spec';
import { rolloutViewDetails } from '../features/rollout/viewDetails';
import { fieldsOf } from '../fields/appset';
import { sub } from '../fields/place';
import { chartTemplateOf } from '../kinds/helmChart';
import { notRenderedHere, renderChartTemplate } from './helmRender';
import type { Analysis, Analyses } from './analyses';
import { appsetAt } from './dispatch';
import type { AppSetSummary, Applications, RolloutSites } from './results';
import { applicationsSyncPolicy } from '../features/policy/syncPolicy';
import type { EffectivePolicy } from '../rules/applicationsSync';

/** Text read ahead per step before the log of the installs (a longer file alone): about 1 ms warm for the fast reader. */
const READ_AHEAD_CHARS = 16 * 1024;

export class Views {
  constructor(
    private readonly host: EngineHost,
    private readonly workspace: WorkspaceIndex,
    private readonly analyses: Analyses,
  ) {}

  /**
   * For a Helm chart template with its chart's values.yaml in the workspace: the analysis of the text
   * Helm renders, or why it cannot be rendered here; undefined for other files.
   */
  helmRendered(a: Analysis): { analysis: Analysis; text: string; values: string } | { cannot: string } | undefined {
    const { text, path } = a.file;
    const chart = path ? chartTemplateOf(text, path, this.host) : undefined;
    if (!path || !chart?.chart || chart.tool) return undefined;
    const r = renderChartTemplate(text, path, chart.chart, this.host);
    if ('cannot' in r) return r;
    // A path beside the chart (not under templates/), so that the rendered text is read as plain YAML.
    const rendered = `${chart.chart}/.helm-rendered/${path.slice(path.lastIndexOf('/') + 1)}`;
    return { analysis: this.analyses.analyze(`${a.file.uri}#helm-rendered`, r.text, rendered), text: r.text, values: r.values };
  }

  preview(a: Analysis, offset?: number, opts?: { lineSafe?: boolean }): PreviewResult | null {
    // A chart template: the ApplicationSets Helm renders from the chart's values.yaml, said as such.
    const helm = a.appsets.length ? undefined : this.helmRendered(a);
    if (helm && 'analysis' in helm && helm.analysis.appsets.length) {
      const p = this.preview(helm.analysis, undefined, opts);
      return (
        p && {
          ...p,
          yaml: `# rendered as \`helm template\` renders this chart template, with ${helm.values} alone (release name release-name)\n${p.yaml}`,
        }
      );
    }
    // A chart template Helm's render cannot be reproduced for: why, rather than nothing (as `appset render` says).
    if (helm && 'cannot' in helm) return notRendered(helm.cannot);
    const ctx = a.appsets.length ? appsetAt(a, offset) : undefined;
    if (!ctx) return null;
    const exp = ctx.expansion();
    const broken = syntaxErrorIn(a, ctx);
    return {
      name: ctx.doc.name,
      yaml: runSteps(previewYamlSteps(ctx, opts?.lineSafe)),
      apps: exp.apps.length,
      notes: exp.notes,
      exact: exp.exact,
      ...(broken ? { broken } : {}),
    };
  }

  /** The first YAML syntax error in the document of the ApplicationSet at `offset` (`line 12: ...`), or undefined. */
  syntaxError(a: Analysis, offset?: number): string | undefined {
    const ctx = a.appsets.length ? appsetAt(a, offset) : undefined;
    return ctx && syntaxErrorIn(a, ctx);
  }

  *preparePreview(a: Analysis, offset?: number): Generator<void, void> {
    const ctx = a.appsets.length ? appsetAt(a, offset) : undefined;
    if (ctx) yield* previewYamlSteps(ctx);
  }

  /** The plan, with what the rollout view shows of each Application unless `view` is false. */
  rolloutPlan(a: Analysis, offset?: number, opts?: { view?: boolean }): RolloutPlan | null {
    const ctx = a.appsets.length ? appsetAt(a, offset) : undefined;
    if (!ctx) return null;
    return opts?.view === false ? getRolloutPlan(ctx) : { ...getRolloutPlan(ctx), ...rolloutViewDetails(ctx, offset) };
  }

  appsets(a: Analysis): AppSetSummary[] {
    return a.appsets.map(({ doc }) => ({
      name: doc.name,
      namespace: doc.namespace,
      index: doc.index,
      span: doc.span,
      value: doc.value,
      ...(doc.helmValues ? { helmValues: doc.helmValues } : {}),
    }));
  }

  applications(a: Analysis, offset?: number): Applications | null {
    const ctx = appsetAt(a, offset);
    if (!ctx) return null;
    const { renders: _, ...applications } = ctx.expansion();
    return applications;
  }

  syncPolicy(a: Analysis, offset?: number): EffectivePolicy | null {
    const ctx = appsetAt(a, offset);
    return ctx ? applicationsSyncPolicy(ctx) : null;
  }

  rolloutSites(a: Analysis, offset?: number): RolloutSites | null {
    const ctx = appsetAt(a, offset);
    if (!ctx) return null;
    const view = fieldsOf(ctx.doc);
    return {
      generators: view.generators.keySpan,
      steps: getRolloutPlan(ctx).steps.map((_, i) => sub(view.strategy.at.steps, i).span),
    };
  }

  previewText(a: Analysis, offset?: number): { text: string; summary: string } | null {
    const ctx = a.appsets.length ? appsetAt(a, offset) : undefined;
    if (!ctx) {
      // A chart template not rendered here: why, as the preview says it.
      const helm = a.appsets.length ? undefined : this.helmRendered(a);
      if (!helm || !('cannot' in helm)) return null;
      const p = notRendered(helm.cannot);
      return { text: p.yaml, summary: p.notes[0] };
    }
    return {
      text: runSteps(previewYamlSteps(ctx)),
      summary: previewSummary(ctx.doc.name, ctx.expansion()),
    };
  }

  planText(a: Analysis, offset?: number): { text: string; summary: string } | null {
    const ctx = a.appsets.length ? appsetAt(a, offset) : undefined;
    if (!ctx) return null;
    const plan = getRolloutPlan(ctx);
    return { text: planText(plan), summary: planSummary(plan) };
  }

  fileInfo(a: Analysis): FileInfo {
    return {
      appsets: a.appsets.map((ctx) => {
        const en = enablementFor(ctx);
        const d = en.decidedBy;
        // The plan's verdict: the sentence the lens, the warning and the rollout view say.
        const verdict = getRolloutPlan(ctx).verdict;
        const text = en.state === 'enabled' ? verdict.sentence : `${verdict.sentence}${decidedWhere(en) ? ` (${decidedWhere(en)})` : ''}`;
        return {
          name: ctx.doc.name,
          start: ctx.doc.span.start,
          end: ctx.doc.span.end,
          rollingSync: rollingSyncWithSteps(getStrategy(ctx)),
          enablement: {
            state: en.state,
            text,
            label: verdict.label,
            instance: en.instance
              ? shownInstanceName(en.instance.name)
                ? `${en.instance.name} (${en.instance.why})`
                : en.instance.why
              : undefined,
            ...(d && d.file !== 'setting' ? { file: d.file, offset: d.span?.start } : {}),
            ...installLinesFor(ctx),
          },
        };
      }),
    };
  }

  installReport(appsets: readonly { path: string; namespace?: string }[]): InstallReport {
    const { host, workspace } = this;
    return installReport({ host, settings: this.rootSettings(), workspace }, appsets);
  }

  enablementSummary(): string[] {
    const { host, workspace } = this;
    return describeInstances({ host, settings: this.rootSettings(), workspace });
  }

  /**
   * `enablementSummary` in steps: the files it reads that are not read yet are read ahead, about
   * READ_AHEAD_CHARS of text a step (install/model.ts `parseInstallFilesAhead`), then it runs with the
   * large ones parsed in steps (WorkspaceIndex.inSteps). Computed in one go, it parsed every ApplicationSet
   * file of the repository while a keystroke or a hover waited (issue 39).
   */
  *enablementSummarySteps(): Generator<void, string[]> {
    while (!parseInstallFilesAhead(this.workspace, this.host.roots(), READ_AHEAD_CHARS)) yield;
    return yield* this.workspace.inSteps(() => this.enablementSummary());
  }

  /** The settings at the workspace root: the root's .appset-tools.yaml counts too (its instances mapping, its progressiveSyncs). */
  private rootSettings() {
    const { host, workspace } = this;
    const root = host.roots()[0];
    return root ? effectiveSettings(host.settings(), configFor(`${root}/.appset-tools.yaml`, host, workspace)) : host.settings();
  }
}

/** The preview of a chart template whose ApplicationSets are not rendered here: the reason, as a YAML comment. */
function notRendered(cannot: string): PreviewResult {
  const said = notRenderedHere(cannot);
  const yaml = said
    .split('\n')
    .map((l) => `# ${l}`.trimEnd())
    .join('\n');
  return { name: '', cannot, yaml: `${yaml}\n`, apps: 0, notes: [said], exact: false };
}

/** The preview text of one ApplicationSet, kept with its context (see `preparePreview`). */
function* previewYamlSteps(ctx: AppSetContext, lineSafe = false): Generator<void, string> {
  const kept = ctx.memo(lineSafe ? 'preview-yaml-line-safe' : 'preview-yaml', () => ({ text: undefined as string | undefined }));
  if (kept.text === undefined) {
    // Show what the controller writes: under an active RollingSync, auto-sync is turned off.
    const rollingSync = !!getRolloutPlan(ctx).effective;
    yield;
    kept.text = yield* previewTextSteps(ctx.doc.name, ctx.expansion(), { rollingSync, siteOf: problemSite(ctx), lineSafe });
  }
  return kept.text;
}

/** Where an expansion problem is written, for the preview header: `apps/appset.yaml:14`. */
function problemSite(ctx: AppSetContext): (p: ExpansionProblem) => string | undefined {
  const file = ctx.file.path ?? ctx.file.uri;
  const roots = [...ctx.file.host.roots()].sort((a, b) => b.length - a.length);
  const root = roots.find((r) => file.startsWith(r.endsWith('/') ? r : r + '/'));
  const name = root ? file.slice(root.length).replace(/^\/+/, '') : file.slice(file.lastIndexOf('/') + 1);
  return (p) => {
    const span = p.span;
    return `${name}:${lineNumber(ctx.file.text, span.start)}`;
  };
}

/** The install model's lines for the install(s) that run this ApplicationSet (status bar tooltip). */
function installLinesFor(ctx: AppSetContext): { install?: string[] } {
  const path = ctx.file.path;
  if (!path) return {};
  const meta = (ctx.doc.value as { metadata?: { namespace?: unknown } } | null)?.metadata;
  const namespace = typeof meta?.namespace === 'string' && meta.namespace ? meta.namespace : undefined;
  const r = installReport(ctx.file, [{ path, namespace }]);
  const lines = installReportLines({ installs: r.installs.filter((i) => i.governs.length), others: r.others });
  return lines.length ? { install: lines } : {};
}

/**
 * The first YAML syntax error in the ApplicationSet's document (`line 12: …`), or undefined: while it
 * stands, the preview is of what could be read (the client then keeps the last good one, marked stale).
 */
export function syntaxErrorIn(a: Analysis, ctx: AppSetContext): string | undefined {
  const { start, end } = ctx.doc.span;
  const d = a.file.parsed.diagnostics.find((x) => x.code === 'yaml/syntax' && x.span.start >= start && x.span.start <= end);
  return d ? `line ${lineNumber(a.file.text, d.span.start)}: ${d.message}` : undefined;
}
