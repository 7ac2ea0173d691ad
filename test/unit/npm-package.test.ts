// The npm package as a user gets it (README, "Installing"): `npm pack` in a copy of the repository's
// files (its prepare script builds the bundles), the tarball installed into an empty prefix with an
// empty cache and no network (so it can hold no runtime dependency), then `appset` and the language
// server run from that prefix on a repository that is not this one.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { installTarball, packRepository, sh } from '../helpers/npmPackage';
import { pathToFileURL } from 'node:url';
import { InitializeRequest, InitializedNotification } from 'vscode-languageserver-protocol/node';
import { git, repoRoot, writeFiles } from '../helpers/cli';
import { spawnStdio, stopStdio, initializeParams } from '../lsp/client';
import { until } from '../helpers/guard';

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
let work = '';
let tarball = '';
let packOut = '';
let installed = '';
/** The copy of the repository the package is built from. */
let src = '';

before(() => {
  ({ work, src, tarball, packOut } = packRepository('npm-pkg-'));
  installed = path.join(work, 'prefix');
  installTarball(tarball, installed, work);
});

test('npm pack prints only the tarball name on standard output (pre-commit takes it as the path)', () => {
  assert.equal(packOut, `${pkg.name}-${pkg.version}.tgz\n`);
  assert.ok(fs.existsSync(tarball));
});

test('the tarball holds the bundles and package.json, no sources, and declares no runtime dependency', () => {
  const list = sh('tar', ['-tzf', tarball], work)
    .split('\n')
    .filter(Boolean)
    .map((f) => f.replace(/^package\//, ''));
  for (const f of [
    'dist/cli.js',
    'dist/server.js',
    'dist/lib/cli.js',
    'dist/lib/server.js',
    'dist/validators/applicationset.js',
    'package.json',
    'README.md',
    'LICENSE',
  ])
    assert.ok(list.includes(f), `${f} in ${list.join(', ')}`);
  assert.deepEqual(
    list.filter((f) => /\.(ts|map)$/.test(f) || f.startsWith('server/') || f.startsWith('test/')),
    [],
  );
  const shipped = JSON.parse(fs.readFileSync(path.join(installed, 'node_modules', pkg.name, 'package.json'), 'utf8'));
  assert.equal(shipped.dependencies, undefined);
  // Issue 38: no script npm runs when the tarball is installed (npm 11 warns of each one: "install scripts
  // not yet covered by allowScripts"); the build runs before packing (prepack), never in a user's install.
  const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'].filter((k) => shipped.scripts && k in shipped.scripts);
  assert.deepEqual(lifecycle, [], JSON.stringify(shipped.scripts));
  assert.equal(shipped.private, undefined);
  assert.match(shipped.repository.url, /^https:\/\/github\.com\/[\w-]+\/[\w-]+\.git$/);
  assert.ok(shipped.homepage.startsWith(shipped.repository.url.replace(/\.git$/, '')));
});

test('appset from the empty prefix: --version, and lint on a repository that is not this one', () => {
  const bin = path.join(installed, 'node_modules', '.bin', 'appset');
  const run = (args: string[], cwd: string) => {
    const r = spawnSync(bin, args, { cwd, encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  assert.equal(run(['--version'], work).out, `appset ${pkg.version}\n`);
  const repo = writeFiles(path.join(work, 'deploy'), {
    'apps/guestbook.yaml': `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: guestbook}
spec:
  generatorz: []
  generators:
  - list: {elements: [{env: dev}, {env: prod}]}
  template:
    metadata: {name: 'guestbook-{{env}}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: guestbook, targetRevision: HEAD}
      destination: {server: 'https://kubernetes.default.svc', namespace: '{{env}}'}
`,
  });
  git(repo, 'init', '-q', '-b', 'main');
  const r = run(['lint', '.'], repo);
  assert.equal(r.code, 1, r.out + r.err);
  assert.match(r.out, /^apps\/guestbook\.yaml:5:3 error appset\/unknown-field unknown field "generatorz"/m);
  assert.match(r.out, /1 ApplicationSet in 1 file: 1 error/);
  const sarif = JSON.parse(run(['lint', '.', '--format', 'sarif', '--no-fail'], repo).out);
  assert.match(sarif.runs[0].tool.driver.rules[0].helpUri, /\/docs\/codes\.md#code-appset-unknown-field$/);
  // The same file fixed: exit 0.
  fs.writeFileSync(
    path.join(repo, 'apps/guestbook.yaml'),
    fs.readFileSync(path.join(repo, 'apps/guestbook.yaml'), 'utf8').replace('  generatorz: []\n', ''),
  );
  assert.equal(run(['lint', '.'], repo).code, 0);
});

test("the language server from the package's stable path answers over stdio, each finding linking to its code's own section", async () => {
  const server = path.join(installed, 'node_modules', pkg.name, 'dist', 'server.js');
  assert.equal(
    spawnSync(path.join(installed, 'node_modules', '.bin', 'appset-language-server'), ['--version'], { encoding: 'utf8' }).stdout,
    `appset-tools language server ${pkg.version}\n`,
  );
  const dir = writeFiles(path.join(work, 'editor'), {
    'a.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: a}\nspec:\n  generatorz: []\n',
  });
  const { proc, conn } = spawnStdio([server, '--stdio']);
  try {
    const published: { uri: string; diagnostics: { code?: string | number; codeDescription?: { href: string } }[] }[] = [];
    conn.onNotification('textDocument/publishDiagnostics', (p: (typeof published)[number]) => {
      published.push(p);
    });
    conn.listen();
    await conn.sendRequest(InitializeRequest.type, initializeParams(dir) as never);
    await conn.sendNotification(InitializedNotification.type, {});
    const uri = pathToFileURL(path.join(dir, 'a.yaml')).toString();
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'yaml', version: 1, text: fs.readFileSync(path.join(dir, 'a.yaml'), 'utf8') },
    });
    const d = await until(
      () => published.flatMap((p) => (p.uri === uri ? p.diagnostics : [])).find((x) => x.code === 'appset/unknown-field'),
      (x) => x !== undefined,
      () => `diagnostics published: ${JSON.stringify(published)}`,
    );
    assert.match(
      d!.codeDescription!.href,
      /^https:\/\/github\.com\/[\w-]+\/[\w-]+\/blob\/main\/docs\/codes\.md#code-appset-unknown-field$/,
    );
  } finally {
    await stopStdio(conn, proc);
  }
});

test('the VSIX for the Marketplace and Open VSX: icon, changelog, repository links, and a README whose relative links resolve', () => {
  sh('npm', ['run', 'package', '--silent'], src);
  const vsix = path.join(src, 'dist', 'appset-tools.vsix');
  const entries = sh('unzip', ['-Z1', vsix], work).split('\n').filter(Boolean);
  for (const f of ['extension/images/icon.png', 'extension/changelog.md', 'extension/readme.md', 'extension/dist/extension.js'])
    assert.ok(entries.includes(f), `${f} in the VSIX`);
  const manifest = sh('unzip', ['-p', vsix, 'extension.vsixmanifest'], work);
  assert.match(manifest, /<Icon>extension\/images\/icon\.png<\/Icon>/);
  const home = pkg.repository.url.replace(/\.git$/, '');
  assert.ok(manifest.includes(`Id="Microsoft.VisualStudio.Services.Links.Source" Value="${pkg.repository.url}"`));
  // vsce makes the README's relative links absolute through `repository`: each must name a file of the repository.
  const readme = sh('unzip', ['-p', vsix, 'extension/readme.md'], work);
  const esc = home.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const linked = [...readme.matchAll(new RegExp(`${esc}/(?:blob|raw)/HEAD/([^)#"\\s]+)`, 'g'))].map((m) => decodeURIComponent(m[1]));
  for (const rel of linked) assert.ok(fs.existsSync(path.join(src, rel)), `the README links to ${rel}, which the repository does not have`);
  // "#1234" in the README are Argo CD's issues, never turned into links to this repository's.
  assert.doesNotMatch(readme, new RegExp(`${esc}/issues/\\d+`));
});
