/**
 * "Preview generated Applications": a read-only virtual YAML document per ApplicationSet file,
 * asked from the server (`appsetTools/preview`), refreshed on every change the lenses see (the server's
 * `resultsChanged`, edits, settings) and following the ApplicationSet under the cursor in
 * multi-document files. Preview URIs look like `appset-preview:/<file> · Applications.yaml?<source uri>`.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient/node';
import { PREVIEW_SCHEME, Requests } from '@appset-tools/protocol';
import { request, serverUri } from './request';
import { affectsResults } from './refresh';
import { previewHeader } from './previewOutline';
import { applyHunks, inPlaceHunks, manyPartsChanged, onScreenHunks, type TextHunk } from './lineDiff';

/**
 * Edits come in bursts: the first change is asked at once, the ones that follow within this time once
 * after the burst (the server answers the newest version only). See `refreshSoon`.
 */
const REFRESH_MS = 100;
/**
 * After a refresh that changed too much to edit in place (a template edit changes every Application),
 * the parts on screen are edited at once and the whole text is replaced this long after, unless another
 * refresh comes first (typing in the template): see `refresh`.
 */
const WHOLE_MS = 400;

export class PreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Map<string, vscode.Uri>(); // source uri → preview uri
  /** The offset (ApplicationSet) each source's preview shows; follows the cursor. */
  private readonly offsets = new Map<string, number | undefined>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Per source, the newest refresh asked for: an older answer that comes later is not shown. */
  private readonly generations = new Map<string, number>();
  /** Per source, when the last refresh was asked (the first change after a quiet moment is asked at once). */
  private readonly lastAsked = new Map<string, number>();
  /** Per preview, the server's answer a refresh got and handed to VS Code to replace the text with. */
  private readonly answers = new Map<string, { text: string; offset: number | undefined }>();
  /** Per preview, the whole replacement that follows an on-screen edit (see `refresh`), and its time. */
  private readonly wholeSoon = new Map<string, { timer: NodeJS.Timeout | undefined; run: () => void }>();
  private readonly subscription: vscode.Disposable;
  /**
   * Requests sent (in all, and per source document: a YAML edit also refreshes the other open previews,
   * which a test of one preview must not count) and the last one's time and size (the tests read them
   * through `appsetTools.viewsSnapshot`).
   */
  readonly stats = {
    requests: 0,
    lastMs: 0,
    lastBytes: 0,
    bySource: {} as Record<string, number>,
    /** When (Date.now()) the last refresh was asked for (`onDidChange` fired), sent to the server and answered. */
    last: { fired: 0, asked: 0, answered: 0 },
    /** The last refresh's edit: its number of hunks, or -1 when VS Code replaced the text whole. */
    lastHunks: 0,
    /**
     * The last refresh that changed too much to edit in place: the hunks it edited on screen first (0 when
     * it replaced the text whole at once), and when (Date.now()) the whole replacement that followed was
     * asked for (0 until it is).
     */
    onScreen: { hunks: 0, wholeAsked: 0 },
  };

  constructor(
    private readonly client: LanguageClient,
    resultsChanged: vscode.Event<void>,
  ) {
    this.subscription = vscode.Disposable.from(
      // Edits to the source, and to cluster Secrets or Argo CD configuration, change the preview.
      vscode.workspace.onDidChangeTextDocument((e) => {
        for (const [src, previewUri] of this.open) if (affectsResults(e, vscode.Uri.parse(src))) this.refreshSoon(src, previewUri);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('appsetTools')) this.refreshAll();
      }),
      // Files changed on disk (git pull, a new cluster Secret, a flipped ConfigMap): the server says so.
      resultsChanged(() => this.refreshAll()),
      // Closing the preview stops its refreshes.
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme !== PREVIEW_SCHEME) return;
        for (const [src, previewUri] of this.open)
          if (previewUri.toString() === d.uri.toString()) {
            this.open.delete(src);
            this.offsets.delete(src);
            clearTimeout(this.timers.get(src));
            this.timers.delete(src);
            this.generations.delete(src);
            this.lastAsked.delete(src);
            this.answers.delete(previewUri.toString());
            this.cancelWhole(previewUri.toString());
          }
      }),
      // Scrolling or going to the preview while the rest of its text waits for the pause: put it in place now.
      vscode.window.onDidChangeTextEditorVisibleRanges((e) => this.wholeSoon.get(e.textEditor.document.uri.toString())?.run()),
      vscode.window.onDidChangeActiveTextEditor((e) => e && this.wholeSoon.get(e.document.uri.toString())?.run()),
    );
  }

  refreshAll(): void {
    for (const [src, previewUri] of this.open) this.refreshSoon(src, previewUri);
  }

  /** The cursor moved in a source: show the ApplicationSet it is in (multi-document files). */
  follow(source: vscode.Uri, offset: number, docRange: (offset: number) => string | undefined): void {
    const src = source.toString();
    const previewUri = this.open.get(src);
    if (!previewUri) return;
    const before = docRange(this.offsets.get(src) ?? 0);
    const now = docRange(offset);
    if (now === undefined || now === before) return;
    this.offsets.set(src, offset);
    this.refreshSoon(src, previewUri);
  }

  /**
   * The first change after a quiet moment is asked at once (on the next turn of the event loop, so the
   * language client's didChange for it is sent first; the request names the source's version, and the
   * server waits for it: the answer is never the version before the edit). Changes that follow within
   * REFRESH_MS are one request after the burst.
   */
  private refreshSoon(src: string, previewUri: vscode.Uri): void {
    const quiet = !this.timers.has(src) && Date.now() - (this.lastAsked.get(src) ?? 0) > REFRESH_MS;
    clearTimeout(this.timers.get(src));
    this.timers.set(
      src,
      setTimeout(
        () => {
          this.timers.delete(src);
          this.lastAsked.set(src, Date.now());
          void this.refresh(src, previewUri);
        },
        quiet ? 0 : REFRESH_MS,
      ),
    );
  }

  /**
   * Asks the server again and puts its answer in place. A few changed lines are applied as an edit of
   * those lines; VS Code, asked through `onDidChange`, replaces a preview over 100,000 characters whole
   * (and lays it out and tokenises it again), which costs several times more for an edit of one list
   * element (lineDiff.ts). Many changes (a template edit changes every Application) cannot be edited in
   * place cheaply (VS Code's tokeniser takes an edit's changes one by one): the Applications on screen are
   * edited at once, and VS Code replaces the whole text WHOLE_MS later, or at once when the preview is
   * scrolled or focused; a refresh that comes first (the next keystroke in the template) takes its place,
   * so typing in the template never pays for the whole 258 KiB of a 540-Application preview per
   * keystroke. Should an edit not give exactly the text meant, VS Code is asked to replace it whole.
   */
  private async refresh(src: string, previewUri: vscode.Uri): Promise<void> {
    this.stats.last.fired = Date.now();
    const key = previewUri.toString();
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
    // Not open (any more): VS Code asks when it is opened again.
    if (!doc) return;
    const generation = (this.generations.get(src) ?? 0) + 1;
    this.generations.set(src, generation);
    const text = await this.provideTextDocumentContent(previewUri);
    // A newer refresh was asked for meanwhile (it shows the newer answer), or the preview was closed.
    if (this.generations.get(src) !== generation || doc.isClosed) return;
    // This answer supersedes the one a pending whole replacement would have put in place.
    this.cancelWhole(key);
    const old = doc.getText();
    const hunks = manyPartsChanged(old, text) ? undefined : inPlaceHunks(old, text);
    this.stats.lastHunks = hunks?.length ?? -1;
    if (!hunks) {
      // Only for the same ApplicationSet: another one (the cursor moved to it) is a new text, shown whole.
      const first = sameAppSet(old, text) ? onScreenHunks(old, text, this.onScreen(doc)) : undefined;
      this.stats.onScreen = { hunks: first?.length ?? 0, wholeAsked: 0 };
      const whole = () => {
        this.cancelWhole(key);
        this.stats.onScreen.wholeAsked = Date.now();
        // VS Code asks again (the server answers from what it keeps) and replaces the text whole.
        this.answers.set(key, { text, offset: this.offsets.get(src) });
        this.changed.fire(previewUri);
      };
      if (!first?.length || first.length > 64) return whole();
      // The pause is counted from when the edit on screen is in place (scrolling meanwhile runs it at once).
      const pending = { timer: undefined as NodeJS.Timeout | undefined, run: whole };
      this.wholeSoon.set(key, pending);
      const ok = await this.applyInPlace(doc, first, old);
      if (this.wholeSoon.get(key) !== pending) return; // done, or a newer answer took its place
      if (!ok) return whole();
      pending.timer = setTimeout(whole, WHOLE_MS);
      return;
    }
    if (!hunks.length) return;
    if (!(await this.applyInPlace(doc, hunks, old))) this.changed.fire(previewUri);
  }

  /** Edits the hunks into the preview; false when that did not give the text meant. */
  private async applyInPlace(doc: vscode.TextDocument, hunks: TextHunk[], old: string): Promise<boolean> {
    const edit = new vscode.WorkspaceEdit();
    for (const h of hunks) edit.replace(doc.uri, new vscode.Range(doc.positionAt(h.start), doc.positionAt(h.end)), h.text);
    const applied = await vscode.workspace.applyEdit(edit);
    return applied && (doc.isClosed || doc.getText() === applyHunks(old, hunks));
  }

  /** What the editors showing the preview show, one screen more above and below, as offsets. */
  private onScreen(doc: vscode.TextDocument): { start: number; end: number }[] {
    return vscode.window.visibleTextEditors
      .filter((e) => e.document === doc)
      .flatMap((e) => e.visibleRanges)
      .map((r) => {
        const height = r.end.line - r.start.line + 1;
        const start = doc.offsetAt(new vscode.Position(Math.max(0, r.start.line - height), 0));
        const end = doc.offsetAt(new vscode.Position(r.end.line + height, 0));
        return { start, end };
      });
  }

  private cancelWhole(key: string): void {
    clearTimeout(this.wholeSoon.get(key)?.timer);
    this.wholeSoon.delete(key);
  }

  /** Opens (or refreshes) the preview; with `app`, reveals that Application's entry. */
  async show(source: vscode.Uri | undefined, offset?: number, app?: string): Promise<void> {
    if (!source) {
      void vscode.window.showInformationMessage('Open an ApplicationSet YAML file to preview its Applications.');
      return;
    }
    const base =
      source.path
        .split('/')
        .pop()
        ?.replace(/\.ya?ml$/i, '') ?? 'appset';
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${base} · Applications.yaml`, query: source.toString() });
    const known = this.open.has(source.toString());
    this.open.set(source.toString(), uri);
    const changedAppSet = this.offsets.get(source.toString()) !== offset;
    this.offsets.set(source.toString(), offset);
    if (known && changedAppSet) this.changed.fire(uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    // The path ends in .yaml, so VS Code opens it as YAML; setting the language again would close and reopen it.
    if (doc.languageId !== 'yaml') await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
    const editor = await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: !app });
    if (app) {
      const text = doc.getText();
      const at = text.search(new RegExp(`^  name: ["']?${app.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?$`, 'm'));
      if (at >= 0) {
        const pos = doc.positionAt(at + 2);
        editor.selection = new vscode.Selection(pos, pos);
        editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.AtTop);
      }
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    // The answer a refresh just got, which it leaves to VS Code to put in place: not asked twice.
    const offset = this.offsets.get(uri.query);
    const answer = this.answers.get(uri.toString());
    this.answers.delete(uri.toString());
    if (answer && answer.offset === offset) return answer.text;
    const source = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.query);
    const t0 = Date.now();
    this.stats.last.asked = t0;
    this.stats.requests++;
    this.stats.bySource[uri.query] = (this.stats.bySource[uri.query] ?? 0) + 1;
    try {
      const r = await request(this.client, Requests.preview, {
        uri: serverUri(this.client, vscode.Uri.parse(uri.query)),
        offset,
        version: source?.version,
      });
      this.stats.last.answered = Date.now();
      this.stats.lastMs = this.stats.last.answered - t0;
      this.stats.lastBytes = r?.yaml.length ?? 0;
      return r ? this.unlessBroken(uri.toString(), r) : '# No ApplicationSet found in ' + uri.query + '\n';
    } catch (e) {
      return `# The preview failed: ${(e as Error).message}\n`;
    }
  }

  /** The last preview of each preview document whose YAML parsed (see `unlessBroken`). */
  private readonly lastGood = new Map<string, string>();

  /**
   * While the ApplicationSet's YAML does not parse (a keystroke half-way), the server's preview is of
   * what could be read: the last good preview of the same ApplicationSet stays, marked stale with the
   * syntax error, so it neither empties nor shows a wrong count; without one, what could be read is
   * shown, said to be incomplete. The mark is the second line (the first names the ApplicationSet).
   */
  private unlessBroken(key: string, r: { yaml: string; broken?: string }): string {
    if (!r.broken) {
      this.lastGood.set(key, r.yaml);
      return r.yaml;
    }
    const good = this.lastGood.get(key);
    return good !== undefined && sameAppSet(good, r.yaml)
      ? secondLine(
          good,
          `# STALE: the YAML does not parse (${oneLine(r.broken)}); these are the Applications of its last version that parsed.`,
        )
      : secondLine(r.yaml, `# The YAML does not parse (${oneLine(r.broken)}): this is what could be read, and may be incomplete.`);
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    for (const t of this.timers.values()) clearTimeout(t);
    for (const w of this.wholeSoon.values()) clearTimeout(w.timer);
  }
}

/** Whether two preview texts are of the same ApplicationSet (their first lines name it, `previewHeader`). */
function sameAppSet(a: string, b: string): boolean {
  const name = (t: string) => {
    const nl = t.indexOf('\n');
    return previewHeader(nl < 0 ? t : t.slice(0, nl))?.name;
  };
  return name(a) !== undefined && name(a) === name(b);
}

/** `text` with `line` inserted after its first line. */
export function secondLine(text: string, line: string): string {
  const nl = text.indexOf('\n');
  return nl < 0 ? `${text}\n${line}\n` : `${text.slice(0, nl + 1)}${line}\n${text.slice(nl + 1)}`;
}

const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ' ');
