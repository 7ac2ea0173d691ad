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
import { earlyShown, withoutExpansion, unlessExpansion } from './earlyFindings';
import type { Analysis } from './analyses';
import type { Dispatch } from './dispatch';
import { helmRenderFindings } from './helmRenderFindings';

export class LintRun {
  // Findings kept per analysis: the diagnostics run computes them in steps (`prepareDiagnostics`), the
  // answers that follow read them.
  private readonly linted = new WeakMap<Analysis, Finding[]>();
  private readonly fileFindings = new WeakMap<Analysis, EngineDiagnostic[]>();

  constructor(
    private readonly host: EngineHost,
    private readonly workspace: WorkspaceIndex,
    private readonly dispatch: Dispatch,
  ) {}

  *lintSteps(a: Analysis, early = false): Generator<void, Finding[]> {
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
      // The file's findings, computed once per analysis (an early answer computed them already).
      let files = this.fileFindings.get(a);
      if (!files) {
        files = [];
        for (const c of dispatch.contributors) {
          files.push(...(dispatch.one(c, (x) => x.fileDiagnostics?.(a.file)) ?? []));
          yield;
        }
        this.fileFindings.set(a, files);
      }
      out.push(...files);
      for (const ctx of a.appsets) {
        // Early: the modules that ask for the expansion give nothing now (they answer in the whole run).
        const c2 = early ? withoutExpansion(ctx) : ctx;
        for (const c of dispatch.contributors) {
          out.push(...(dispatch.one(c, (x) => (early ? unlessExpansion(() => x.diagnostics?.(c2)) : x.diagnostics?.(c2))) ?? []));
          yield;
        }
      }
      // A document whose only YAML errors are repeated keys was read whole (every value is there, the
      // later of two repeated keys kept): the API server rejects it for the repeat, and every other
      // certain mistake in it is reported at once, not after the repeat is fixed. Any other YAML error
      // leaves only the library's best-effort reading, whose findings would be guesses.
      // A chart template (no ApplicationSet before Helm renders it) that Helm itself fails on.
      if (!early && !a.appsets.length && a.file.path && out.some((d) => d.code === 'helm/chart-template'))
        out.push(...helmRenderFindings(a.file.text, a.file.path, host));
      const broken = a.file.parsed.docs.filter((d) => d.doc.errors.some((e) => e.code !== 'DUPLICATE_KEY')).map((d) => d.span);
      result = applyConfig(
        superseded(dropSuperseded(dropAfterYamlErrors(out, broken))),
        a.file.text,
        cfg,
        (c) => codeInfo(c) !== undefined,
        commentStarts,
      );
    }
    if (!early) this.linted.set(a, result);
    return result;
  }

  /** Whether the whole answer for `a` is known. */
  done(a: Analysis): boolean {
    return this.linted.has(a);
  }

  /** The early answer (see earlyFindings.ts), in steps. */
  *earlySteps(a: Analysis): Generator<void, EngineDiagnostic[]> {
    const findings = yield* this.lintSteps(a, true);
    return earlyShown(a, outsideAppSets(a, unsuppressed(findings)));
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
