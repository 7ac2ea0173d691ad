/**
 * Hovers at the editor's default width (issue 29), through the built server over stdio, on the story's
 * 540 Applications with a RollingSync strategy the controller ignores. VS Code draws a hover at most
 * 500 px wide: a table wider than about 56 characters squeezes its columns and breaks the names mid-word.
 * Each hover must put this ApplicationSet's data before the field's documentation, keep every table row
 * within 56 visible characters (counted here, independently of the server's own count), list enough rows
 * and say how many more there are and where to see them; the hover on `strategy:` must not repeat the
 * warning VS Code shows in the same hover.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { HoverRequest, type Diagnostic, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { messageOf, startServer, type TestServer } from './client';
import { cmdParamsCm } from '../helpers/clusters';
import { storyRollout, storySecrets } from '../helpers/story';

const WIDTH = 56;
const APPSET = storyRollout([{ values: ['canary'] }, { values: ['low-traffic', 'high-traffic'], maxUpdate: 10 }], { block: true });

let s: TestServer;
let diagnostics: Diagnostic[];
before(async () => {
  s = await startServer({ 'clusters/secrets.yaml': storySecrets(), 'argocd/argocd-cmd-params-cm.yaml': cmdParamsCm('false') });
  diagnostics = await s.open('apps/services.yaml', APPSET);
});
after(async () => s?.shutdown());

/** The hover's markdown at the first occurrence of `needle` (plus `into` characters). */
async function hoverAt(needle: string, into = 1): Promise<string> {
  const at = APPSET.indexOf(needle);
  assert.ok(at >= 0, needle);
  const before = APPSET.slice(0, at + into).split('\n');
  const h = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('apps/services.yaml') },
    position: { line: before.length - 1, character: before[before.length - 1].length },
  });
  assert.ok(h, `a hover at ${needle}`);
  return (h.contents as MarkupContent).value;
}

/** What a markdown cell shows: a link's text, code without ticks, escapes undone. */
const shown = (cell: string) =>
  [
    ...cell
      .replace(/\]\([^\s)]*(?: "[^"]*")?\)/g, '')
      .replace(/[[`]/g, '')
      .replace(/\\(.)/g, '$1'),
  ].length;

/** The tables of a hover: rows of cells (separator rows left out). */
function tables(md: string): string[][][] {
  const out: string[][][] = [];
  let cur: string[][] | undefined;
  for (const line of md.split('\n')) {
    if (!line.startsWith('|')) {
      cur = undefined;
      continue;
    }
    if (!cur) out.push((cur = []));
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    if (!cells.every((c) => /^-+$/.test(c))) cur.push(cells);
  }
  return out;
}

/** Every row of every table within WIDTH characters (text plus two for each cell's padding). */
function assertNarrow(md: string): void {
  for (const t of tables(md))
    for (const row of t) {
      const w = row.reduce((n, c) => n + shown(c) + 2, 0);
      assert.ok(w <= WIDTH, `a row ${w} characters wide (more than ${WIDTH}): |${row.join('|')}|`);
    }
}

/** The data part comes before the field's documentation (`**field** — a type` and its JSON path). */
function assertDataFirst(md: string, data: RegExp, field?: string): void {
  const parts = md.split('\n\n---\n\n');
  assert.match(parts[0], data, md);
  if (!field) return; // a list element's own keys have no schema documentation
  const doc = parts.findIndex((p) => new RegExp(`^\\*\\*${field}\\*\\* — `).test(p));
  assert.ok(doc > 0, `the field documentation of ${field} after the data:\n${md}`);
}

test('the generator hover: its Applications first, 20 narrow rows, the rest counted and pointed to', async () => {
  const md = await hoverAt('- matrix', 3);
  assertDataFirst(md, /^\*\*Generator 1 produces 540 Applications · 12 clusters × 45 services\*\*/, 'matrix');
  assertNarrow(md);
  const [apps] = tables(md);
  assert.deepEqual(apps[0], ['Application', 'destination', 'tier']);
  assert.equal(apps.length - 1, 20, 'rows');
  // Whole names (never clipped), each a link to where its parameter set came from, titled with every source.
  assert.match(
    apps[1][0],
    /^\[`prod-01-svc-01`\]\(file:\/\/[^ )]*\/clusters\/secrets\.yaml#L1 "cluster Secret 'cluster-prod-01' \(clusters\/secrets\.yaml:1\) \+ list element 1 \(apps\/services\.yaml:\d+\)"\)$/,
  );
  assert.deepEqual(apps[1].slice(1), ['https://10.0.0.1:6443', 'canary']);
  // Across the fleet, not 20 rows of the first cluster: each cluster's first Application, then the rest.
  assert.deepEqual(
    apps.slice(1, 13).map((r) => r[1]),
    Array.from({ length: 12 }, (_, i) => `https://10.0.0.${i + 1}:6443`),
  );
  assert.match(apps[12][0], /^\[`prod-12-svc-01`\]/);
  assert.match(apps[13][0], /^\[`prod-01-svc-02`\]/);
  assert.match(md, /\n\n…and 520 more \(one per cluster first\) — Preview generated Applications shows all 540\n\n/);
});

test('a list element: the 12 Applications it produces, all listed', async () => {
  const md = await hoverAt('service: svc-03', 3);
  assertDataFirst(md, /^\*\*This element produces 12 Applications\*\*/);
  assertNarrow(md);
  const [apps] = tables(md);
  assert.equal(apps.length - 1, 12);
  assert.doesNotMatch(md, /more —/);
});

test('the cluster selector: the clusters it matches, with the labels it reads, before the explanation and the field docs', async () => {
  const md = await hoverAt('selector:', 2);
  assertDataFirst(md, /^\*\*Cluster selector: matches 12 of 12 known clusters\*\*\n\n\|/, 'selector');
  assertNarrow(md);
  const [clusters] = tables(md);
  assert.deepEqual(clusters[0].slice(1), ['cluster', 'env']);
  assert.equal(clusters.length - 1, 12);
});

test('a template string: its value in each Application, the distinct values counted', async () => {
  const md = await hoverAt("namespace: '{{.service}}'", 3);
  assertDataFirst(md, /^\*\*`\{\{\.service\}\}`\*\* in each Application \(45 distinct values in 540\)/, 'namespace');
  assertNarrow(md);
  const [values] = tables(md);
  assert.deepEqual(values[0], ['Application', 'value']);
  assert.equal(values.length - 1, 20);
  assert.equal(values[3][1], '`svc-03`');
  assert.match(md, /…and 520 more — Preview generated Applications shows all 540/);
});

test('the strategy hover: the plan and the enablement facts, not the warning shown beside it', async () => {
  const md = await hoverAt('strategy:', 2);
  const warning = diagnostics.find((d) => d.code === 'rollout/progressive-syncs-disabled');
  assert.ok(warning, JSON.stringify(diagnostics.map((d) => d.code)));
  assertDataFirst(md, /^\*\*RollingSync, if enabled: 2 steps · 540 apps · \d+ waves\*\*\n\n- Step 1 · /, 'strategy');
  assert.match(
    md,
    /\n\nProgressive syncs: disabled — Argo CD argocd \(installed beside it in argocd\/\), decided by \[argocd\/argocd-cmd-params-cm\.yaml:\d+\]\(file:/,
  );
  for (const sentence of messageOf(warning)
    .split(/(?<=\.) |; /)
    .filter((x) => x.length > 20))
    assert.ok(!md.includes(sentence.replace(/\.$/, '')), `the hover repeats the warning: "${sentence}"\n${md}`);
});
