/**
 * What the active YAML editor holds, from the server (`appsetTools/fileInfo`): the context key
 * `appsetTools.hasApplicationSet` (editor-title buttons show only on ApplicationSet files), the
 * status-bar item that says whether the controller runs progressive syncs and which file decided,
 * and which ApplicationSet the cursor is in (the preview and the rollout view follow it).
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient/node';
import { Commands, Requests, type FileInfo, type FileInfoAppSet } from '@appset-tools/protocol';
import { request, serverUri } from './request';

export const HAS_APPSET_CONTEXT = 'appsetTools.hasApplicationSet';
const REFRESH_MS = 250;

export class AppSetStatus implements vscode.Disposable {
  readonly item = vscode.window.createStatusBarItem('appsetTools.progressiveSyncs', vscode.StatusBarAlignment.Left, 50);
  private info: { uri: string; version: number; info: FileInfo } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscription: vscode.Disposable;
  private readonly moved = new vscode.EventEmitter<{ uri: vscode.Uri; offset: number }>();
  /** The cursor moved (or the editor changed) in a file with ApplicationSets. */
  readonly onDidMove = this.moved.event;

  constructor(
    private readonly client: LanguageClient,
    resultsChanged: vscode.Event<void>,
  ) {
    this.item.name = 'ApplicationSet progressive syncs';
    this.subscription = vscode.Disposable.from(
      vscode.window.onDidChangeActiveTextEditor(() => this.refreshSoon(0)),
      vscode.window.onDidChangeTextEditorSelection((e) => {
        if (e.textEditor !== vscode.window.activeTextEditor) return;
        this.render();
        const doc = e.textEditor.document;
        if (this.info?.uri === doc.uri.toString()) this.moved.fire({ uri: doc.uri, offset: doc.offsetAt(e.selections[0].active) });
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        // Not on a change of dirty state or a save (no content changes): nothing the server answers changed.
        if (e.contentChanges.length && e.document.languageId === 'yaml' && e.document.uri.scheme !== 'appset-preview') this.refreshSoon();
      }),
      resultsChanged(() => this.refreshSoon()),
    );
    this.refreshSoon(0);
  }

  /** The key of the ApplicationSet holding `offset` in the active file (undefined: none). */
  appsetAt(uri: vscode.Uri, offset: number): string | undefined {
    if (!this.info || this.info.uri !== uri.toString()) return undefined;
    const a = this.info.info.appsets.find((x) => offset >= x.start && offset <= x.end) ?? this.info.info.appsets[0];
    return a ? `${a.start}` : undefined;
  }

  refreshSoon(delay = REFRESH_MS): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delay);
  }

  private async refresh(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const doc = editor?.document;
    // The documents the server is sent (the client's selector: in VS Code for the Web a virtual workspace's too).
    const selector = (this.client.clientOptions.documentSelector ?? []) as vscode.DocumentSelector;
    if (!doc || doc.languageId !== 'yaml' || !vscode.languages.match(selector, doc)) {
      this.info = undefined;
      void vscode.commands.executeCommand('setContext', HAS_APPSET_CONTEXT, false);
      this.item.hide();
      return;
    }
    try {
      const info = await request(this.client, Requests.fileInfo, { uri: serverUri(this.client, doc.uri) });
      this.info = { uri: doc.uri.toString(), version: doc.version, info: info ?? { appsets: [] } };
    } catch {
      this.info = undefined;
    }
    void vscode.commands.executeCommand('setContext', HAS_APPSET_CONTEXT, !!this.info?.info.appsets.length);
    this.render();
  }

  /** The ApplicationSet under the cursor decides the status bar (RollingSync ones only). */
  private current(): FileInfoAppSet | undefined {
    const editor = vscode.window.activeTextEditor;
    if (!editor || !this.info || this.info.uri !== editor.document.uri.toString()) return undefined;
    const offset = editor.document.offsetAt(editor.selection.active);
    const rolling = this.info.info.appsets.filter((a) => a.rollingSync);
    return rolling.find((a) => offset >= a.start && offset <= a.end) ?? rolling[0];
  }

  private render(): void {
    const a = this.current();
    if (!a) {
      this.item.hide();
      return;
    }
    const en = a.enablement;
    const on = en.state === 'enabled';
    // The verdict's word (`off`, `not deployed yet`, `unknown`): what the lens and the rollout view say.
    this.item.text = on ? '$(check) Progressive syncs: enabled' : `$(warning) Progressive syncs: ${en.label}`;
    const install = en.install?.length ? `\n\n\`\`\`\n${en.install.join('\n')}\n\`\`\`` : '';
    const tip = new vscode.MarkdownString(`**${a.name}**: ${en.text}${en.instance ? `\n\nArgo CD: ${en.instance}` : ''}${install}`);
    tip.isTrusted = false;
    this.item.tooltip = tip;
    this.item.backgroundColor = on ? undefined : new vscode.ThemeColor('statusBarItem.warningBackground');
    this.item.command = en.file
      ? { title: 'Open the configuration that decides', command: Commands.openLocation, arguments: [en.file, en.offset ?? 0] }
      : { title: 'Show RollingSync plan', command: Commands.showRollout, arguments: [this.info!.uri, a.start] };
    this.item.show();
  }

  /** The status bar's current text and tooltip (for tests and the UI check). */
  snapshot(): { visible: boolean; text: string; tooltip: string } {
    const a = this.current();
    return { visible: !!a, text: a ? this.item.text : '', tooltip: a ? (this.item.tooltip as vscode.MarkdownString).value : '' };
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.moved.dispose();
    this.item.dispose();
  }
}
