/** When the preview, the rollout view and the status bar must ask the server again. */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient/node';
import { Notifications, PREVIEW_SCHEME } from '@appset-tools/protocol';

/**
 * An edit to the shown document, or to any other YAML document (it may be a cluster Secret, an
 * inventory or Argo CD's configuration, which feed the generators and the enablement detection).
 * An event without content changes (the document turned dirty or clean, it was saved) changes nothing:
 * VS Code sends one after most edits, and each would otherwise ask the server again.
 */
export function affectsResults(e: vscode.TextDocumentChangeEvent, source: vscode.Uri | undefined): boolean {
  const changed = e.document;
  if (!source || !e.contentChanges.length) return false;
  return changed.uri.toString() === source.toString() || (changed.languageId === 'yaml' && changed.uri.scheme !== PREVIEW_SCHEME);
}

/**
 * The one subscription to the server's `resultsChanged` (files changed on disk, settings), fanned out
 * to every view. The language client keeps one handler per notification method — a second
 * `onNotification` for the same method replaces the first — so the views never subscribe themselves:
 * they listen to `event`. (The lenses follow through LSP's own `workspace/codeLens/refresh`, which the
 * server sends with this notification.)
 */
export class ResultsChanged implements vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly event = this.emitter.event;
  private readonly subscription: vscode.Disposable;
  /** How many notifications came (the tests read it through `appsetTools.viewsSnapshot`). */
  count = 0;

  constructor(client: LanguageClient) {
    this.subscription = client.onNotification(Notifications.resultsChanged, () => {
      this.count++;
      this.emitter.fire();
    });
  }

  dispose(): void {
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
