/** The workspace index's walk over a real disk (through the Node host): loops and the entry cap. */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createNodeHost } from '../../../../server/src/host/nodeHost';
import { WorkspaceIndex, MAX_SCAN_ENTRIES } from '../../../../server/src/engine/workspace/index';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'appset-scan-'));
after(() => fs.rmSync(work, { recursive: true, force: true }));

test('workspace scan: symlinked folders that loop are visited once; the entry cap is said', { skip: process.platform === 'win32' }, () => {
  const root = fs.mkdtempSync(path.join(work, 'loops-'));
  fs.mkdirSync(path.join(root, 'sub'));
  fs.writeFileSync(path.join(root, 'sub', 'secret.yaml'), 'a: 1\n');
  for (let i = 0; i < 6; i++) fs.symlinkSync('.', path.join(root, `l${i}`));
  fs.symlinkSync('..', path.join(root, 'sub', 'up'));
  const t0 = Date.now();
  const ws = new WorkspaceIndex(createNodeHost([root]));
  const files = ws.all().map((f) => path.relative(root, f.path));
  assert.deepEqual(files, ['sub/secret.yaml']);
  assert.ok(Date.now() - t0 < 5000, `took ${Date.now() - t0} ms`);
  assert.deepEqual(ws.scanNotes(), []);

  const wide = fs.mkdtempSync(path.join(work, 'wide-'));
  for (let i = 0; i <= MAX_SCAN_ENTRIES / 1000; i++) {
    const d = path.join(wide, `d${String(i).padStart(3, '0')}`);
    fs.mkdirSync(d);
    for (let j = 0; j < 1000; j++) fs.writeFileSync(path.join(d, `f${j}.txt`), '');
  }
  const ws2 = new WorkspaceIndex(createNodeHost([wide]));
  ws2.all();
  assert.deepEqual(ws2.scanNotes(), ['the workspace scan stopped after 50,000 folder entries; later files were not read']);
});
