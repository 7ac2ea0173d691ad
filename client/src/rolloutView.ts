/**
 * "Show RollingSync plan": a webview that draws the steps and waves of an ApplicationSet's rollout
 * with every Application, refreshed while the source is edited. The plan comes from the server
 * (`appsetTools/rolloutPlan`); this file only draws it. Everything shown is escaped, and the page has
 * a strict Content-Security-Policy (no scripts).
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

const REFRESH_MS = 300;

interface Wave {
  wave: number;
  apps: string[];
}
interface Step {
  step: number;
  selector: string;
  apps: string[];
  maxUpdate?: number | string;
  concurrency: number | null;
  manual: boolean;
  waves: Wave[];
}
interface Plan {
  appset: string;
  strategy: string;
  totalApps: number;
  steps: Step[];
  unselected: string[];
  duplicates: Record<string, number[]>;
  totalWaves: number;
  enablement: { state: string; evidence: { file: string; description: string; effect: string }[] };
}

export class RolloutView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private source: vscode.Uri | undefined;
  private offset: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly client: LanguageClient) {
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      if (!this.panel || e.document.uri.toString() !== this.source?.toString()) return;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => void this.refresh(), REFRESH_MS);
    });
  }

  async show(source: vscode.Uri | undefined, offset?: number): Promise<void> {
    if (!source) {
      void vscode.window.showInformationMessage('Open an ApplicationSet YAML file to see its RollingSync plan.');
      return;
    }
    this.source = source;
    this.offset = offset;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel('appsetTools.rollout', 'RollingSync plan', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, { enableScripts: false });
      this.panel.onDidDispose(() => (this.panel = undefined));
    }
    this.panel.reveal(vscode.ViewColumn.Beside, true);
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    if (!this.panel || !this.source) return;
    let plan: Plan | null = null;
    let error = '';
    try {
      plan = await this.client.sendRequest<Plan | null>('appsetTools/rolloutPlan', { uri: this.source.toString(), offset: this.offset });
    } catch (e) {
      error = (e as Error).message;
    }
    this.panel.title = plan ? `Rollout: ${plan.appset}` : 'RollingSync plan';
    this.panel.webview.html = renderPlan(plan, error);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.panel?.dispose();
  }
}

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderPlan(plan: Plan | null, error = ''): string {
  const head = `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>
body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:0 1em}
.step{border-left:4px solid var(--vscode-charts-blue);margin:1em 0;padding:.2em .8em}
.step.manual{border-color:var(--vscode-charts-orange)}
.wave{display:flex;flex-wrap:wrap;gap:.3em;margin:.3em 0}
.wave b{min-width:5em}
.app{background:var(--vscode-badge-background);color:var(--vscode-badge-foreground);border-radius:3px;padding:0 .4em;font-family:var(--vscode-editor-font-family)}
.warn{color:var(--vscode-editorWarning-foreground)}
</style></head><body>`;
  if (!plan) return `${head}<p>${error ? 'The plan could not be computed: ' + esc(error) : 'No ApplicationSet in this file.'}</p></body></html>`;
  const parts: string[] = [head, `<h2>${esc(plan.appset)}: ${esc(plan.strategy)}</h2>`];
  parts.push(`<p>${plan.steps.length} steps · ${plan.totalApps} Applications · ${plan.totalWaves} waves · ${plan.unselected.length} unselected</p>`);
  if (plan.enablement.state !== 'enabled') {
    parts.push(`<p class="warn">Progressive syncs are ${plan.enablement.state === 'disabled' ? 'disabled' : 'not found enabled'} on the controller: this strategy is ignored and all ${plan.totalApps} Applications sync at once.</p>`);
  }
  if (plan.strategy !== 'RollingSync') parts.push(`<p>All ${plan.totalApps} Applications sync at once.</p>`);
  for (const s of plan.steps) {
    const conc = s.manual ? 'manual gate (maxUpdate 0): sync these by hand' : s.concurrency === null ? 'all at once' : `${s.concurrency} at a time`;
    parts.push(`<div class="step${s.manual ? ' manual' : ''}"><h3>Step ${s.step} · ${esc(s.selector)}</h3><p>${s.apps.length} Applications · maxUpdate ${esc(s.maxUpdate ?? 'unset')} → ${esc(conc)}</p>`);
    for (const w of s.waves) parts.push(`<div class="wave"><b>wave ${w.wave}</b>${w.apps.map((a) => `<span class="app">${esc(a)}</span>`).join('')}</div>`);
    if (!s.apps.length) parts.push('<p class="warn">This step selects no Application.</p>');
    parts.push('</div>');
  }
  if (plan.unselected.length) {
    parts.push(`<h3 class="warn">Selected by no step (never synced by the rollout)</h3><div class="wave">${plan.unselected.map((a) => `<span class="app">${esc(a)}</span>`).join('')}</div>`);
  }
  const dups = Object.entries(plan.duplicates);
  if (dups.length) parts.push(`<h3 class="warn">Selected by several steps</h3><ul>${dups.map(([a, st]) => `<li>${esc(a)}: steps ${esc(st.join(', '))}</li>`).join('')}</ul>`);
  parts.push('</body></html>');
  return parts.join('\n');
}
