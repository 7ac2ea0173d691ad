/**
 * The impact of a keystroke (issue 41): in a git repository whose last commit holds the story, the
 * shared revision is edited and the editor asks for the lenses at once (as VS Code does after an
 * edit); timed from the edit to the answer carrying the "This change" lens (the whole answer: the
 * document analysed and expanded again, its other lenses, and the comparison with the baseline
 * commit, read once before). Wall time and the server's CPU time (which a loaded machine does not
 * inflate), medians; the same run with `impactBaseline: off` gives the comparison's own share.
 * Kept apart from scripts/bench.ts, which calls `impactRows`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeLensRequest, DidChangeTextDocumentNotification, type CodeLens } from 'vscode-languageserver-protocol/node';
import { startLsp } from './lsp';
import { CLUSTERS, SERVICES, storyRollout, storySecrets } from '../../test/helpers/story';
import { SERVER_ENV, serverNodeOptions } from '@appset-tools/protocol';

/** The server's Node options as the VS Code client gives them under this Node (protocol.ts serverNodeOptions). */
const LAUNCH_OPTIONS = serverNodeOptions(process);

export interface ImpactRow {
  measure: string;
  product: number;
  unit: 'ms';
  target: string;
  ok: boolean;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const STEPS = [{ values: ['canary'] }, { values: ['low-traffic'], maxUpdate: 2 }, { values: ['high-traffic'], maxUpdate: 3 }];

interface Times {
  ms: number;
  cpuMs: number;
  title: string;
}

/** Edits the shared revision `n` times in a repository holding `clusters` × `services`, each edit timed until its lens answer. */
async function keystrokes(
  dir: string,
  root: string,
  clusters: number,
  services: number,
  n: number,
  baseline: string,
  cacheDir: string,
): Promise<Times[]> {
  mkdirSync(join(dir, 'apps'), { recursive: true });
  writeFileSync(join(dir, 'clusters.yaml'), storySecrets(CLUSTERS.slice(0, clusters)));
  writeFileSync(
    join(dir, 'argocd-cmd-params-cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n',
  );
  const text = storyRollout(STEPS, {}, SERVICES.slice(0, services));
  const file = join(dir, 'apps', 'services.yaml');
  writeFileSync(file, text);
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, stdio: 'pipe' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '-m', 'base');
  const settings = { validate: { debounceMs: 0 }, impactBaseline: baseline };
  const s = await startLsp({
    name: 'product',
    argv: [...LAUNCH_OPTIONS, join(root, 'dist', 'server.js'), '--stdio'],
    root: dir,
    initializationOptions: { settings },
    settings: { appsetTools: settings },
    env: { ...SERVER_ENV, APPSET_CACHE_DIR: cacheDir },
  });
  const uri = pathToFileURL(file).toString();
  const lenses = async () => ((await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? []) as CodeLens[];
  try {
    await s.open(file, text);
    await lenses(); // the baseline commit read once, as the first lens request after opening does
    const at = text.indexOf('targetRevision: HEAD') + 'targetRevision: '.length;
    let current = 'HEAD';
    const out: Times[] = [];
    for (let i = 0; i < n; i++) {
      const next = `v${i + 2}`.padEnd(4, '0');
      const version = 1 + (i + 1);
      const c0 = s.cpuMs();
      const t0 = performance.now();
      await s.conn.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: lineCol(text, at), end: lineCol(text, at + current.length) }, text: next }],
      });
      const ls = await lenses();
      out.push({
        ms: performance.now() - t0,
        cpuMs: s.cpuMs() - c0,
        title: ls.find((l) => l.command?.title.startsWith('This change'))?.command?.title ?? '',
      });
      current = next;
      await new Promise((r) => setTimeout(r, 100)); // the diagnostics run of the edit finishes between keystrokes
    }
    return out;
  } finally {
    await s.stop();
  }
}

/** Offsets in `text` before `at` do not change with the edits (they are after the first line that changes). */
function lineCol(text: string, at: number): { line: number; character: number } {
  const before = text.slice(0, at);
  return { line: before.split('\n').length - 1, character: at - (before.lastIndexOf('\n') + 1) };
}

/** The bench's rows for the impact of a keystroke: the story (18 Applications) and the incident (540). */
export async function impactRows(
  tmp: string,
  root: string,
  cacheDir: string,
  repeat: number,
  log: (m: string) => void,
): Promise<{ rows: ImpactRow[]; notes: string[] }> {
  const rows: ImpactRow[] = [];
  const notes: string[] = [];
  const cases: [string, number, number, number][] = [
    ["the story's 18 Applications (6 clusters × 3 services)", 6, 3, 50],
    ['540 Applications (12 clusters × 45 services)', 12, 45, 300],
  ];
  for (const [label, clusters, services, target] of cases) {
    log(`impact of a keystroke: ${label}`);
    const n = Math.max(5, repeat * 2);
    const on = await keystrokes(join(tmp, `impact-${clusters}-on`), root, clusters, services, n, 'HEAD', cacheDir);
    const off = await keystrokes(join(tmp, `impact-${clusters}-off`), root, clusters, services, n, 'off', cacheDir);
    if (!on.every((t) => t.title.startsWith('This change')))
      throw new Error(`impact bench: no "This change" lens: ${JSON.stringify(on.map((t) => t.title))}`);
    const cpu = median(on.map((t) => t.cpuMs));
    rows.push({
      measure: `the impact of a keystroke, ${label}: server CPU time from the edit to the lenses with "This change"`,
      product: cpu,
      unit: 'ms',
      target: `≤ ${target} ms`,
      ok: cpu <= target,
    });
    notes.push(
      `the impact of a keystroke, ${label}: "${on[0].title}"; wall time from the edit to that answer ${median(on.map((t) => t.ms)).toFixed(0)} ms (median of ${n}), server CPU ${cpu} ms; the same answer without the comparison (impactBaseline off) ${median(off.map((t) => t.ms)).toFixed(0)} ms wall, ${median(off.map((t) => t.cpuMs))} ms CPU (CPU time is counted in 10 ms ticks)`,
    );
  }
  return { rows, notes };
}
