/**
 * The rollout view's page: steps as lanes, waves as rows of Application chips, warnings where the
 * controller would not do what the YAML suggests. Pure (no `vscode` import) so it is unit-tested.
 * Every value from the plan is escaped. Links are `command:` URIs (Application → its preview entry
 * and its source, evidence → the file and line); the only script is a nonce'd one-liner that scrolls
 * to the step whose lens was clicked.
 *
 * The plan's shape is the server's contract (`RolloutPlan`, re-exported by server/src/protocol.ts).
 */
import { Commands, type PlanStep, type RolloutPlan } from '../../server/src/protocol';

const esc = (s: unknown) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

/** How the page links back into the editor. */
export interface RenderOptions {
  /** URI of the ApplicationSet's document (chips open its preview). */
  source?: string;
  /** Offset of the ApplicationSet in it. */
  offset?: number;
  /** Nonce for the scroll script (none: no script at all). */
  nonce?: string;
}

/** A `command:` link; the arguments are JSON, URI-encoded (VS Code's command URI form). */
export const commandHref = (id: string, args: unknown[]) => `command:${id}?${encodeURIComponent(JSON.stringify(args))}`;

function chipsOf(plan: RolloutPlan, opts: RenderOptions, apps: string[], cls = 'app'): string {
  return apps
    .map((a) => {
      const info = plan.apps && Object.prototype.hasOwnProperty.call(plan.apps, a) ? plan.apps[a] : undefined;
      const title = [info?.destination && `→ ${info.destination}`, info?.source && `from ${info.source.label}`].filter(Boolean).join(' · ');
      const name = opts.source
        ? `<a class="${cls}" href="${esc(commandHref(Commands.showPreview, [opts.source, opts.offset ?? 0, a]))}" title="${esc(title || 'open in the preview')}">${esc(a)}</a>`
        : `<span class="${cls}"${title ? ` title="${esc(title)}"` : ''}>${esc(a)}</span>`;
      const src = info?.source
        ? `<a class="src" href="${esc(commandHref(Commands.openLocation, [info.source.file, info.source.offset]))}" title="${esc(info.source.label)}">↗</a>`
        : '';
      return name + src;
    })
    .join('');
}

/** `https://a, https://b and 3 more` — the distinct destinations of some Applications. */
function destinations(plan: RolloutPlan, apps: string[]): string {
  if (!plan.apps) return '';
  const set = new Set<string>();
  for (const a of apps) {
    const d = Object.prototype.hasOwnProperty.call(plan.apps, a) ? plan.apps[a].destination : undefined;
    if (d) set.add(d.split(' / ')[0]);
  }
  if (!set.size) return '';
  const list = [...set];
  return ` · to ${plural(list.length, 'cluster')}: ${esc(list.slice(0, 4).join(', '))}${list.length > 4 ? ` and ${list.length - 4} more` : ''}`;
}

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
a.app{text-decoration:none}
a.src{text-decoration:none;opacity:.7;margin-right:.3em}
.step.focus{border-left-width:8px}
.warn{color:var(--vscode-editorWarning-foreground)}
.ok{color:var(--vscode-testing-iconPassed)}
.err{color:var(--vscode-errorForeground)}
.gate{font-style:italic}
`;

function page(title: string, body: string, scroll?: { nonce: string; id: string }): string {
  const script =
    scroll && /^[A-Za-z0-9]+$/.test(scroll.nonce)
      ? `\n<script nonce="${scroll.nonce}">document.getElementById(${JSON.stringify(scroll.id)})?.scrollIntoView();</script>`
      : '';
  const csp = script
    ? `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${scroll!.nonce}';`
    : `default-src 'none'; style-src 'unsafe-inline';`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${esc(title)}</title><style>${STYLE}</style></head><body>
${body}${script}
</body></html>`;
}

/** Evidence as a link to its file and line, shown workspace-relative. */
function evidenceLink(e: { file: string; where?: string; span?: { start: number } }): string {
  const shown = e.where ?? e.file.split('/').slice(-2).join('/');
  if (e.file === 'setting') return 'settings';
  return `<a href="${esc(commandHref(Commands.openLocation, [e.file, e.span?.start ?? 0]))}">${esc(shown)}</a>`;
}

function enablementNote(plan: RolloutPlan): string {
  if (plan.strategy !== 'RollingSync')
    return `<p class="warn">No RollingSync strategy: one commit syncs all ${plan.totalApps} Applications at once${plan.clusters ? ` on ${plural(plan.clusters, 'cluster')}` : ''}.</p>`;
  const en = plan.enablement;
  const inst = en.instance
    ? en.instance.name
      ? ` <span class="summary">(Argo CD ${esc(en.instance.name)}: ${esc(en.instance.why)})</span>`
      : ` <span class="summary">(${esc(en.instance.why)})</span>`
    : '';
  if (en.state === 'enabled') {
    const d = en.decidedBy;
    return `<p class="ok">Progressive syncs enabled${d ? ` by ${d.file === 'setting' ? esc(d.description) : evidenceLink(d)}` : ''}${inst}.</p>`;
  }
  const why =
    en.state === 'disabled'
      ? 'turned off for the Argo CD that runs it'
      : 'not enabled by the configuration of the Argo CD that runs it (the controller defaults to off)';
  const where = en.evidence.length
    ? `<ul>${en.evidence.map((e) => `<li>${esc(e.description)} <span class="summary">(${evidenceLink(e)}, ${esc(e.effect)})</span></li>`).join('')}</ul>`
    : en.searched?.length
      ? `<p class="summary">Looked for: ${esc(en.searched.join(', '))}.</p>`
      : '';
  const notes = (en.notes ?? []).map((n) => `<p class="summary">${esc(n)}</p>`).join('');
  return `<p class="warn">Ignored: progressive syncs are off, so all ${plan.totalApps} Applications sync at once. They are ${why}${inst}.</p>${where}${notes}`;
}

function stepHtml(plan: RolloutPlan, opts: RenderOptions, s: PlanStep): string {
  const chips = (apps: string[], cls = 'app') => chipsOf(plan, opts, apps, cls);
  const conc = s.manual
    ? 'manual gate (maxUpdate 0): nothing syncs until you sync these by hand'
    : s.concurrency === null
      ? 'all at once'
      : `${s.concurrency} at a time`;
  const cls = ['step', s.manual ? 'manual' : '', s.apps.length ? '' : 'empty', plan.focusStep === s.step ? 'focus' : '']
    .filter(Boolean)
    .join(' ');
  const out = [`<section class="${cls}" id="step-${s.step}"><h3>Step ${s.step} · ${esc(s.selector)}</h3>`];
  out.push(
    `<p>${plural(s.apps.length, 'Application')} · maxUpdate ${esc(s.maxUpdate ?? 'unset')} → ${esc(conc)}${s.waves.length ? ` · ${plural(s.waves.length, 'wave')}` : ''}${destinations(plan, s.apps)}</p>`,
  );
  if (s.maxUpdateError) out.push(`<p class="err">${esc(s.maxUpdateError)} (the controller then syncs one at a time)</p>`);
  if (s.manual && s.apps.length) out.push(`<div class="wave gate"><b>by hand</b>${chips(s.apps)}</div>`);
  else for (const w of s.waves) out.push(`<div class="wave"><b>wave ${w.wave}</b>${chips(w.apps)}</div>`);
  if (!s.apps.length) out.push('<p class="warn">This step selects no Application.</p>');
  if (s.syncedEarlier?.length) out.push(`<p class="summary">Also selected, but synced by an earlier step: ${chips(s.syncedEarlier)}</p>`);
  if (s.blockedBy?.length)
    out.push(
      `<p class="err">Never created (invalid), so this step never completes and the rollout stops here: ${chips(s.blockedBy, 'app blocked')}</p>`,
    );
  for (const w of s.syncWindows ?? []) {
    const what = w.problem
      ? `An unreadable sync window of AppProject ${esc(w.project)} (${esc(w.problem)}) blocks every sync of these, so the step never completes`
      : `The ${esc(w.kind)} window "${esc(w.schedule)}" for ${esc(w.duration)} of AppProject ${esc(w.project)} can park these; each parked one holds a maxUpdate slot and the step waits`;
    out.push(`<p class="warn sync-window">${what} (${evidenceLink(w)}): ${chips(w.apps, 'app blocked')}</p>`);
  }
  out.push('</section>');
  return out.join('\n');
}

export function renderPlan(plan: RolloutPlan | null, error = '', opts: RenderOptions = {}): string {
  if (!plan)
    return page(
      'RollingSync plan',
      `<p>${error ? 'The plan could not be computed: ' + esc(error) : 'No ApplicationSet in this file.'}</p>`,
    );
  const chips = (apps: string[]) => chipsOf(plan, opts, apps);
  const parts: string[] = [`<h2>${esc(plan.appset)}: ${esc(plan.strategy)}</h2>`];
  if (plan.strategy === 'RollingSync') {
    parts.push(
      `<p class="summary">${plural(plan.steps.length, 'step')} · ${plural(plan.totalApps, 'Application')} · ${plural(plan.totalWaves, 'wave')} · ${plan.unselected.length} unselected${plan.clusters ? ` · ${plural(plan.clusters, 'cluster')}` : ''}</p>`,
    );
  }
  parts.push(enablementNote(plan));
  parts.push(...plan.steps.map((s) => stepHtml(plan, opts, s)));
  if (plan.unselected.length)
    parts.push(
      `<h3 class="warn">Selected by no step (never synced: auto-sync off, status step -1)</h3><div class="wave">${chips(plan.unselected)}</div>`,
    );
  const dups = Object.entries(plan.duplicates ?? {});
  if (dups.length)
    parts.push(
      `<h3 class="warn">Selected by several steps</h3><ul>${dups.map(([a, st]) => `<li>${esc(a)}: steps ${esc(st.join(', '))}</li>`).join('')}</ul>`,
    );
  const scroll = opts.nonce && plan.focusStep ? { nonce: opts.nonce, id: `step-${plan.focusStep}` } : undefined;
  return page(`Rollout: ${plan.appset}`, parts.join('\n'), scroll);
}
