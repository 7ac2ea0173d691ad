/**
 * The rollout view's page: steps as lanes, waves as rows of Application chips, warnings where the
 * controller would not do what the YAML suggests. Pure (no `vscode` import) so it is unit-tested.
 * Every value from the plan is escaped. Links are `command:` URIs (Application → its preview entry
 * and its source, evidence → the file and line); the only script (nonce'd) filters the Applications
 * and scrolls to the step whose lens was clicked. At scale, each step counts its Applications by
 * cluster and by the labels the steps select on, big waves and long runs of waves are folded.
 *
 * The plan's shape is the server's contract (`RolloutPlan`, re-exported by server/src/protocol/index.ts).
 */
import { Commands, type ChangeSummary, type PlanStep, type RolloutPlan } from '@appset-tools/protocol';

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
  /** What the uncommitted change does against the baseline (the server's `appsetTools/changeSummary`). */
  change?: ChangeSummary | null;
}

/** A `command:` link; the arguments are JSON, URI-encoded (VS Code's command URI form). */
export const commandHref = (id: string, args: unknown[]) => `command:${id}?${encodeURIComponent(JSON.stringify(args))}`;

const own = <T>(o: Record<string, T> | undefined, k: string): T | undefined =>
  o && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;

/** What the filter box matches an Application on: its name, its cluster, its labels as `key=value`. */
function filterText(plan: RolloutPlan, a: string): string {
  const info = own(plan.apps, a);
  const labels = Object.entries(info?.labels ?? {}).map(([k, v]) => `${k}=${v}`);
  return [a, info?.cluster ?? '', ...labels].join(' ').toLowerCase();
}

function chipsOf(plan: RolloutPlan, opts: RenderOptions, apps: string[], cls = 'app'): string {
  return apps
    .map((a) => {
      const info = own(plan.apps, a);
      const title = [info?.destination && `→ ${info.destination}`, info?.source && `from ${info.source.label}`].filter(Boolean).join(' · ');
      const name = opts.source
        ? `<a class="${cls}" href="${esc(commandHref(Commands.showPreview, [opts.source, opts.offset ?? 0, a]))}" title="${esc(title || 'open in the preview')}">${esc(a)}</a>`
        : `<span class="${cls}"${title ? ` title="${esc(title)}"` : ''}>${esc(a)}</span>`;
      const src = info?.source
        ? `<a class="src" href="${esc(commandHref(Commands.openLocation, [info.source.file, info.source.offset]))}" title="${esc(info.source.label)}">↗</a>`
        : '';
      return `<span class="c" data-f="${esc(filterText(plan, a))}">${name}${src}</span>`;
    })
    .join('');
}

/** Counts shown per group at most; the rest is summed up as "and N more". */
const COUNTS_SHOWN = 6;

/** `cluster: prod-01 45, prod-02 45 and 10 more · tier: canary 45`: Applications counted by cluster and by the label keys the steps select on. */
export function countsOf(plan: RolloutPlan, apps: string[]): string {
  if (!plan.apps || !apps.length) return '';
  const groups: [string, (a: string) => string | undefined][] = [
    ['cluster', (a) => own(plan.apps, a)?.cluster],
    ...(plan.labelKeys ?? []).map((k): [string, (a: string) => string | undefined] => [k, (a) => own(own(plan.apps, a)?.labels, k)]),
  ];
  const parts: string[] = [];
  for (const [what, of] of groups) {
    const counts = new Map<string, number>();
    for (const a of apps) {
      const v = of(a);
      if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    if (!counts.size) continue;
    const list = [...counts].map(([v, n]) => `${v} ${n}`);
    parts.push(
      `${what}: ${list.slice(0, COUNTS_SHOWN).join(', ')}${list.length > COUNTS_SHOWN ? ` and ${list.length - COUNTS_SHOWN} more` : ''}`,
    );
  }
  return esc(parts.join(' · '));
}

/** `https://a, https://b and 3 more` — the distinct destinations of some Applications. */
function destinations(plan: RolloutPlan, apps: string[]): string {
  if (!plan.apps) return '';
  const set = new Set<string>();
  for (const a of apps) {
    const d = own(plan.apps, a)?.destination;
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
.counts{opacity:.8;font-size:.9em}
details.wave{display:block}
details.wave>summary{cursor:pointer}
details.more>summary{cursor:pointer;margin:.35em 0}
.c{display:inline-flex;align-items:baseline}
.hidden{display:none!important}
#filter{width:100%;max-width:40em;margin:.5em 0;padding:.2em .4em;background:var(--vscode-input-background);color:var(--vscode-input-foreground);border:1px solid var(--vscode-input-border,transparent)}
.warn{color:var(--vscode-editorWarning-foreground)}
.ok{color:var(--vscode-testing-iconPassed)}
.err{color:var(--vscode-errorForeground)}
.gate{font-style:italic}
.timeline table{border-collapse:collapse;margin:.35em 0}
.timeline td,.timeline th,.change td,.change th{text-align:left;padding:.1em .6em;vertical-align:top}
.change{border-left:4px solid var(--vscode-charts-purple);margin:1em 0;padding:.2em .8em}
`;

/** What the page's script needs of an element (a DOM element has it; the tests give plain objects). */
export interface GroupElement {
  className: string;
  closest(selector: string): { id: string } | null;
  querySelector(
    selector: string,
  ): { textContent: string | null; querySelector(selector: string): { textContent: string | null } | null } | null;
}

/**
 * A folded group's key across refreshes: its step's section, its class and its label (what its summary
 * says before any colon: `wave 3`; a step's fold of many waves by its step alone), never its position, so
 * a refresh that adds or removes waves elsewhere leaves the groups the user opened open. Runs in the page (the script embeds it).
 */
export function groupKey(d: GroupElement): string {
  const summary = d.querySelector(':scope>summary');
  // A step's one fold of many waves is known by its step alone (its label counts the waves).
  const label = summary && !d.className.split(' ').includes('more') ? ((summary.querySelector('b') ?? summary).textContent ?? '') : '';
  return `${d.closest('section')?.id ?? ''}|${d.className}|${label.replace(/:[\s\S]*$/, '')}`;
}

/** The Application a chip shows, from its filter text (its name first): the filter counts each once. */
export function chipApp(filterText: string): string {
  return filterText.replace(/ [\s\S]*$/, '');
}

/**
 * The page's one script (nonce'd): the filter box hides the Applications that do not match (name,
 * cluster or `key=value` label), the waves and steps left empty, and opens collapsed groups while a
 * filter is typed, and says how many Applications match (an Application shown twice, e.g. also
 * selected by a later step, counts once: `chipApp`); it scrolls to the step whose lens was clicked; and
 * on a refresh it puts the new plan in place (`update` message: the page keeps its scroll, its filter
 * and the groups the user opened, known by `groupKey`).
 */
const SCRIPT = `const box=document.getElementById('filter'),count=document.getElementById('matches');
const key=(${groupKey.toString()}),appOf=(${chipApp.toString()});
function apply(){const q=box.value.trim().toLowerCase().split(/\\s+/).filter(Boolean);const seen=new Set();
for(const c of document.querySelectorAll('.c')){const ok=q.every(w=>c.dataset.f.includes(w));c.classList.toggle('hidden',!ok);if(ok)seen.add(appOf(c.dataset.f));}
for(const g of document.querySelectorAll('.wave,.step,details.more')){g.classList.toggle('hidden',q.length>0&&!g.querySelector('.c:not(.hidden)'));if(g.tagName==='DETAILS'&&q.length)g.open=true;}
for(const g of document.querySelectorAll('details.wave'))if(q.length)g.open=true;
count.textContent=q.length?seen.size+(seen.size===1?' Application':' Applications'):'';}
box?.addEventListener('input',apply);
window.addEventListener('message',e=>{const m=e.data;const main=document.getElementById('plan');if(!m||m.type!=='update'||!main)return;
const open=new Set([...main.querySelectorAll('details')].filter(d=>d.open).map(key));main.innerHTML=m.body;
for(const d of main.querySelectorAll('details'))d.open=open.has(key(d));if(box)apply();
if(m.scrollTo)document.getElementById(m.scrollTo)?.scrollIntoView();});`;

function page(title: string, body: string, script?: { nonce: string; scrollTo?: string }): string {
  const ok = script && /^[A-Za-z0-9]+$/.test(script.nonce);
  const code = ok
    ? `\n<script nonce="${script.nonce}">${SCRIPT}${script.scrollTo ? `document.getElementById(${JSON.stringify(script.scrollTo)})?.scrollIntoView();` : ''}</script>`
    : '';
  const csp = ok
    ? `default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${script.nonce}';`
    : `default-src 'none'; style-src 'unsafe-inline';`;
  return `<!DOCTYPE html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<title>${esc(title)}</title><style>${STYLE}</style></head><body>
${body}${code}
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
    ? en.instance.name && en.instance.name !== '.'
      ? ` <span class="summary">(Argo CD ${esc(en.instance.name)}: ${esc(en.instance.why)})</span>`
      : ` <span class="summary">(${esc(en.instance.why)})</span>`
    : '';
  if (en.state === 'enabled') {
    const d = en.decidedBy;
    return `<p class="ok">Progressive syncs enabled${d ? ` by ${d.file === 'setting' ? esc(d.description) : evidenceLink(d)}` : ''}${inst}.</p>`;
  }
  // Written but not deployed: the sentence above says it; the file is linked, not described again.
  const v = plan.verdict;
  const described = (e: (typeof en.evidence)[number]) =>
    v.kind === 'not-deployed' && e.effect === 'ignored'
      ? `<li>${evidenceLink(e)} <span class="summary">(written, not deployed)</span></li>`
      : `<li>${esc(e.description)} <span class="summary">(${evidenceLink(e)}, ${esc(e.effect)})</span></li>`;
  const where = en.evidence.length
    ? `<ul>${en.evidence.map(described).join('')}</ul>`
    : en.searched?.length
      ? `<p class="summary">Looked for: ${esc(en.searched.join(', '))}.</p>`
      : '';
  const notes = (en.notes ?? []).map((n) => `<p class="summary">${esc(n)}</p>`).join('');
  // The plan's verdict, in the words of the lens, the warning and the status bar (engine/rollout/describe.ts);
  // its reason names the install already.
  return `<p class="warn">${esc(v.sentence)}.${v.reason ? ` ${esc(v.reason)}` : inst}</p>${where}${notes}`;
}

/** A step with more waves than this shows the first WAVES_SHOWN and folds the rest. */
const MANY_WAVES = 8;
const WAVES_SHOWN = 3;
/** A wave with more Applications than this is folded to one line with its counts. */
const BIG_WAVE = 24;

function waveHtml(plan: RolloutPlan, label: string, apps: string[], chips: (apps: string[]) => string, cls = ''): string {
  const c = ['wave', cls].filter(Boolean).join(' ');
  if (apps.length <= BIG_WAVE) return `<div class="${c}"><b>${esc(label)}</b>${chips(apps)}</div>`;
  const counts = countsOf(plan, apps);
  return `<details class="${c}"><summary><b>${esc(label)}</b> ${plural(apps.length, 'Application')}${counts ? ` <span class="counts">(${counts})</span>` : ''}</summary>${chips(apps)}</details>`;
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
  const counts = countsOf(plan, s.apps);
  if (counts) out.push(`<p class="counts">${counts}</p>`);
  if (s.manual && s.apps.length) out.push(waveHtml(plan, 'by hand', s.apps, chips, 'gate'));
  else {
    const rows = s.waves.map((w) => waveHtml(plan, `wave ${w.wave}`, w.apps, chips));
    // Many waves (one at a time over hundreds): the first few, the rest folded with what they hold.
    if (rows.length <= MANY_WAVES) out.push(...rows);
    else {
      const rest = s.waves.slice(WAVES_SHOWN);
      const n = rest.reduce((k, w) => k + w.apps.length, 0);
      out.push(
        ...rows.slice(0, WAVES_SHOWN),
        `<details class="more"><summary>waves ${rest[0].wave}–${rest[rest.length - 1].wave}: ${plural(rest.length, 'more wave')}, ${plural(n, 'Application')}</summary>`,
        ...rows.slice(WAVES_SHOWN),
        '</details>',
      );
    }
  }
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

/** Rows of a long list shown at most; the rest is counted. */
const CHANGE_ROWS = 20;

/**
 * "This change": what the uncommitted change does to the rollout against the baseline — its line, the
 * timeline before → after, each step's Applications before → after (an emptied step marked), the
 * Applications that move between steps and those deleted (with their resources or not, and why).
 */
export function changeHtml(c: ChangeSummary | null | undefined): string {
  if (!c) return '';
  if (c.unknown !== undefined)
    return `<section class="change" id="change"><h3>This change</h3><p class="summary">Not known: ${esc(c.unknown)}</p></section>`;
  const out = [`<section class="change" id="change"><h3>This change <span class="summary">(against ${esc(c.baseline)})</span></h3>`];
  out.push(`<p>${esc(c.summary.replace(/^This change: /, ''))}</p>`);
  if (c.timeline.before !== c.timeline.after)
    out.push(`<p class="summary">Timeline: ${esc(c.timeline.before ?? 'none')} → ${esc(c.timeline.after ?? 'none')}</p>`);
  const steps = c.steps.filter((s) => s.before !== s.after);
  if (steps.length) {
    out.push('<table><tr><th>step</th><th>selector</th><th>before</th><th>now</th></tr>');
    for (const s of steps)
      out.push(
        `<tr${c.emptied.includes(s.step) ? ' class="warn"' : ''}><td><a href="#step-${s.step}">${s.step}</a></td><td>${esc(s.selector)}</td><td>${s.before}</td><td>${s.after}${c.emptied.includes(s.step) ? ' (now empty)' : ''}</td></tr>`,
      );
    out.push('</table>');
  }
  if (c.moved.length)
    out.push(
      `<p>${plural(c.moved.length, 'Application')} move between steps: ${c.moved
        .slice(0, CHANGE_ROWS)
        .map((m) => `${esc(m.name)} (step ${m.from} → ${m.to || 'none'})`)
        .join(', ')}${c.moved.length > CHANGE_ROWS ? ` and ${c.moved.length - CHANGE_ROWS} more` : ''}</p>`,
    );
  if (c.deletions.length) {
    const gone = c.deletions.filter((d) => d.resources === 'deleted').length;
    out.push(
      `<p class="${gone ? 'err' : 'warn'}">${plural(c.deletions.length, 'Application')} no longer generated${gone ? `, ${gone} deleted with their resources` : ''}:</p><ul>`,
    );
    for (const d of c.deletions.slice(0, CHANGE_ROWS))
      out.push(
        `<li>${esc(d.name)}: Application ${esc(d.application)}, resources ${esc(d.resources)} <span class="summary">(${esc(d.why)})</span></li>`,
      );
    if (c.deletions.length > CHANGE_ROWS) out.push(`<li>and ${c.deletions.length - CHANGE_ROWS} more</li>`);
    out.push('</ul>');
  }
  out.push('</section>');
  return out.join('\n');
}

/**
 * What one step syncs at the same time, on the timeline's row (the first screen at incident scale):
 * `tier In (high-traffic) · 315 Applications on 7 clusters · 10 at a time`.
 */
export function atOnceOf(plan: RolloutPlan, step: number): string {
  const s = plan.steps.find((x) => x.step === step);
  if (!s) return '';
  const clusters = new Set(s.apps.map((a) => own(plan.apps, a)?.cluster ?? own(plan.apps, a)?.destination?.split(' / ')[0] ?? '')).size;
  const where = plan.apps && s.apps.length ? ` on ${plural(clusters, 'cluster')}` : '';
  const pace = s.manual
    ? 'by hand (manual gate)'
    : s.concurrency === null || s.concurrency >= s.apps.length
      ? 'all at once'
      : `${s.concurrency} at a time`;
  return `${s.selector} · ${plural(s.apps.length, 'Application')}${where} · ${s.apps.length ? pace : 'nothing to sync'}`;
}

/**
 * The timeline the server computed (`RolloutPlan.timeline`): when each step starts and how long it
 * syncs at the assumed time per sync, where the rollout stops, and what that assumes. Display only.
 */
function timelineHtml(plan: RolloutPlan): string {
  const tl = plan.timeline;
  if (!tl) return '';
  const out = [`<section class="timeline"><h3>Timeline</h3><p class="summary">${esc(tl.summary)}</p>`];
  if (tl.refreshGate && tl.steps.length)
    out.push(`<p class="summary refresh-gate">Before step 1, the refresh gate: ${esc(tl.refreshGate.text)}.</p>`);
  if (tl.steps.length) {
    out.push('<table><tr><th>step</th><th>what syncs at once</th><th>starts</th><th>syncs</th><th>stops</th></tr>');
    for (const s of tl.steps)
      out.push(
        `<tr><td><a href="#step-${s.step}">${s.step}</a></td><td>${esc(atOnceOf(plan, s.step))}</td><td>${esc(s.at)}</td><td>${esc(s.takes)}</td><td>${s.stops
          .map((x) => `<span class="${x.forever ? 'err' : 'warn'}">${esc(x.text)}</span>`)
          .join('<br>')}</td></tr>`,
      );
    out.push('</table>');
  }
  out.push(`<p class="summary assumes">Assumes ${esc(tl.assumptions.join('; '))}.</p></section>`);
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
  parts.push(changeHtml(opts.change));
  parts.push(timelineHtml(plan));
  parts.push(...plan.steps.map((s) => stepHtml(plan, opts, s)));
  if (plan.unselected.length)
    parts.push(
      `<h3 class="warn">Selected by no step (never synced: auto-sync off, status step -1)</h3><div class="wave">${chips(plan.unselected)}</div>`,
    );
  // Applications the controller refuses to create: not counted above, named here with the reason.
  if (plan.skipped?.length)
    parts.push(
      `<h3 class="err">Skipped by the controller, never created (${plan.skipped.length})</h3><ul>${plan.skipped
        .slice(0, 200)
        .map((x) => `<li>${esc(x.name || '(no name)')}: ${esc(x.reason)}</li>`)
        .join('')}</ul>`,
    );
  const dups = Object.entries(plan.duplicates ?? {});
  if (dups.length)
    parts.push(
      `<h3 class="warn">Selected by several steps</h3><ul>${dups.map(([a, st]) => `<li>${esc(a)}: steps ${esc(st.join(', '))}</li>`).join('')}</ul>`,
    );
  // The filter box works only with the script (a nonce); without one the page has no box. It stays
  // outside the part a refresh replaces (`#plan`), so what is typed in it stays.
  const filter =
    opts.nonce && plan.totalApps
      ? `<input id="filter" type="search" placeholder="Filter by name, cluster or label (tier=canary)" aria-label="Filter Applications"> <span id="matches" class="summary"></span>\n`
      : '';
  const script = opts.nonce ? { nonce: opts.nonce, scrollTo: planScrollTarget(plan) } : undefined;
  return page(`Rollout: ${plan.appset}`, `${filter}<main id="plan">\n${parts.join('\n')}\n</main>`, script);
}

/** The step a refresh or an opening scrolls to (the one whose lens was clicked). */
export function planScrollTarget(plan: RolloutPlan): string | undefined {
  return plan.focusStep ? `step-${plan.focusStep}` : undefined;
}

/** What a refresh puts in place of the shown plan (`#plan`'s content), when the page already shows one. */
export function planBody(html: string): string | undefined {
  const start = html.indexOf('<main id="plan">\n');
  const end = html.lastIndexOf('\n</main>');
  return start >= 0 && end > start ? html.slice(start + '<main id="plan">\n'.length, end) : undefined;
}
