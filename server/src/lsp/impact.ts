/**
 * The impact of the uncommitted change, in the editor: for an open document, each ApplicationSet's
 * generated Applications at the baseline commit (`impactBaseline`: HEAD by default) beside those of the
 * editor's state — unsaved edits of any input included, since the head side is the server's own
 * service, which sees every open document — compared by the engine that `appset diff` uses
 * (`appSetSides`, `diffAppSet`, `changeImpact`). The baseline tree is read through the read-only git
 * host `appset diff` uses (host/gitRevisionHost.ts), once per baseline commit and settings: its
 * service and each file's side are kept by commit id.
 */
import {
  appSetSides,
  appsYaml,
  changeGateFinding,
  changeImpact,
  changeSummary,
  diffAppSet,
  getLanguageService,
  pairAppSets,
  runSteps,
  type Analysis,
  impactLensTitle,
  impactMarkdown,
  type AppSetDiff,
  type ChangeImpact,
  type CodeLens,
  type EngineDiagnostic,
  type EngineHost,
  type EngineSettings,
  type Span,
  type LanguageService,
  type SideAppSet,
} from '@appset-tools/engine';
import type { Baseline } from '../host/baseline';
import { URI } from './uri';
import type { Outcome } from './scheduler';
import { Commands, type ChangeSummary, type ChangeTexts } from '@appset-tools/protocol';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** How long a resolved baseline is trusted (a commit moves HEAD; resolving costs one git process). */
const RESOLVE_TTL_MS = 2000;
/** Baseline commits kept (each a service over one commit's tree). */
const MAX_BASELINES = 2;

export interface AppSetImpact {
  diff: AppSetDiff;
  impact: ChangeImpact;
  /** Where the ApplicationSet's document starts (the lens and the hover sit there). */
  start: number;
  /** Its `spec.generators` key (the change gate's finding sits there). */
  generators?: Span;
  /** Both sides, for the diff view's texts. */
  base?: SideAppSet;
  head: SideAppSet;
  /** Why the impact is not known (the document's YAML does not parse): said instead of a wrong answer. */
  unknown?: string;
}

/**
 * The read-only git access the comparison needs: the Node server's (host/baseline.ts, host/gitRevisionHost.ts,
 * given by lsp/nodeMain.ts); the web worker has none (no git history in VS Code for the Web).
 */
export interface BaselineGit {
  gitFolder(dir: string): { root: string; dir: string } | undefined;
  resolveBaseline(root: string, setting: string): Baseline;
  revisionHost(root: string, commit: string, settings: EngineSettings): EngineHost;
}

/** What the comparison needs of the server (state.ts builds it; this module does not import the state). */
export interface ImpactDeps {
  service(): LanguageService;
  settings(): EngineSettings;
  slices<T>(steps: Generator<unknown, T>, stale: () => boolean, name: string): Promise<Outcome<T>>;
  /** The git access, or undefined where the server has none (the web worker). */
  git(): BaselineGit | undefined;
  /** Why there is no git access, said on the lens (NO_GIT_HISTORY when the platform says nothing). */
  noGitHistory?(): string | undefined;
}

/** Said on the lens where the server cannot read git history (the web worker), instead of going quiet. */
export const NO_GIT_HISTORY = 'VS Code for the Web reads no git history, so the change against the baseline is not known here';

export type DocumentImpact = { baseline: string; appsets: AppSetImpact[] } | { unknown: string } | undefined;

interface BaseTree {
  host: EngineHost;
  service: LanguageService;
  /** Each file's side at the baseline (absolute path → its ApplicationSets). */
  sides: Map<string, Promise<SideAppSet[]>>;
}

export class Impacts {
  private readonly roots = new Map<string, { at: number; value: { root: string; dir: string } | null }>();
  private readonly resolved = new Map<string, { at: number; baseline: Baseline }>();
  private readonly trees = new Map<string, BaseTree>();
  private readonly results = new WeakMap<Analysis, { key: string; value: DocumentImpact }>();

  constructor(private readonly s: ImpactDeps) {}

  /**
   * The git work tree holding a file and the file's path in it as git names it (its folder's real
   * path: git reports the root with symbolic links resolved); null outside one. Asked once per folder.
   */
  private rootOf(git: BaselineGit, file: string): { root: string; file: string } | null {
    const dir = file.slice(0, Math.max(1, file.lastIndexOf('/')));
    let r = this.roots.get(dir);
    // A folder outside git is asked again after a while (`git init` may come later).
    if (r === undefined || (r.value === null && Date.now() - r.at >= RESOLVE_TTL_MS)) {
      r = { at: Date.now(), value: git.gitFolder(dir) ?? null };
      this.roots.set(dir, r);
    }
    const v = r.value;
    return v && { root: v.root, file: `${v.dir}/${file.slice(file.lastIndexOf('/') + 1)}` };
  }

  private baseline(git: BaselineGit, root: string, setting: string): Baseline {
    const key = `${root}\0${setting}`;
    const now = Date.now();
    const c = this.resolved.get(key);
    if (c && now - c.at < RESOLVE_TTL_MS) return c.baseline;
    const baseline = git.resolveBaseline(root, setting);
    this.resolved.set(key, { at: now, baseline });
    return baseline;
  }

  /** The baseline's side of one file, computed once per commit, settings and file (in slices: other requests go on meanwhile). */
  private baseSides(git: BaselineGit, root: string, commit: string, file: string): Promise<SideAppSet[]> {
    const settings = this.s.settings();
    const key = `${root}\0${commit}\0${JSON.stringify(settings)}`;
    let tree = this.trees.get(key);
    if (!tree) {
      const host = git.revisionHost(root, commit, settings);
      tree = { host, service: getLanguageService({ host }), sides: new Map() };
      this.trees.set(key, tree);
      while (this.trees.size > MAX_BASELINES) this.trees.delete(this.trees.keys().next().value!);
    }
    const t = tree;
    let sides = t.sides.get(file);
    if (!sides) {
      const text = t.host.readFile(file);
      sides = text === undefined ? Promise.resolve([]) : this.computeBase(t.service, root, file, text);
      t.sides.set(file, sides);
      // A failure is not kept: the next request tries again.
      sides.catch(() => t.sides.get(file) === sides && t.sides.delete(file));
    }
    return sides;
  }

  private async computeBase(service: LanguageService, root: string, file: string, text: string): Promise<SideAppSet[]> {
    const uri = URI.fromPath(file);
    const steps = (function* () {
      const a = yield* service.analyzeSteps(uri, text, file);
      yield* service.prepare(a);
      return a;
    })();
    const r = await this.s.slices(steps, () => false, 'baseline');
    const a = r.value ?? runSteps(service.analyzeSteps(uri, text, file));
    return appSetSides(service, a, { root, path: file, text });
  }

  private where(git: BaselineGit, file: string): { root: string; file: string; baseline: Baseline } | undefined {
    const at = this.rootOf(git, file);
    if (!at) return undefined;
    return { ...at, baseline: this.baseline(git, at.root, this.setting(file)) };
  }

  private setting(file: string): string {
    return this.s.service().configFor(file).settings.impactBaseline ?? this.s.settings().impactBaseline;
  }

  /**
   * The impact of the change on the ApplicationSets of `a` (its expansions ready): `{ unknown }` with the
   * reason when the baseline names no commit or cannot be read; undefined outside a git work tree or with
   * `impactBaseline: off`.
   */
  async of(a: Analysis, file: string, text: string): Promise<DocumentImpact> {
    // `impactBaseline: off` is decided here only, with git or without (host/baseline.ts resolves the others).
    if (this.setting(file).trim() === 'off') return undefined;
    const git = this.s.git();
    if (!git) return { unknown: this.s.noGitHistory?.() ?? NO_GIT_HISTORY };
    const at = this.where(git, file);
    if (!at || 'off' in at.baseline) return undefined;
    if ('unknown' in at.baseline) return { unknown: at.baseline.unknown };
    const { root, baseline } = at;
    let base: SideAppSet[];
    try {
      base = await this.baseSides(git, root, baseline.commit, at.file);
    } catch (e) {
      // git failed (gone, a broken object): said, never an answer against another baseline.
      return { unknown: `the baseline ${baseline.label} could not be read: ${(e as Error).message.replace(/\s*\n[\s\S]*$/, '')}` };
    }
    const key = `${baseline.commit}\0${base.length}`;
    const kept = this.results.get(a);
    if (kept && kept.key === key) return kept.value;
    const head = appSetSides(this.s.service(), a, { root, path: at.file, text });
    const starts = new Map(
      this.s
        .service()
        .appsets(a)
        .map((x) => [x.index, x.span.start]),
    );
    const appsets: AppSetImpact[] = [];
    for (const [b, h] of pairAppSets(base, head)) {
      if (!h) continue; // an ApplicationSet removed from the file has no place to show its lens
      const diff = diffAppSet(b, h);
      const start = starts.get(h.docIndex) ?? 0;
      const generators = this.s.service().rolloutSites(a, start)?.generators;
      appsets.push({
        diff,
        impact: changeImpact(diff, h),
        start,
        head: h,
        ...(b ? { base: b } : {}),
        ...(generators ? { generators } : {}),
        ...(h.broken ? { unknown: `while the YAML does not parse (${h.broken})` } : {}),
      });
    }
    const value: DocumentImpact = { baseline: baseline.label, appsets };
    this.results.set(a, { key, value });
    return value;
  }

  /** Whether the repository's configuration sets a change gate for `file` (else `gateFindings` finds nothing, at once). */
  gated(file: string): boolean {
    const { policy } = this.s.service().configFor(file);
    return policy.maxChangeAtOnce !== undefined || policy.maxChangeClustersAtOnce !== undefined;
  }

  /**
   * The change gate's findings for `a` (`policy/change-at-once`, features/policy/changeGate.ts): none unless
   * the repository's configuration sets `policy.maxChangeAtOnce` or `policy.maxChangeClustersAtOnce`.
   */
  async gateFindings(a: Analysis, file: string, text: string): Promise<EngineDiagnostic[]> {
    if (!this.gated(file)) return [];
    const cfg = this.s.service().configFor(file);
    const d = await this.of(a, file, text);
    if (!d || 'unknown' in d) return [];
    // Not known while the YAML does not parse: no gate finding (the syntax error is the finding).
    return d.appsets.flatMap((x) =>
      x.unknown ? [] : (changeGateFinding(x.impact, cfg, x.generators ?? { start: x.start, end: x.start }) ?? []),
    );
  }
}

/**
 * The lens over each changed ApplicationSet (its first line), or one saying why the change's impact is
 * not known. Its command shows the breakdown (other editors) or the diff view (the VS Code client).
 */
export function impactLenses(d: DocumentImpact | void, uri: string): CodeLens[] {
  if (!d) return [];
  if ('unknown' in d) return [{ span: { start: 0, end: 0 }, title: `This change: not known (${d.unknown})` }];
  const out: CodeLens[] = [];
  for (const x of d.appsets) {
    if (x.unknown) {
      out.push({ span: { start: x.start, end: x.start }, title: `This change: not known ${x.unknown}` });
      continue;
    }
    const title = impactLensTitle(x.impact);
    if (!title) continue;
    const tooltip = impactMarkdown(x.impact, x.diff, d.baseline);
    out.push({
      span: { start: x.start, end: x.start },
      title,
      ...(tooltip ? { tooltip } : {}),
      command: { id: Commands.showChange, title: 'Show this change', args: [uri, x.start] },
    });
  }
  return out;
}

/** The changed ApplicationSet at `offset` (the last one starting at or before it), else the first changed one. */
function changedAt(d: DocumentImpact | void, offset: number | undefined): AppSetImpact | undefined {
  if (!d || 'unknown' in d) return undefined;
  const changed = d.appsets.filter((x) => !x.impact.none && !x.unknown);
  if (offset === undefined) return changed[0];
  return [...changed].reverse().find((x) => x.start <= offset) ?? changed[0];
}

/** Both sides' generated Applications of the ApplicationSet at `offset`, for a diff view; null when nothing changed or not known. */
export function changeTexts(d: DocumentImpact | void, offset: number | undefined): ChangeTexts | null {
  const x = changedAt(d, offset);
  if (!x || !d || 'unknown' in d) return null;
  return {
    name: x.diff.name,
    baseline: d.baseline,
    summary: impactLensTitle(x.impact) ?? '',
    before: appsYaml(x.base, `${x.diff.name}: the Applications generated at ${d.baseline}`),
    after: appsYaml(x.head, `${x.diff.name}: the Applications generated now (unsaved edits included)`),
  };
}

/**
 * The rollout view's "This change" section for the ApplicationSet at `offset`: null when nothing changed
 * (or the baseline is `off`); where the lens says "not known", the section says so with the same reason.
 */
export function changeSummaryAt(d: DocumentImpact | void, offset: number | undefined): ChangeSummary | null {
  if (d && 'unknown' in d) {
    const summary = `This change: not known (${d.unknown})`;
    return { name: '', baseline: '', summary, timeline: {}, steps: [], emptied: [], moved: [], deletions: [], unknown: d.unknown };
  }
  const x = changedAt(d, offset);
  if (!x || !d || 'unknown' in d) return null;
  return changeSummary(x.diff, x.base, x.head, d.baseline, impactLensTitle(x.impact) ?? '');
}

/** The breakdown as text and its one line, for `appsetTools.showChange` in editors without a diff view. */
export function changeText(d: DocumentImpact | void, offset: number | undefined): { text: string; summary: string } | null {
  if (d && 'unknown' in d) return { text: `This change: not known (${d.unknown})`, summary: `This change: not known (${d.unknown})` };
  const x = changedAt(d, offset);
  const text = x && d && impactMarkdown(x.impact, x.diff, d.baseline);
  if (!x || !text) return null;
  return { text: text.replace(/\*\*/g, '').replace(/`/g, ''), summary: impactLensTitle(x.impact) ?? '' };
}

/** The breakdown, on hovering the first line of a changed ApplicationSet. */
export function impactHover(d: DocumentImpact | void, doc: TextDocument, offset: number): { span: Span; markdown: string } | undefined {
  if (!d || 'unknown' in d) return undefined;
  const line = doc.positionAt(offset).line;
  const x = d.appsets.find((a) => !a.unknown && doc.positionAt(a.start).line === line);
  const markdown = x && impactMarkdown(x.impact, x.diff, d.baseline);
  if (!x || !markdown) return undefined;
  const end = doc.offsetAt({ line: line + 1, character: 0 });
  return { span: { start: x.start, end: Math.max(x.start, end - 1) }, markdown };
}
