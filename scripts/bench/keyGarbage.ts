/**
 * What a keystroke on the bench's 111 KiB ApplicationSet allocates and costs, in process: the language
 * service's analysis, expansion and diagnostics per keystroke (as the server computes them before its
 * publish), V8's sampling heap profiler counting every allocation (collected or not).
 *   node --import tsx scripts/bench/keyGarbage.ts [list|template] [keystrokes] [--top N] [--at <text>]
 * Prints MiB allocated and CPU ms per keystroke, and with `--top N` the functions that allocate most
 * (`--callers`: with their callers);
 * `--plain` leaves the heap profiler out (CPU time only; with node's `--trace-gc`, the collections).
 */
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLanguageService } from '../../server/src/engine/service/languageService';
import { createNodeHost } from '../../server/src/host/nodeHost';
import { longList } from './fixtures';

const args = process.argv.slice(2);
const where = args[0] ?? 'list';
const n = Number(args[1]) || 30;
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 0;
// `--at <text>` types after the first `<text>` in the document's second half (the bench's template place:
// `--at "namespace: '{{ .service }}-{{ .env }}"`, a string rendered for all 540 Applications).
const anchor = args.includes('--at') ? args[args.indexOf('--at') + 1] : where === 'template' ? 'targetRevision: main' : 'owner: owner-';

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'appset-keys-'));
  const file = join(dir, 'long.yaml');
  let text = longList();
  writeFileSync(file, text);
  const svc = getLanguageService({ host: createNodeHost([dir]) });
  const uri = 'file://' + file;
  const key = () => {
    const at = text.indexOf(anchor, text.length / 2) + anchor.length;
    text = text.slice(0, at) + 'x' + text.slice(at);
    const a = svc.analyze(uri, text, file);
    svc.diagnosticsToShow(a);
  };
  for (let i = 0; i < 20; i++) key();
  if (args.includes('--plain')) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) key();
    const c = process.cpuUsage(c0);
    console.log(`${where}: ${((c.user + c.system) / 1000 / n).toFixed(2)} ms CPU per keystroke (${n})`);
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) key();
  const c = process.cpuUsage(c0);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: Node } };
  const self = new Map<string, number>();
  let total = 0;
  const name = (f: Node['callFrame']) => `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  // With `--callers`, each function is counted with its caller (who asked for the allocation).
  const callers = args.includes('--callers');
  const visit = (node: Node, parent?: Node) => {
    const k = callers && parent ? `${name(node.callFrame)} < ${name(parent.callFrame)}` : name(node.callFrame);
    self.set(k, (self.get(k) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const c of node.children) visit(c, node);
  };
  visit(profile.head);
  console.log(
    `${where}: ${(total / n / 2 ** 20).toFixed(2)} MiB allocated, ${((c.user + c.system) / 1000 / n).toFixed(2)} ms CPU per keystroke (${n})`,
  );
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((v / n / 1024) | 0).toString().padStart(7)} KiB  ${k}`);
  rmSync(dir, { recursive: true, force: true });
}
void main();
