/**
 * The rollout view's page: steps as lanes, waves as rows of Application chips, warnings where the
 * controller would not do what the YAML suggests. Pure (no `vscode` import) so it is unit-tested.
 * Every value from the plan is escaped; the page has a CSP without scripts.
 *
 * The plan's shape is the server's contract (`RolloutPlan`, re-exported by server/src/protocol.ts).
 */
import type { PlanStep, RolloutPlan } from '../../server/src/protocol';

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const chips = (apps: string[], cls = 'app') => apps.map((a) => `<span class="${cls}">${esc(a)}</span>`).join('');
const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

const STYLE = `
body{font-family:var(--vscode-font-family);color:var(--vscode-foreground);padding:0 1em 2em}
.summary{opacity:.85}
.step{border-left:4px solid var(--vscode-charts-blue);margin:1em 0;padding:.2em .8em}
.step.manual{border-color:var(--vscode-charts-orange)}
.step.empty{border-color:var(--vscode-editorWarning-foreground)}
.step h3{margin:.3em 0}
.wave{display:flex;flex-wrap:wrap;align-items:baseline;gap:.3em;margin:.35em 0}
.wave b{min-width:5.5em;font-weight:600}
.app{background:var(--vscode-badge-background);color:var(--vscode-badge-foreground);border-radius:3px;padding:0 .4em;font-family:var(--vscode-editor-font-family)}
.app.blocked{background:var(--vscode-inputValidation-errorBackground);color:var(--vscode-foreground)}
.warn{color:var(--vscode-editorWarning-foreground)}
.err{color:var(--vscode-errorForeground)}
.gate{font-style:italic}
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<title>${esc(title)}</title><style>${STYLE}</style></head><body>
${body}
</body></html>`;
}

function enablementNote(plan: RolloutPlan): string {
  if (plan.strategy !== 'RollingSync') return `<p class="warn">No RollingSync strategy: one commit syncs all ${plan.totalApps} Applications at once${plan.clusters ? ` on ${plan.clusters} clusters` : ''}.</p>`;
  const en = plan.enablement;
  if (en.state === 'enabled') return '';
  const why = en.state === 'disabled' ? 'disabled on the ApplicationSet controller' : 'not enabled anywhere in this workspace (the controller defaults to off)';
  const where = en.evidence.length
    ? `<ul>${en.evidence.map((e) => `<li>${esc(e.description)} <span class="summary">(${esc(e.file)}, ${esc(e.effect)})</span></li>`).join('')}</ul>`
    : en.searched?.length
      ? `<p class="summary">Looked for: ${esc(en.searched.join(', '))}.</p>`
      : '';
  return `<p class="warn">Progressive syncs are ${why}: this strategy is ignored and all ${plan.totalApps} Applications sync at once.</p>${where}`;
}

function stepHtml(s: PlanStep): string {
  const conc = s.manual ? 'manual gate (maxUpdate 0): nothing syncs until you sync these by hand' : s.concurrency === null ? 'all at once' : `${s.concurrency} at a time`;
  const cls = ['step', s.manual ? 'manual' : '', s.apps.length ? '' : 'empty'].filter(Boolean).join(' ');
  const out = [`<section class="${cls}"><h3>Step ${s.step} · ${esc(s.selector)}</h3>`];
  out.push(`<p>${plural(s.apps.length, 'Application')} · maxUpdate ${esc(s.maxUpdate ?? 'unset')} → ${esc(conc)}${s.waves.length ? ` · ${plural(s.waves.length, 'wave')}` : ''}</p>`);
  if (s.maxUpdateError) out.push(`<p class="err">${esc(s.maxUpdateError)} (the controller then syncs one at a time)</p>`);
  if (s.manual && s.apps.length) out.push(`<div class="wave gate"><b>by hand</b>${chips(s.apps)}</div>`);
  else for (const w of s.waves) out.push(`<div class="wave"><b>wave ${w.wave}</b>${chips(w.apps)}</div>`);
  if (!s.apps.length) out.push('<p class="warn">This step selects no Application.</p>');
  if (s.syncedEarlier?.length) out.push(`<p class="summary">Also selected, but synced by an earlier step: ${chips(s.syncedEarlier)}</p>`);
  if (s.blockedBy?.length) out.push(`<p class="err">Never created (invalid), so this step never completes and the rollout stops here: ${chips(s.blockedBy, 'app blocked')}</p>`);
  out.push('</section>');
  return out.join('\n');
}

export function renderPlan(plan: RolloutPlan | null, error = ''): string {
  if (!plan) return page('RollingSync plan', `<p>${error ? 'The plan could not be computed: ' + esc(error) : 'No ApplicationSet in this file.'}</p>`);
  const parts: string[] = [`<h2>${esc(plan.appset)}: ${esc(plan.strategy)}</h2>`];
  if (plan.strategy === 'RollingSync') {
    parts.push(`<p class="summary">${plural(plan.steps.length, 'step')} · ${plural(plan.totalApps, 'Application')} · ${plural(plan.totalWaves, 'wave')} · ${plan.unselected.length} unselected</p>`);
  }
  parts.push(enablementNote(plan));
  parts.push(...plan.steps.map(stepHtml));
  if (plan.unselected.length) parts.push(`<h3 class="warn">Selected by no step (never synced by the rollout, auto-sync off)</h3><div class="wave">${chips(plan.unselected)}</div>`);
  const dups = Object.entries(plan.duplicates ?? {});
  if (dups.length) parts.push(`<h3 class="warn">Selected by several steps</h3><ul>${dups.map(([a, st]) => `<li>${esc(a)}: steps ${esc(st.join(', '))}</li>`).join('')}</ul>`);
  return page(`Rollout: ${plan.appset}`, parts.join('\n'));
}
