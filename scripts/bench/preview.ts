/**
 * The story's preview (issue 29): the built server over stdio in a workspace with the story's 12 cluster
 * Secrets and its 540-Application ApplicationSet (test/helpers/story.ts). Opens the ApplicationSet, waits
 * for its whole answer, then times the preview request (opening the preview) and, after a template edit,
 * the preview of the new version (a refresh): wall time and the server's CPU time, per round.
 *
 *   node esbuild.js && node --import tsx scripts/bench/preview.ts [rounds]
 *
 * PREVIEW_STEPS=<ms> runs the server with APPSET_DEBUG=steps:<ms> and prints its step log.
 * PREVIEW_PROF=<dir> runs the server with `node --cpu-prof` into <dir> (open the .cpuprofile in Chrome's
 * DevTools, or `node scripts/bench/profileTop.mjs <file>` for the functions with the most self time).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLsp, type LspProcess } from './lsp';
import { storyAppSet, storySecrets } from '../../test/helpers/story';

const root = join(__dirname, '..', '..');

export interface PreviewTimes {
  open: { ms: number; cpuMs: number; bytes: number };
  /** The preview's text (a plain parse of it is the bench's floor). */
  yaml: string;
  refresh: { ms: number; cpuMs: number };
}

/** One open and one refresh of the story's preview on a running server (`dir` holds the story). */
export async function storyPreview(s: LspProcess, file: string, text: string, round: number): Promise<PreviewTimes> {
  const uri = pathToFileURL(file).toString();
  if (round === 0) await s.open(file, text);
  // Settled: the opening's work (or the previous round's) is not this round's.
  await new Promise((r) => setTimeout(r, 1000));
  let c0 = s.cpuMs();
  let t0 = performance.now();
  const first = await s.conn.sendRequest<{ yaml: string }>('appsetTools/preview', { uri });
  const open = { ms: performance.now() - t0, cpuMs: s.cpuMs() - c0, bytes: first.yaml.length };
  // A refresh: the template changed (every Application renders again), and the preview is asked as the
  // VS Code client asks it: at once, naming the edited version (the server waits for its didChange).
  const at = text.indexOf('targetRevision: HEAD') + 'targetRevision: '.length;
  c0 = s.cpuMs();
  t0 = performance.now();
  const published = s.edit(file, at, at + 4, `v${round}`);
  const second = await s.conn.sendRequest<{ yaml: string }>('appsetTools/preview', { uri, version: s.version(file) });
  const refresh = { ms: performance.now() - t0, cpuMs: s.cpuMs() - c0 };
  await published;
  if (!second.yaml.includes(`targetRevision: v${round}`))
    throw new Error('the refreshed preview is not the edited version: ' + second.yaml.slice(0, 1500));
  // Back to HEAD for the next round.
  await s.edit(file, at, at + `v${round}`.length, 'HEAD');
  return { open, refresh, yaml: first.yaml };
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const dir = mkdtempSync(join(tmpdir(), 'appset-preview-'));
  try {
    writeFileSync(join(dir, 'clusters.yaml'), storySecrets());
    const file = join(dir, 'services.yaml');
    const text = storyAppSet('go');
    writeFileSync(file, text);
    const steps = process.env.PREVIEW_STEPS;
    const s = await startLsp({
      name: 'product',
      argv: [
        ...(process.env.PREVIEW_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PREVIEW_PROF}`, '--cpu-prof-interval=250'] : []),
        join(root, 'dist', 'server.js'),
        '--stdio',
      ],
      root: dir,
      initializationOptions: { settings: {} },
      settings: { appsetTools: {} },
      env: { APPSET_CACHE_DIR: 'off', ...(steps ? { APPSET_DEBUG: `steps:${steps}` } : {}) },
    });
    let log = '';
    s.proc.stderr!.on('data', (d) => (log += d));
    try {
      for (let i = 0; i < rounds; i++) {
        log = '';
        const r = await storyPreview(s, file, text, i);
        console.log(
          `round ${i + 1}: open ${r.open.ms.toFixed(0)} ms (server CPU ${r.open.cpuMs} ms, ${(r.open.bytes / 1024).toFixed(0)} KiB), refresh ${r.refresh.ms.toFixed(0)} ms from the edit (server CPU ${r.refresh.cpuMs} ms over the edit and the request)`,
        );
        if (steps) console.log(log);
      }
    } finally {
      await s.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) void main();
