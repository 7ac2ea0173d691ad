/**
 * VS Code for the Web's figures: the size of the two web bundles (what a browser downloads: raw and
 * gzip-compressed) and the language server's start-up in its web worker, measured as the time from
 * evaluating dist/web/server.js to the first diagnostics of a small ApplicationSet (initialize, the
 * workspace read through the client, the first answer). The worker runs in Node's V8 in its own
 * context (test/helpers/webWorker.ts), so the time stands for a browser's on the same machine, not
 * for github.dev's network. `npm run bench` adds it as rows; alone:
 * `node --import tsx scripts/bench/webWorker.ts` (after `node esbuild.js`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileUriOfPath } from '@appset-tools/protocol';
import { startWorkerOn, WEB_SERVER } from '../../test/helpers/webWorker';
import { small } from './fixtures';

export interface WebWorkerFigures {
  serverBytes: number;
  serverGzipBytes: number;
  clientBytes: number;
  clientGzipBytes: number;
  /**
   * Ms from evaluating the bundle to the first diagnostics: the first start in this process (V8
   * compiles the bundle: a browser's first visit), and the median of the later ones (V8 has the
   * compiled code, as a browser's code cache does on the next visit).
   */
  coldMs: number;
  firstDiagnosticsMs: number;
  /** Median ms of the bundle's evaluation alone (part of the above). */
  evaluateMs: number;
  runs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function webWorkerFigures(runs = 6): Promise<WebWorkerFigures> {
  const server = readFileSync(WEB_SERVER);
  const client = readFileSync(resolve(WEB_SERVER, '..', 'extension.js'));
  const ws = mkdtempSync(join(tmpdir(), 'appset-bench-web-'));
  const firsts: number[] = [];
  const evals: number[] = [];
  try {
    mkdirSync(join(ws, 'appsets'));
    const text = small();
    writeFileSync(join(ws, 'appsets', 'guestbook.yaml'), text);
    const uri = fileUriOfPath(join(ws, 'appsets', 'guestbook.yaml'));
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const web = await startWorkerOn(ws, {
        processId: null,
        rootUri: fileUriOfPath(ws),
        workspaceFolders: [{ uri: fileUriOfPath(ws), name: 'ws' }],
        capabilities: { workspace: { configuration: true } },
      });
      evals.push(web.evaluatedMs);
      await web.open(uri, text);
      const end = Date.now() + 60_000;
      while (!web.diagnostics.has(uri)) {
        if (Date.now() > end) throw new Error('the web worker published no diagnostics within 60 s');
        await new Promise((r) => setImmediate(r));
      }
      firsts.push(performance.now() - t0);
      web.stop();
    }
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
  return {
    serverBytes: server.length,
    serverGzipBytes: gzipSync(server).length,
    clientBytes: client.length,
    clientGzipBytes: gzipSync(client).length,
    coldMs: firsts[0],
    firstDiagnosticsMs: median(firsts.slice(1)),
    evaluateMs: median(evals.slice(1)),
    runs,
  };
}

if (require.main === module) {
  void webWorkerFigures().then((f) => {
    const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
    console.log(
      `web worker bundle ${kib(f.serverBytes)} (${kib(f.serverGzipBytes)} gzip), web client ${kib(f.clientBytes)} (${kib(f.clientGzipBytes)} gzip); ` +
        `first diagnostics ${f.coldMs.toFixed(0)} ms after the worker's first start, ${f.firstDiagnosticsMs.toFixed(0)} ms warm (bundle evaluated in ${f.evaluateMs.toFixed(0)} ms; median of ${f.runs - 1})`,
    );
  });
}
