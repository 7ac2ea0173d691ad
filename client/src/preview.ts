/**
 * "Preview generated Applications": a read-only virtual YAML document per ApplicationSet file,
 * asked from the server (`appsetTools/preview`) and refreshed while the source is edited.
 * Preview URIs look like `appset-preview:/<name>.applications.yaml?<source uri>#<offset>`.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { PREVIEW_SCHEME, Requests, type DocumentRequestParams, type PreviewResult } from '../../server/src/protocol';
import { affectsResults } from './refresh';

const REFRESH_MS = 300;

export class PreviewProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly open = new Map<string, vscode.Uri>(); // source uri → preview uri
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly client: LanguageClient) {
    this.subscription = vscode.Disposable.from(
      // Edits to the source, and to cluster Secrets or Argo CD configuration, change the preview.
      vscode.workspace.onDidChangeTextDocument((e) => {
        for (const [src, previewUri] of this.open) if (affectsResults(e.document, vscode.Uri.parse(src))) this.refreshSoon(src, previewUri);
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('appsetTools')) for (const [src, previewUri] of this.open) this.refreshSoon(src, previewUri);
      }),
      // Closing the preview stops its refreshes.
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (d.uri.scheme !== PREVIEW_SCHEME) return;
        for (const [src, previewUri] of this.open) if (previewUri.toString() === d.uri.toString()) {
          this.open.delete(src);
          clearTimeout(this.timers.get(src));
          this.timers.delete(src);
        }
      }),
    );
  }

  private refreshSoon(src: string, previewUri: vscode.Uri): void {
    clearTimeout(this.timers.get(src));
    this.timers.set(src, setTimeout(() => this.changed.fire(previewUri), REFRESH_MS));
  }

  async show(source: vscode.Uri | undefined, offset?: number): Promise<void> {
    if (!source) {
      void vscode.window.showInformationMessage('Open an ApplicationSet YAML file to preview its Applications.');
      return;
    }
    const base = source.path.split('/').pop()?.replace(/\.ya?ml$/i, '') ?? 'appset';
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${base}.applications.yaml`, query: source.toString(), fragment: String(offset ?? '') });
    this.open.set(source.toString(), uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(doc, 'yaml');
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const offset = uri.fragment ? Number(uri.fragment) : undefined;
    try {
      const r = await this.client.sendRequest<PreviewResult | null>(Requests.preview, { uri: uri.query, offset } satisfies DocumentRequestParams);
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
