// Publish → install, the whole path a release takes, offline: the repository packed as a clone has it,
// `npm publish` to a local registry (test/helpers/registry.ts, which speaks the npm registry's protocol),
// then a user's steps from docs/cli.md and docs/editors.md against it: `npm install -g` into an empty
// prefix, `appset --version`, `appset lint` and `npx appset-tools lint` in a git repository that is not
// this one, and the language server at its stable path. The registry serves nothing but what was
// published, so a runtime dependency would fail the install.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packRepository } from '../helpers/npmPackage';
import { startRegistry, type LocalRegistry } from '../helpers/registry';
import { clusterSecrets } from '../helpers/clusters';
import { git, repoRoot, writeFiles } from '../helpers/cli';

const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
const spec = `${pkg.name}@${pkg.version}`;
let work = '';
let tarball = '';
let registry: LocalRegistry;
let env: NodeJS.ProcessEnv = {};
/** A user's repository: an ApplicationSet in apps/ whose clusters are the Secrets in clusters/. */
let repo = '';

const APPSET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: guestbook}
spec:
  goTemplate: true
  generators:
  - clusters: {selector: {matchLabels: {env: prod}}}
  template:
    metadata: {name: 'guestbook-{{.name}}'}
    spec:
      projct: default
      source: {repoURL: 'https://example.com/r.git', path: guestbook, targetRevision: HEAD}
      destination: {server: '{{.server}}', namespace: guestbook}
`;

before(async () => {
  ({ work, tarball } = packRepository('npm-reg-'));
  registry = await startRegistry();
  const rc = path.join(work, 'user.npmrc');
  fs.writeFileSync(rc, `registry=${registry.url}\n${registry.url.replace(/^http:/, '')}:_authToken=${registry.token}\n`);
  // npm's own settings only: this user config, an empty cache, no audit or update check against anything else.
  env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_/i.test(k)));
  Object.assign(env, {
    npm_config_userconfig: rc,
    npm_config_registry: registry.url,
    npm_config_cache: path.join(work, 'cache'),
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  });
  repo = writeFiles(path.join(work, 'user-repo'), {
    'apps/guestbook.yaml': APPSET,
    'clusters/prod.yaml': clusterSecrets(
      ['prod-1', 'prod-2', 'dev-1'].map((name) => ({ name, labels: { env: name.replace(/-\d$/, '') } })),
    ),
  });
  git(repo, 'init', '-q', '-b', 'main');
});

after(async () => {
  await registry?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Runs a command without blocking this process's event loop, which the registry answers on. */
function run(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { cwd, env, timeout: 120_000 });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

/** `run` that fails the test when the command fails; returns its standard output. */
async function sh(cmd: string, args: string[], cwd: string): Promise<string> {
  const r = await run(cmd, args, cwd);
  assert.equal(r.code, 0, `${cmd} ${args.join(' ')}: ${r.out}\n${r.err}`);
  return r.out;
}

test('npm publish to the registry, then npm install -g into an empty prefix: appset, lint, the language server', async () => {
  await sh('npm', ['publish', tarball], work);
  assert.equal((await sh('npm', ['view', spec, 'version'], work)).trim(), pkg.version);

  const prefix = path.join(work, 'global');
  await sh('npm', ['install', '-g', '--prefix', prefix, spec], work);
  // Only our package was asked for: it has no dependency to fetch.
  const fetched = registry.requests.filter((r) => r.startsWith('GET')).map((r) => r.split(' ')[1].split('/')[1]);
  assert.deepEqual([...new Set(fetched)], [pkg.name], registry.requests.join('\n'));

  const appset = path.join(prefix, 'bin', 'appset');
  assert.equal((await run(appset, ['--version'], repo)).out, `appset ${pkg.version}\n`);
  const lint = await run(appset, ['lint', '.'], repo);
  assert.equal(lint.code, 1, lint.out + lint.err);
  // The workspace is the repository: its cluster Secrets give the generator its 2 prod clusters.
  assert.match(lint.out, /^apps\/guestbook\.yaml:\d+:\d+ error appset\/unknown-field unknown field "projct"/m);
  assert.doesNotMatch(lint.out, /generator\/empty/);
  const render = await run(appset, ['render', 'apps/guestbook.yaml'], repo);
  assert.deepEqual(render.out.match(/name: guestbook-\S+/g), ['name: guestbook-prod-1', 'name: guestbook-prod-2'], render.out + render.err);

  // The server at the stable path docs/editors.md names: `npm root -g`/appset-tools/dist/server.js.
  const root = (await sh('npm', ['root', '-g', '--prefix', prefix], work)).trim();
  assert.ok(fs.existsSync(path.join(root, pkg.name, 'dist', 'server.js')), root);
  assert.equal(
    (await run(path.join(prefix, 'bin', 'appset-language-server'), ['--version'], repo)).out,
    `appset-tools language server ${pkg.version}\n`,
  );
});

test('npx appset-tools lint in a user repository, from the registry and an empty cache', async () => {
  // After the publish above (node:test runs a file's tests in order).
  const version = await run('npx', ['--yes', spec, '--version'], repo);
  assert.equal(version.out, `appset ${pkg.version}\n`, version.err);
  const lint = await run('npx', ['--yes', spec, 'lint', '.', '--format', 'json'], repo);
  assert.equal(lint.code, 1, lint.err);
  const report = JSON.parse(lint.out);
  assert.ok(JSON.stringify(report).includes('appset/unknown-field'), lint.out);
});
