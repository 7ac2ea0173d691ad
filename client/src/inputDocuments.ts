/**
 * JSON tabs, sent to the language server as text only. The client syncs YAML documents (an ApplicationSet
 * is YAML; JSON would be analysed as YAML, and JSON with comments read as broken YAML), but a git
 * generator reads `config.json` files too: their tabs' unsaved text must count as a YAML tab's does
 * (issue 41). So each `.json` file tab's text goes to the server by `appsetTools/inputDocument` when it
 * opens and changes, and its closing is said; the server overlays the file with it and analyses nothing.
 */
import * as vscode from 'vscode';
import { State, type BaseLanguageClient as LanguageClient } from 'vscode-languageclient/node';
import { Notifications, type InputDocumentParams } from '@appset-tools/protocol';
import { serverUri } from './request';

/** Larger texts are left to the file on disk (the server reads no file over 1 MB either). */
const MAX_TEXT = 1024 * 1024;

const isInput = (d: vscode.TextDocument) => d.uri.scheme === 'file' && /\.json$/i.test(d.uri.path);

export class InputDocuments implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  /** The tabs the server was sent (so a close is said only for them). */
  private readonly sent = new Set<string>();
  /** For the tests: how many notifications were sent. */
  count = 0;

  constructor(private readonly client: LanguageClient) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((d) => this.send(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.send(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.closed(d)),
      // A restarted server knows no tab: each is sent again.
      client.onDidChangeState((e) => {
        if (e.newState === State.Running) {
          this.sent.clear();
          this.sendAll();
        }
      }),
    ];
    this.sendAll();
  }

  private sendAll(): void {
    for (const d of vscode.workspace.textDocuments) this.send(d);
  }

  private send(d: vscode.TextDocument): void {
    if (!isInput(d) || !this.client.isRunning()) return;
    const text = d.getText();
    const uri = d.uri.toString();
    if (text.length > MAX_TEXT) {
      if (this.sent.has(uri)) this.closed(d);
      return;
    }
    this.sent.add(uri);
    this.notify({ uri: serverUri(this.client, d.uri), text });
  }

  private closed(d: vscode.TextDocument): void {
    const uri = d.uri.toString();
    if (!this.sent.delete(uri)) return;
    this.notify({ uri: serverUri(this.client, d.uri) });
  }

  private notify(p: InputDocumentParams): void {
    this.count++;
    this.client.sendNotification(Notifications.inputDocument, p).catch(() => undefined);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
