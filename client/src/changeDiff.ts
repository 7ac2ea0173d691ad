/**
 * "This change" in VS Code's diff editor: the Applications the ApplicationSet generated at the baseline
 * commit beside those it generates now (unsaved edits included). The server writes both texts
 * (`appsetTools/changeTexts`); this only shows them, as read-only documents of their own scheme.
 */
import * as vscode from 'vscode';
import { CHANGE_SCHEME, Requests } from '@appset-tools/protocol';
import { request, type RequestSender } from './request';

export class ChangeDiff implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** What the last `show` opened (for the tests): the diff's title and both sides' first lines. */
  last: { title: string; before: string; after: string } | undefined;

  constructor(private readonly client: RequestSender) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Opens the diff of the ApplicationSet at `offset` in `doc`; a message when nothing changed. */
  async show(doc: vscode.Uri | undefined, offset: number | undefined): Promise<unknown> {
    if (!doc) return undefined;
    const t = await request(this.client, Requests.changeTexts, { uri: doc.toString(), ...(offset !== undefined ? { offset } : {}) });
    if (!t) {
      void vscode.window.showInformationMessage('This change: the ApplicationSet generates the same Applications as at the baseline.');
      return undefined;
    }
    const name = encodeURIComponent(t.name || 'applicationset');
    const left = vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/${name}/baseline/Applications.yaml`, query: doc.toString() });
    const right = vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/${name}/now/Applications.yaml`, query: doc.toString() });
    this.texts.set(left.toString(), t.before);
    this.texts.set(right.toString(), t.after);
    this.changed.fire(left);
    this.changed.fire(right);
    const title = `${t.name}: ${t.baseline} ↔ now`;
    this.last = { title, before: t.before.split('\n', 1)[0], after: t.after.split('\n', 1)[0] };
    return vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  dispose(): void {
    this.changed.dispose();
  }
}
