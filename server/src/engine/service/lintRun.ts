/**
 * The findings of an analysis, as an editor and CI report them: every feature module's findings, the
 * ones a louder finding replaces dropped, the repository configuration applied (severities, `off`,
 * ignored paths, inline suppressions). Computed in steps between feature modules and kept per analysis.
 */
import type { EngineHost } from '../host';
import type { EngineDiagnostic } from '../types';
import { commentStarts } from '../yaml';
import type { WorkspaceIndex } from '../workspace/index';
import { dropAfterYamlErrors, dropSuperseded } from '../diagnostics/findings';
import { configFor, parseConfig } from '../config/load';
import { applyConfig, isIgnored, type Finding } from '../config/apply';
import { CONFIG_FILE } from '../config/types';
import { SUPERSEDES } from '../features/policy/gates';
import { codeInfo } from '../diagnostics/codes';
import { mayDeclareClusters } from '../generators/placeholders';
import { mayConfigureController } from '../rollout/enablement';
import { declaresAppSet } from '../kinds/appset';
import { mayHaveArgocdAppsValues } from '../kinds/argocdApps';
import { heldShown, unlessExpansion, withoutExpansion } from './heldFindings';
import type { Analysis } from './analyses';
import type { AppSetContext } from '../features/context';
import type { Dispatch } from './dispatch';
import { helmRenderFindings } from './helmRenderFindings';

export class LintRun {
  // Findings kept per analysis: the diagnostics run computes them in steps (`prepareDiagnostics`), the
  // answers that follow read them.
  private readonly linted = new WeakMap<Analysis, Finding[]>();

  constructor(
    private readonly host: EngineHost,
    private readonly workspace: WorkspaceIndex,
    private readonly dispatch: Dispatch,
  ) {}

  *lintSteps(a: Analysis): Generator<void, Finding[]> {
    const { host, workspace, dispatch } = this;
    const done = this.linted.get(a);
    if (done) return done;
    const cfg = a.file.config ?? configFor(a.file.path, host, workspace);
    let result: Finding[];
    if (isIgnored(a.file.path, cfg)) result = [];
    // The configuration file itself: its own problems (it holds no ApplicationSet).
    else if (a.file.path && a.file.path.endsWith('/' + CONFIG_FILE)) result = parseConfig(a.file.text, a.file.path).diagnostics;
    else {
      const out: EngineDiagnostic[] = [...a.file.parsed.diagnostics];
      for (const c of dispatch.contributors) {
        out.push(...(dispatch.one(c, (x) => x.fileDiagnostics?.(a.file)) ?? []));
        yield;
      }
      // An ApplicationSet whose answer read cluster data while the language server still reads the
      // workspace gives only its findings that need no expansion now (heldFindings.ts).
      let held = false;
      for (const ctx of a.appsets) {
        const before = workspace.heldReads;
        const heldBefore = workspace.reading && expansionHeld(ctx);
        let mine: EngineDiagnostic[] = [];
        if (!heldBefore)
          for (const c of dispatch.contributors) {
            mine.push(...(dispatch.one(c, (x) => x.diagnostics?.(ctx)) ?? []));
            yield;
          }
        if (heldBefore || workspace.heldReads !== before) {
          held = true;
          const early = withoutExpansion(ctx);
          mine = [];
          for (const c of dispatch.contributors) {
            mine.push(...(dispatch.one(c, (x) => unlessExpansion(() => x.diagnostics?.(early))) ?? []));
            yield;
          }
          mine = heldShown(ctx, mine);
        }
        out.push(...mine);
      }
      // A chart template (no ApplicationSet before Helm renders it) that Helm itself fails on.
      if (!a.appsets.length && a.file.path && out.some((d) => d.code === 'helm/chart-template'))
        out.push(...helmRenderFindings(a.file.text, a.file.path, host));
      // A document whose only YAML errors are repeated keys was read whole (every value is there, the
      // later of two repeated keys kept): the API server rejects it for the repeat, and every other
      // certain mistake in it is reported at once, not after the repeat is fixed. Any other YAML error
      // leaves only the library's best-effort reading, whose findings would be guesses.
      const broken = a.file.parsed.docs.filter((d) => d.doc.errors.some((e) => e.code !== 'DUPLICATE_KEY')).map((d) => d.span);
      result = applyConfig(
        superseded(dropSuperseded(dropAfterYamlErrors(out, broken))),
        a.file.text,
        cfg,
        (c) => codeInfo(c) !== undefined,
        commentStarts,
      );
      // Whether a suppression comment suppresses nothing is known once nothing is held.
      if (held) result = result.filter((f) => f.code !== 'config/suppression');
    }
    this.linted.set(a, result);
    return result;
  }
}

/** Whether the ApplicationSet's expansion used cluster data read while the workspace is still read (an expansion that fails is not held). */
function expansionHeld(ctx: AppSetContext): boolean {
  try {
    return ctx.expansion().held === true;
  } catch {
    return false;
  }
}

/** The findings not suppressed, without the mark. */
export function unsuppressed(findings: Finding[]): EngineDiagnostic[] {
  return findings.flatMap((f) => {
    if (f.suppressed) return [];
    const { suppressed: _, ...d } = f;
    return [d];
  });
}

/** Drops findings a louder one at the same place replaces (e.g. a policy error over the rollout warning). */
function superseded(ds: EngineDiagnostic[]): EngineDiagnostic[] {
  const drop = new Set<string>();
  for (const d of ds) for (const c of SUPERSEDES[d.code] ?? []) drop.add(`${c}@${d.span.start}`);
  return drop.size ? ds.filter((d) => !drop.has(`${d.code}@${d.span.start}`)) : ds;
}

/** A text that declares an ApplicationSet (also as argocd-apps chart values), even if it does not parse as one. */
export function looksLikeAppSet(text: string): boolean {
  return declaresAppSet(text) || mayHaveArgocdAppsValues(text);
}

/**
 * In a YAML file that holds no ApplicationSet, YAML findings are left to the editor's YAML tools,
 * except where the model reads the file: a limit that left a cluster Secret unread (an alias bomb) —
 * the cluster generators miss that cluster —, and a syntax error (a key written twice) in a cluster
 * Secret or in the configuration of the ApplicationSet controller, which kubectl, kustomize and Argo CD
 * refuse, so the model does not read it either (issue 37: a duplicate key in argocd-cmd-params-cm.yaml
 * had no finding anywhere). Beside Red Hat's YAML extension the server hides `yaml/syntax` (it says it).
 */
export function outsideAppSets<D extends { code: string }>(a: Analysis, ds: D[]): D[] {
  if (a.appsets.length || looksLikeAppSet(a.file.text)) return ds;
  const clusters = mayDeclareClusters(a.file.text);
  const read = clusters || mayConfigureController(a.file.text);
  return ds.filter((d) => !d.code.startsWith('yaml/') || (clusters && codeInfo(d.code)?.unchecked) || (read && d.code === 'yaml/syntax'));
}
