/**
 * "This change" in VS Code's diff editor: the Applications the ApplicationSet generated at the baseline
 * commit beside those it generates now (unsaved edits included). The server writes both texts
 * (`appsetTools/changeTexts`); this only shows them, as read-only documents of their own scheme.
 */
import * as vscode from 'vscode';
import { CHANGE_SCHEME, Requests } from '@appset-tools/protocol';
import { request, serverUri, type RequestSender } from './request';

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

  /**
   * Opens the diff of the ApplicationSet at `offset` in `doc`; false when there is none to open (nothing
   * changed, or the change is not known: start.ts then lets the server say which, with its reason).
   */
  async show(doc: vscode.Uri | undefined, offset: number | undefined): Promise<boolean> {
    if (!doc) return false;
    const t = await request(this.client, Requests.changeTexts, {
      uri: serverUri(this.client, doc),
      ...(offset !== undefined ? { offset } : {}),
    });
    if (!t) return false;
    const name = encodeURIComponent(t.name || 'applicationset');
    const left = vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/${name}/baseline/Applications.yaml`, query: doc.toString() });
    const right = vscode.Uri.from({ scheme: CHANGE_SCHEME, path: `/${name}/now/Applications.yaml`, query: doc.toString() });
    this.texts.set(left.toString(), t.before);
    this.texts.set(right.toString(), t.after);
    this.changed.fire(left);
    this.changed.fire(right);
    const title = `${t.name}: ${t.baseline} ↔ now`;
    this.last = { title, before: t.before.split('\n', 1)[0], after: t.after.split('\n', 1)[0] };
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
    return true;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
