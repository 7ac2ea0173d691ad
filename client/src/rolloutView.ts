/**
 * "Show RollingSync plan": a webview that draws the steps and waves of an ApplicationSet's rollout
 * with every Application, refreshed while the source is edited. The plan comes from the server
 * (`appsetTools/rolloutPlan`); this file only draws it. It refreshes on every change the lenses see
 * and follows the ApplicationSet under the cursor. Everything shown is escaped; links are command
 * URIs; the only script (nonce'd) scrolls to the step whose lens was clicked.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient/node';
import { Requests, type RolloutPlan } from '@appset-tools/protocol';
import { request, serverUri } from './request';
import { planBody, planScrollTarget, renderPlan } from './rolloutHtml';
import { affectsResults } from './refresh';

const REFRESH_MS = 100;

export class RolloutView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private source: vscode.Uri | undefined;
  private offset: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscription: vscode.Disposable;
  /** The page's nonce while it shows a plan that can be updated in place. */
  private nonce: string | undefined;
  /** The whole page of the last plan (what the view shows, after updates in place too). */
  private shown: string | undefined;
  /** The page's html is older than what it shows (updated in place): set it again when it is reloaded. */
  private stale = false;
  readonly updates = { total: 0, inPlace: 0 };

  constructor(
    private readonly client: LanguageClient,
    resultsChanged: vscode.Event<void>,
  ) {
    // The source, but also cluster Secrets and Argo CD configuration being edited, change the plan.
    this.subscription = vscode.Disposable.from(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (this.panel && affectsResults(e, this.source)) this.refreshSoon();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (this.panel && e.affectsConfiguration('appsetTools')) this.refreshSoon();
      }),
      resultsChanged(() => {
        if (this.panel) this.refreshSoon();
      }),
    );
  }

  /** The cursor moved in the shown source: follow the ApplicationSet it is in. */
  follow(source: vscode.Uri, offset: number, docRange: (offset: number) => string | undefined): void {
    if (!this.panel || this.source?.toString() !== source.toString()) return;
    const now = docRange(offset);
    if (now === undefined || now === docRange(this.offset ?? 0)) return;
    this.offset = offset;
    this.refreshSoon();
  }

  private refreshSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_MS);
  }

  async show(source: vscode.Uri | undefined, offset?: number): Promise<void> {
    if (!source) {
      void vscode.window.showInformationMessage('Open an ApplicationSet YAML file to see its RollingSync plan.');
      return;
    }
    this.source = source;
    this.offset = offset;
    if (!this.panel) {
      // Scripts only for the nonce'd scroll line; command URIs for the links back into the editor.
      this.panel = vscode.window.createWebviewPanel(
        'appsetTools.rollout',
        'RollingSync plan',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, enableCommandUris: true },
      );
      this.panel.onDidDispose(() => {
        this.panel = undefined;
        this.nonce = undefined;
        this.shown = undefined;
      });
      // A hidden webview is dropped and reloaded from its html when shown again: give it the current page.
      let visible = true;
      this.panel.onDidChangeViewState(() => {
        const was = visible;
        visible = !!this.panel?.visible;
        if (!was && visible && this.stale && this.shown) {
          this.stale = false;
          this.panel!.webview.html = this.shown;
        }
      });
    }
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    if (!this.panel || !this.source) return;
    let plan: RolloutPlan | null = null;
    let error = '';
    try {
      plan = await request(this.client, Requests.rolloutPlan, { uri: serverUri(this.client, this.source), offset: this.offset });
    } catch (e) {
      error = (e as Error).message;
    }
    // What the uncommitted change does (the server compares with the baseline commit); none when it cannot say.
    const change = plan
      ? await request(this.client, Requests.changeSummary, { uri: serverUri(this.client, this.source), offset: this.offset }).catch(
          () => null,
        )
      : null;
    if (!this.panel) return;
    this.panel.title = plan ? `Rollout: ${plan.appset}` : 'RollingSync plan';
    // A shown plan is updated in place (the page keeps its scroll, filter and open groups): only the new
    // plan's part is sent. A new page otherwise (first time, no plan, hidden: a hidden webview is reloaded
    // from its html when shown again, so that is kept current then).
    const nonce = this.nonce ?? Array.from({ length: 16 }, () => Math.floor(Math.random() * 36).toString(36)).join('');
    const html = renderPlan(plan, error, { source: this.source.toString(), offset: this.offset, nonce, change });
    const body = planBody(html);
    this.shown = html;
    this.updates.total++;
    if (body !== undefined && this.nonce && this.panel.visible && planBody(this.panel.webview.html) !== undefined) {
      const delivered = await this.panel.webview.postMessage({ type: 'update', body, scrollTo: plan ? planScrollTarget(plan) : undefined });
      if (delivered) {
        this.updates.inPlace++;
        this.stale = true;
        return;
      }
    }
    this.nonce = nonce;
    this.stale = false;
    this.panel.webview.html = html;
  }

  /** What the view shows (tests read it through `appsetTools.rolloutSnapshot`: a webview's DOM is out of their reach). */
  snapshot(): { title: string; html: string; updates: { total: number; inPlace: number } } | undefined {
    return this.panel ? { title: this.panel.title, html: this.shown ?? this.panel.webview.html, updates: { ...this.updates } } : undefined;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.panel?.dispose();
  }
}
