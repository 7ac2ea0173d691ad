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
import { loadavg, tmpdir } from 'node:os';
import * as YAML from 'yaml';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver-protocol';
import { startLsp, type LspProcess } from './lsp';
import { storyAppSet, storySecrets } from '../../test/helpers/story';

const root = join(__dirname, '..', '..');

export interface PreviewTimes {
  open: { ms: number; cpuMs: number; bytes: number };
  /** The preview's text (a plain parse of it is the bench's floor). */
  yaml: string;
  /** After a template edit (every Application renders again). */
  refresh: { ms: number; cpuMs: number };
  /** After an edit in one list element (its 12 Applications render again). */
  listEdit: { ms: number; cpuMs: number };
  /** After a new cluster Secret on disk (a 13th cluster: 45 more Applications, the others as they were). */
  disk: { ms: number; cpuMs: number };
}

type Timed = { ms: number; cpuMs: number };

/**
 * An edit of [at, at + length) to `insert` and the preview of that version, asked at once (it must
 * hold `expect`); then the edit undone and its preview asked, as an editor with the preview open does.
 */
async function editedPreview(
  s: LspProcess,
  file: string,
  edit: { at: number; length: number; insert: string; old: string; expect: string },
): Promise<Timed> {
  const { at, length, insert, old, expect } = edit;
  const uri = pathToFileURL(file).toString();
  const c0 = s.cpuMs();
  const t0 = performance.now();
  const published = s.edit(file, at, at + length, insert);
  const r = await s.conn.sendRequest<{ yaml: string }>('appsetTools/preview', { uri, version: s.version(file) });
  const timed = { ms: performance.now() - t0, cpuMs: s.cpuMs() - c0 };
  await published;
  if (!r.yaml.includes(expect)) throw new Error('the refreshed preview is not the edited version: ' + r.yaml.slice(0, 1500));
  await s.edit(file, at, at + insert.length, old);
  await s.conn.sendRequest('appsetTools/preview', { uri, version: s.version(file) });
  return timed;
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
  const refresh = await editedPreview(s, file, { at, length: 4, insert: `v${round}`, old: 'HEAD', expect: `targetRevision: v${round}` });
  await new Promise((r) => setTimeout(r, 300));
  // One list element (svc-05: one service on the 12 clusters).
  const el = text.indexOf('- service: svc-05\n') + '- service: '.length;
  const listEdit = await editedPreview(s, file, {
    at: el,
    length: 6,
    insert: `svc-05r${round}`,
    old: 'svc-05',
    expect: `name: prod-01-svc-05r${round}`,
  });
  await new Promise((r) => setTimeout(r, 300));
  // A disk change: a new cluster Secret (a git pull), announced as the editor's file watcher does.
  const secret = join(dirname(file), 'cluster-13.yaml');
  writeFileSync(secret, storySecrets([{ name: 'prod-13', server: 'https://10.0.0.13:6443', tier: 'high-traffic' }]));
  const watched = (type: FileChangeType) =>
    s.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(secret).toString(), type }] });
  c0 = s.cpuMs();
  t0 = performance.now();
  await watched(FileChangeType.Created);
  const third = await s.conn.sendRequest<{ yaml: string }>('appsetTools/preview', { uri });
  const disk = { ms: performance.now() - t0, cpuMs: s.cpuMs() - c0 };
  if (!third.yaml.includes('name: prod-13-svc-01')) throw new Error('the preview missed the new cluster: ' + third.yaml.slice(0, 1500));
  rmSync(secret);
  await watched(FileChangeType.Deleted);
  await s.conn.sendRequest('appsetTools/preview', { uri });
  return { open, refresh, listEdit, disk, yaml: first.yaml };
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
        // The bench's floor: a plain parse of the preview's YAML with the `yaml` library (median of 5).
        const floor = [0, 1, 2, 3, 4]
          .map(() => {
            const t0 = performance.now();
            for (const d of YAML.parseAllDocuments(r.yaml)) d.toJS();
            return performance.now() - t0;
          })
          .sort((a, b) => a - b)[2];
        console.log(
          `  plain parse ${floor.toFixed(0)} ms; server CPU ÷ plain parse: template edit ${(r.refresh.cpuMs / floor).toFixed(2)}×, list element edit ${(r.listEdit.cpuMs / floor).toFixed(2)}×, new cluster Secret ${(r.disk.cpuMs / floor).toFixed(2)}×; load average ${loadavg()[0].toFixed(1)}`,
        );
        console.log(
          `round ${i + 1}: open ${r.open.ms.toFixed(0)} ms (server CPU ${r.open.cpuMs} ms, ${(r.open.bytes / 1024).toFixed(0)} KiB), template edit ${r.refresh.ms.toFixed(0)} ms from the edit (server CPU ${r.refresh.cpuMs} ms over the edit and the request), list element edit ${r.listEdit.ms.toFixed(0)} ms (CPU ${r.listEdit.cpuMs} ms), new cluster Secret ${r.disk.ms.toFixed(0)} ms (CPU ${r.disk.cpuMs} ms)`,
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
