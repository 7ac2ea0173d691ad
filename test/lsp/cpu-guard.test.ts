/**
 * The speed guard CI runs (issue 39): the built server's CPU time for its whole first answer on the
 * bench's 111 KiB ApplicationSet (540-element list) and for a keystroke in it, each as a ratio to a
 * plain parse of the same text with the `yaml` library in this process, checked against a recorded
 * ceiling. CPU time, not wall time: other processes on a shared machine delay an answer but do not
 * add to the CPU it takes, so machine load moves these ratios little, while a regression of 2× or more
 * (the open document read by the library again, the answer waiting for the workspace) fails.
 *
 * The ceilings are 1.6× the ratios recorded on a shared 2-core machine (2026-12-06, load average 15,
 * docs/performance.md "The CPU guard"): open 5.0–5.8× there (recorded 5.6×), a keystroke 0.63–0.82×
 * (recorded 0.75×). A build that reads the open document with the `yaml` library instead of the fast
 * reader (the regression of issue 39) measured 10.5–11.2× on the open and fails; so does any 2× slower
 * answer, while the runs' spread under load stays well inside the margin. Each run prints its ratios
 * (`# open …`, `# keystroke …`): record them again when the engine gets faster and lower the ceilings;
 * never raise them to let a regression in.
 *
 * The server's CPU time is read from /proc (utime + stime of every thread: the compiler and collector
 * threads count), so the guard runs on Linux, as CI does.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as YAML from 'yaml';
import { startServer, type TestServer } from './client';
import { deepError, longList } from '../../scripts/bench/fixtures';
import { serverNodeOptions } from '@appset-tools/protocol';

/**
 * Whole first answer (server CPU from didOpen to its last publish of the opened version) ÷ one plain parse.
 * With V8's optimising compiler deferred until the first answer (server/src/optimiser.ts): 1.82–1.86× at load
 * average 19–20 (2026-12-06); about twice that.
 */
const OPEN_CEILING = 4.0;
/**
 * The whole first answer on the deep-error document in a workspace with an Argo CD install (second session)
 * ÷ one plain parse: recorded 6.2–6.5× (2026-12-06, load average 3–14); a build that analyses it a second time once
 * the workspace is read measured 9.6× there. 1.3× the recorded ratio, so that a 1.5× regression fails too.
 * With the optimiser deferred (optimiser.ts): 2.22–2.47× at load average 19–20; 4.5× is about 1.8× that.
 */
const DEEP_OPEN_CEILING = 4.5;
/** One keystroke in a list element (server CPU from the change to its publish, mean of 20) ÷ one plain parse. */
const KEYSTROKE_CEILING = 1.2;

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.shutdown();
});

const linux = existsSync('/proc/self/stat');

/** CPU time a process has used, user + system, in ms (/proc: clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

/** CPU ms of one plain parse of `text` with the `yaml` library in this process (median of warm runs). */
function parseFloor(text: string): number {
  const runs: number[] = [];
  for (let i = 0; i < 12; i++) {
    const t0 = process.cpuUsage();
    for (const d of YAML.parseAllDocuments(text) as YAML.Document.Parsed[]) d.toJS();
    const t = process.cpuUsage(t0);
    if (i >= 3) runs.push((t.user + t.system) / 1000);
  }
  return runs.sort((a, b) => a - b)[runs.length >> 1];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

interface Stamp {
  version: number | undefined;
  cpu: number;
  at: number;
}

/**
 * A server on a folder holding only the document (else on `workspace`, with its cache folder), started as
 * the VS Code client starts it; its CPU at each publish of the document.
 */
async function serverWith(
  text: string,
  on?: { workspace: string; cache: string; files?: Record<string, string> },
): Promise<{ s: TestServer; stamps: Stamp[] }> {
  const stamps: Stamp[] = [];
  let pid = 0;
  const s = await startServer(
    { ...on?.files, 'long-list.yaml': text },
    {},
    {
      nodeArgs: serverNodeOptions(process),
      onPublish: (uri, version) => {
        if (uri.endsWith('/long-list.yaml') && pid) stamps.push({ version, cpu: cpuMs(pid), at: Date.now() });
      },
      ...(on ? { workspace: on.workspace, env: { APPSET_CACHE_DIR: on.cache } } : {}),
    },
  );
  pid = s.proc.pid!;
  servers.push(s);
  return { s, stamps };
}

/** Waits until no publish has come for `quietMs` (the whole answer is the last one). */
async function quiet(stamps: Stamp[], quietMs = 1000): Promise<void> {
  while (!stamps.length || Date.now() - stamps[stamps.length - 1].at < quietMs) await new Promise((r) => setTimeout(r, 50));
}

test(
  'CPU guard: the whole first answer and a keystroke on the 111 KiB ApplicationSet, as ratios to a plain YAML parse',
  { skip: !linux && 'reads the server CPU time from /proc (Linux)' },
  async (t) => {
    const text = longList();
    const floor = parseFloor(text);
    const opens: number[] = [];
    let last: { s: TestServer; stamps: Stamp[] } | undefined;
    for (let run = 0; run < 3; run++) {
      last = await serverWith(text);
      const { s, stamps } = last;
      const c0 = cpuMs(s.proc.pid!);
      await s.open('long-list.yaml', text);
      await quiet(stamps);
      const whole = stamps.filter((x) => x.version === 1).at(-1)!;
      opens.push(whole.cpu - c0);
      if (run < 2) await s.shutdown();
    }
    // Keystrokes in a list element, each answered before the next (the first three warm up).
    const { s, stamps } = last!;
    let cur = text;
    let spent = 0;
    const counted = 20;
    for (let i = 0; i < counted + 3; i++) {
      const at = cur.indexOf('owner-11') + 'owner-11'.length;
      cur = cur.slice(0, at) + String(i % 10) + cur.slice(at);
      const c0 = cpuMs(s.proc.pid!);
      const n = stamps.length;
      await s.change('long-list.yaml', cur);
      while (stamps.length === n) await new Promise((r) => setTimeout(r, 5));
      if (i >= 3) spent += stamps[stamps.length - 1].cpu - c0;
    }
    const open = median(opens) / floor;
    const keystroke = spent / counted / floor;
    t.diagnostic(
      `open ${open.toFixed(2)}× (server CPU ${opens.join(', ')} ms; plain parse ${floor.toFixed(1)} ms), ceiling ${OPEN_CEILING}×`,
    );
    t.diagnostic(`keystroke ${keystroke.toFixed(2)}× (server CPU ${(spent / counted).toFixed(1)} ms), ceiling ${KEYSTROKE_CEILING}×`);
    assert.ok(open <= OPEN_CEILING, `the whole first answer took ${open.toFixed(2)}× a plain parse in CPU time (ceiling ${OPEN_CEILING}×)`);
    assert.ok(
      keystroke <= KEYSTROKE_CEILING,
      `a keystroke took ${keystroke.toFixed(2)}× a plain parse in CPU time (ceiling ${KEYSTROKE_CEILING}×)`,
    );
  },
);

/**
 * The bench's deep-error document (a template error in the 501st element) in a workspace larger than
 * what is read before a first answer, whose Argo CD install changes the error's text: from a second
 * session on (the probe cache written by the first), the first answer reads the install and is the
 * whole one. A build that analyses the document again once the workspace is read (issue 39: 1.5-2× the
 * CPU of one answer) fails.
 */
test(
  'CPU guard: the whole first answer on the deep-error ApplicationSet in a 700-file workspace with an Argo CD install, as a ratio to a plain YAML parse',
  { skip: !linux && 'reads the server CPU time from /proc (Linux)' },
  async (t) => {
    const text = deepError();
    const floor = parseFloor(text);
    const workspace = mkdtempSync(join(tmpdir(), 'appset-guard-'));
    const cache = mkdtempSync(join(tmpdir(), 'appset-guard-cache-'));
    after(() => {
      rmSync(workspace, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    });
    const files: Record<string, string> = {
      'zz-argocd/kustomization.yaml':
        'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\nresources:\n  - https://raw.githubusercontent.com/argoproj/argo-cd/v3.1.0/manifests/install.yaml\n',
    };
    for (let i = 0; i < 700; i++)
      files[`apps/group-${i % 10}/config-${i}.yaml`] = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-${i}\n`;
    const opens: number[] = [];
    for (let run = 0; run < 4; run++) {
      // The first session writes the probe cache (once it has read the workspace); the next three are measured.
      const { s, stamps } = await serverWith(text, { workspace, cache, ...(run === 0 ? { files } : {}) });
      const c0 = cpuMs(s.proc.pid!);
      await s.open('long-list.yaml', text);
      await quiet(stamps, 1500);
      const mine = stamps.filter((x) => x.version === 1);
      if (run > 0) opens.push(mine.at(-1)!.cpu - c0);
      await s.shutdown();
    }
    const open = median(opens) / floor;
    t.diagnostic(
      `deep-error open ${open.toFixed(2)}× (server CPU ${opens.join(', ')} ms; plain parse ${floor.toFixed(1)} ms), ceiling ${DEEP_OPEN_CEILING}×`,
    );
    assert.ok(
      open <= DEEP_OPEN_CEILING,
      `the whole first answer took ${open.toFixed(2)}× a plain parse in CPU time (ceiling ${DEEP_OPEN_CEILING}×)`,
    );
  },
);
