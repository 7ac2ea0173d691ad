/**
 * "Preview generated Applications": a read-only virtual YAML document per ApplicationSet file,
 * asked from the server (`appsetTools/preview`), refreshed on every change the lenses see (the server's
 * `resultsChanged`, edits, settings) and following the ApplicationSet under the cursor in
 * multi-document files. Preview URIs look like `appset-preview:/<file> · Applications.yaml?<source uri>`.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { PREVIEW_SCHEME, Requests } from '../../server/src/protocol';
import { request } from './request';
import { affectsResults } from './refresh';

/**
 * Edits come in bursts: one request after the burst (the server answers the newest version only). Not at
 * once on the first change: the request could reach the server before the language client's didChange,
 * and the preview would show the version before the edit (seen in the real VS Code test).
 */
const REFRESH_MS = 100;

export class PreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Map<string, vscode.Uri>(); // source uri → preview uri
  /** The offset (ApplicationSet) each source's preview shows; follows the cursor. */
  private readonly offsets = new Map<string, number | undefined>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscription: vscode.Disposable;
  /**
   * Requests sent (in all, and per source document: a YAML edit also refreshes the other open previews,
   * which a test of one preview must not count) and the last one's time and size (the tests read them
   * through `appsetTools.viewsSnapshot`).
   */
  readonly stats = { requests: 0, lastMs: 0, lastBytes: 0, bySource: {} as Record<string, number> };

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
          }
      }),
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

  private refreshSoon(src: string, previewUri: vscode.Uri): void {
    clearTimeout(this.timers.get(src));
    this.timers.set(
      src,
      setTimeout(() => this.changed.fire(previewUri), REFRESH_MS),
    );
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
    const offset = this.offsets.get(uri.query);
    const t0 = Date.now();
    this.stats.requests++;
    this.stats.bySource[uri.query] = (this.stats.bySource[uri.query] ?? 0) + 1;
    try {
      const r = await request(this.client, Requests.preview, { uri: uri.query, offset });
      this.stats.lastMs = Date.now() - t0;
      this.stats.lastBytes = r?.yaml.length ?? 0;
      return r ? r.yaml : '# No ApplicationSet found in ' + uri.query + '\n';
    } catch (e) {
      return `# The preview failed: ${(e as Error).message}\n`;
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    for (const t of this.timers.values()) clearTimeout(t);
  }
}
