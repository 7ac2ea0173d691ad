// The Node EngineHost reads only inside the workspace roots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createNodeHost } from '../../server/src/host/nodeHost';
import { MAX_READ_BYTES } from '../../server/src/host/files';
import { parseGitConfigRemotes } from '../../server/src/host/gitRemotes';
import { hostForInputs } from '../../server/src/cli/common';
import { tempFolder } from '../helpers/cli';

function tempTree(): { base: string; root: string; outside: string } {
  const base = tempFolder('host-');
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(path.join(root, 'apps'), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'apps', 'a.yaml'), 'kind: A\n');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET');
  return { base, root, outside };
}

test('reads, stats and lists files inside the root', () => {
  const { root } = tempTree();
  const host = createNodeHost([root]);
  assert.equal(host.readFile(path.join(root, 'apps', 'a.yaml')), 'kind: A\n');
  assert.deepEqual(host.readDir(path.join(root, 'apps')), ['a.yaml']);
  const st = host.stat(path.join(root, 'apps'));
  assert.equal(st?.isDirectory, true);
  assert.equal(host.readFile(path.join(root, 'apps', 'missing.yaml')), undefined);
  assert.deepEqual(host.roots(), [root.split(path.sep).join('/')]);
});

test('refuses files outside the root, by absolute path and by .. traversal', () => {
  const { root, outside } = tempTree();
  const host = createNodeHost([root]);
  assert.equal(host.readFile(path.join(outside, 'secret.txt')), undefined);
  assert.equal(host.readFile(path.join(root, '..', 'outside', 'secret.txt')), undefined);
  assert.equal(host.readFile(`${root}/apps/../../outside/secret.txt`), undefined);
  assert.equal(host.stat(path.join(outside, 'secret.txt')), undefined);
  assert.equal(host.readDir(outside), undefined);
  assert.equal(host.readDir(path.join(root, '..')), undefined);
  assert.equal(host.readFile('/etc/passwd'), undefined);
  assert.equal(host.readFile(''), undefined);
  assert.equal(host.readFile(`${root}/apps/a.yaml\u0000`), undefined);
});

test('refuses symlinks that lead out of the workspace, allows those that stay inside', () => {
  const { root, outside } = tempTree();
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
  fs.symlinkSync(outside, path.join(root, 'linkdir'));
  fs.symlinkSync(path.join(root, 'apps', 'a.yaml'), path.join(root, 'inner.yaml'));
  const host = createNodeHost([root]);
  assert.equal(host.readFile(path.join(root, 'link.txt')), undefined);
  assert.equal(host.readFile(path.join(root, 'linkdir', 'secret.txt')), undefined);
  assert.equal(host.readDir(path.join(root, 'linkdir')), undefined);
  assert.equal(host.readFile(path.join(root, 'inner.yaml')), 'kind: A\n');
  // Folders below a link: their real path comes from the link's (resolved) real path, so they are
  // outside too, however deep; a link inside the workspace to a folder inside it stays readable.
  fs.mkdirSync(path.join(outside, 'deep', 'er'), { recursive: true });
  fs.writeFileSync(path.join(outside, 'deep', 'er', 's.yaml'), 'kind: Secret\n');
  assert.equal(host.readFile(path.join(root, 'linkdir', 'deep', 'er', 's.yaml')), undefined);
  assert.equal(host.stat(path.join(root, 'linkdir', 'deep', 'er', 's.yaml')), undefined);
  assert.equal(host.readDir(path.join(root, 'linkdir', 'deep')), undefined);
  fs.mkdirSync(path.join(root, 'apps', 'sub'));
  fs.writeFileSync(path.join(root, 'apps', 'sub', 'b.yaml'), 'kind: B\n');
  fs.symlinkSync(path.join(root, 'apps'), path.join(root, 'apps-link'));
  assert.equal(host.readFile(path.join(root, 'apps-link', 'sub', 'b.yaml')), 'kind: B\n');
});

test('a root given through a symlink still works; a prefix-named sibling folder is outside', () => {
  const { base, root } = tempTree();
  fs.symlinkSync(root, path.join(base, 'ws-link'));
  fs.mkdirSync(path.join(base, 'ws2'));
  fs.writeFileSync(path.join(base, 'ws2', 'x.yaml'), 'x');
  const host = createNodeHost([path.join(base, 'ws-link')]);
  assert.equal(host.readFile(path.join(base, 'ws-link', 'apps', 'a.yaml')), 'kind: A\n');
  assert.equal(host.readFile(path.join(base, 'ws2', 'x.yaml')), undefined);
});

test('files larger than 2 MB are refused', () => {
  const { root } = tempTree();
  fs.writeFileSync(path.join(root, 'big.yaml'), Buffer.alloc(MAX_READ_BYTES + 1, 0x61));
  fs.writeFileSync(path.join(root, 'ok.yaml'), Buffer.alloc(MAX_READ_BYTES, 0x61));
  const host = createNodeHost([root]);
  assert.equal(host.readFile(path.join(root, 'big.yaml')), undefined);
  assert.equal(host.readFile(path.join(root, 'ok.yaml'))?.length, MAX_READ_BYTES);
});

test('git remotes of the root and of work trees below it (depth ≤ 3), never above', () => {
  const { base, root } = tempTree();
  const git = (dir: string, config: string) => {
    fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
    fs.writeFileSync(path.join(dir, '.git', 'config'), config);
  };
  git(
    root,
    '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://github.com/org/ws.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote "upstream"]\n\turl = git@github.com:up/ws.git\n',
  );
  git(path.join(root, 'a', 'b', 'nested'), '[remote "origin"]\n  url = https://example.com/nested.git\n');
  git(path.join(root, 'a', 'b', 'c', 'too-deep'), '[remote "origin"]\n  url = https://example.com/deep.git\n');
  git(path.join(root, 'node_modules', 'pkg'), '[remote "origin"]\n  url = https://example.com/pkg.git\n');
  git(base, '[remote "origin"]\n  url = https://example.com/parent.git\n');
  // A linked worktree / submodule: `.git` is a file pointing at the real git dir.
  const sub = path.join(root, 'sub');
  fs.mkdirSync(path.join(root, '.git', 'modules', 'sub'), { recursive: true });
  fs.writeFileSync(path.join(root, '.git', 'modules', 'sub', 'config'), '[remote "origin"]\n  url = https://example.com/sub.git\n');
  fs.mkdirSync(sub);
  fs.writeFileSync(path.join(sub, '.git'), 'gitdir: ../.git/modules/sub\n');
  const remotes = createNodeHost([root]).gitRemotes();
  const p = (s: string) => s.split(path.sep).join('/');
  assert.deepEqual(
    remotes.map((r) => `${r.root}|${r.name}|${r.url}`).sort(),
    [
      `${p(root)}/a/b/nested|origin|https://example.com/nested.git`,
      `${p(root)}/sub|origin|https://example.com/sub.git`,
      `${p(root)}|origin|https://github.com/org/ws.git`,
      `${p(root)}|upstream|git@github.com:up/ws.git`,
    ].sort(),
  );
});

test('git config parsing: quoted names and urls, only the first url per remote', () => {
  assert.deepEqual(
    parseGitConfigRemotes('[remote "a\\"b"]\n url = "https://x/y.git"\n url = https://second\n[remote "c"]\nURL=ssh://z\n'),
    [
      { name: 'a"b', url: 'https://x/y.git' },
      { name: 'c', url: 'ssh://z' },
    ],
  );
});

test('settings merge with defaults and can be replaced', () => {
  const host = createNodeHost([], { maxApplications: 5 });
  assert.equal(host.settings().maxApplications, 5);
  assert.equal(host.settings().progressiveSyncs, 'auto');
  host.updateSettings({ progressiveSyncs: 'enabled' });
  assert.equal(host.settings().maxApplications, 10000);
  assert.equal(host.settings().progressiveSyncs, 'enabled');
  assert.equal(host.readFile('/etc/hostname'), undefined);
});

test('CLI workspaces: the git work tree of an input, else its own folder (never the current directory), or --workspace', () => {
  const { base, root } = tempTree();
  const p = (s: string) => s.split(path.sep).join('/');
  fs.mkdirSync(path.join(root, '.git'));
  fs.mkdirSync(path.join(base, 'loose', 'deep'), { recursive: true });
  fs.writeFileSync(path.join(base, 'loose', 'deep', 'a.yaml'), 'x');
  assert.deepEqual(hostForInputs([path.join(root, 'apps', 'a.yaml')], base, {}).roots(), [p(root)]);
  assert.deepEqual(hostForInputs(['loose/deep/a.yaml'], base, {}).roots(), [p(path.join(base, 'loose', 'deep'))]);
  assert.deepEqual(hostForInputs(['loose/deep/a.yaml'], base, {}, 'loose').roots(), [p(path.join(base, 'loose'))]);
  // An inventory file is readable, but its folder is not a root.
  fs.writeFileSync(path.join(base, 'loose', 'inv.yaml'), 'y');
  const h = hostForInputs([path.join(root, 'apps', 'a.yaml')], base, { inventoryFiles: [p(path.join(base, 'loose', 'inv.yaml'))] });
  assert.deepEqual(h.roots(), [p(root)]);
  assert.equal(h.readFile(p(path.join(base, 'loose', 'inv.yaml'))), 'y');
  assert.equal(h.readFile(p(path.join(base, 'loose', 'deep', 'a.yaml'))), undefined);
  assert.deepEqual(hostForInputs([path.join(base, 'loose', 'deep', 'a.yaml')], path.join(base, 'outside'), {}).roots(), [
    p(path.join(base, 'loose', 'deep')),
  ]);
  // Nested roots collapse into the outer one.
  assert.deepEqual(hostForInputs([path.join(root, 'apps'), root], base, {}).roots(), [p(root)]);
});
