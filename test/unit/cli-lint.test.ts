// `appset lint` as a user runs it: the bundled CLI in a child process (exit codes, output format).
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, repoRoot as repo, runCli } from '../helpers/cli';
import { flowClusterSecret } from '../helpers/clusters';
import { appsetHead, flowTemplate } from '../helpers/appsets';

let cli = '';
let work = '';

before(() => {
  // The CLI bundled as esbuild.js bundles it, into a temp dir, so the test runs the current code.
  ({ cli, work } = bundleCli('cli-lint-'));
});

const run = (args: string[], cwd = work) => runCli(cli, ['lint', ...args], { cwd });

const CLEAN = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: ok
spec:
  generators:
  - list:
      elements: [{name: a}]
  template:
    metadata: {name: '{{name}}'}
    spec:
      project: default
      destination: {server: 'https://kubernetes.default.svc', namespace: x}
`;

test('clean file: exit 0 and a summary line', () => {
  fs.writeFileSync(path.join(work, 'clean.yaml'), CLEAN);
  const r = run(['clean.yaml']);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, '1 ApplicationSet in 1 file: 0 errors, 0 warnings, 0 notes\n');
});

test('errors: exit 1, path:line:col severity code message, 1-based', () => {
  fs.mkdirSync(path.join(work, 'dir', 'node_modules'), { recursive: true });
  fs.writeFileSync(path.join(work, 'dir', 'bad.yml'), CLEAN.replace('  generators:', '  goTemplat: true\n  generators:'));
  fs.writeFileSync(path.join(work, 'dir', 'node_modules', 'bad.yaml'), CLEAN.replace('project', 'projekt'));
  fs.writeFileSync(path.join(work, 'dir', 'helm-template.yaml'), '{{ if .Values.x }}\nkind: ConfigMap\n{{ end }}\n');
  const r = run(['dir']);
  assert.equal(r.code, 1, r.err);
  const lines = r.out.trim().split('\n');
  assert.equal(lines[0], 'dir/bad.yml:6:3 error appset/unknown-field unknown field "goTemplat" in spec; did you mean "goTemplate"?');
  assert.equal(lines[1], '1 ApplicationSet in 1 file: 1 error, 0 warnings, 0 notes');
  assert.equal(lines.length, 2, 'node_modules and non-ApplicationSet YAML in folders are skipped');
});

test('--no-fail exits 0 with errors; --quiet prints errors only', () => {
  const text = CLEAN.replace('  generators:', '  strategy: {type: rollingsync}\n  goTemplat: true\n  generators:');
  fs.writeFileSync(path.join(work, 'mixed.yaml'), text);
  const all = run(['mixed.yaml', '--no-fail']);
  assert.equal(all.code, 0);
  assert.match(all.out, /warning appset\/strategy-type/);
  const quiet = run(['mixed.yaml', '--quiet']);
  assert.equal(quiet.code, 1);
  assert.doesNotMatch(quiet.out, / warning appset/);
});

test('--format json: files, diagnostics with 1-based ranges, summary', () => {
  fs.writeFileSync(path.join(work, 'j.yaml'), CLEAN.replace('project: default', 'project: 7'));
  const r = run(['--format', 'json', 'j.yaml']);
  assert.equal(r.code, 1);
  const json = JSON.parse(r.out);
  assert.equal(json.summary.errors, 1);
  const { fingerprint, ...d } = json.files[0].diagnostics[0];
  assert.match(fingerprint, /^[0-9a-f]{16}$/);
  assert.deepEqual(d, {
    path: 'j.yaml',
    applicationSet: 'ok',
    line: 12,
    col: 16,
    endLine: 12,
    endCol: 17,
    severity: 'error',
    code: 'appset/wrong-type',
    message: 'spec.template.spec.project: expected a string, got the number 7 (quote it to make it a string)',
  });
});

test('YAML syntax errors in a named file are reported; multi-document files are handled', () => {
  fs.writeFileSync(
    path.join(work, 'multi.yaml'),
    `kind: ConfigMap\napiVersion: v1\n---\n${CLEAN}---\n${CLEAN.replace('name: ok', 'name: ok2')}---\nkey: [unclosed\n`,
  );
  const r = run(['multi.yaml']);
  assert.equal(r.code, 1);
  assert.match(r.out, /^multi\.yaml:\d+:\d+ error yaml\/syntax /m);
  assert.match(r.out, /2 ApplicationSets in 1 file: 1 error/);
});

test('bad usage and missing files exit 2', () => {
  assert.equal(run([]).code, 2);
  assert.equal(run(['--format', 'xml', 'clean.yaml']).code, 2);
  assert.equal(run(['--bogus', 'clean.yaml']).code, 2);
  assert.equal(run(['--progressive-syncs', 'maybe', 'clean.yaml']).code, 2);
  assert.equal(run(['--repo-map', 'noequals', 'clean.yaml']).code, 2);
  const missing = run(['nope.yaml']);
  assert.equal(missing.code, 2);
  assert.match(missing.err, /nope\.yaml: no such file or folder/);
  const help = run(['--help']);
  assert.equal(help.code, 0);
  assert.match(help.out, /usage: appset lint/);
});

test('the bundled examples: clean ones pass, the broken one fails with its codes', () => {
  const clean = run(['examples/guestbook.yaml', 'examples/team-rollout'], repo);
  assert.equal(clean.code, 0, clean.out + clean.err);
  const broken = run(['examples/broken'], repo);
  assert.equal(broken.code, 1);
  assert.match(
    broken.out,
    /examples\/broken\/mistakes\.yaml:\d+:\d+ error appset\/unknown-field unknown field "maxUpdates" in a rollingSync step; did you mean "maxUpdate"\?/,
  );
});

test('the workspace index cache: written to APPSET_CACHE_DIR, same results when used, ignored when corrupt, off with --no-cache', () => {
  const ws = path.join(work, 'cache-ws');
  fs.mkdirSync(path.join(ws, '.git'), { recursive: true });
  fs.mkdirSync(path.join(ws, 'clusters'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'clusters', 'prod.yaml'), flowClusterSecret({ name: 'prod', secretName: 'prod' }));
  fs.writeFileSync(path.join(ws, 'values.yaml'), 'replicaCount: 2\n');
  fs.writeFileSync(
    path.join(ws, 'appset.yaml'),
    CLEAN.replace("destination: {server: 'https://kubernetes.default.svc', namespace: x}", 'destination: {name: staging, namespace: x}'),
  );
  const cacheDir = path.join(work, 'cache');
  const lint = (...args: string[]) => {
    const r = runCli(cli, ['lint', ...args, 'appset.yaml'], { cwd: ws, env: { ...process.env, APPSET_CACHE_DIR: cacheDir } });
    return { code: r.code, out: r.out };
  };
  const first = lint();
  // The destination names a cluster the workspace's Secrets do not have: the Secret was found.
  assert.match(first.out, /no clusters with this name: staging/);
  const files = fs.readdirSync(cacheDir);
  assert.equal(files.length, 1);
  const stored = JSON.parse(fs.readFileSync(path.join(cacheDir, files[0]), 'utf8'));
  assert.equal(stored.entries[path.join(ws, 'values.yaml').split(path.sep).join('/')][1], 0, 'values.yaml passes no interest');
  assert.deepEqual(lint(), first);
  fs.writeFileSync(path.join(cacheDir, files[0]), '{not json');
  assert.deepEqual(lint(), first);
  fs.rmSync(cacheDir, { recursive: true });
  assert.deepEqual(lint('--no-cache'), first);
  assert.equal(fs.existsSync(cacheDir), false);
});

test('in a repository of many overlays, a second run reads only the files that can matter and parses none it does not need (APPSET_DEBUG=stats)', () => {
  const ws = path.join(work, 'stats-ws');
  fs.mkdirSync(path.join(ws, '.git'), { recursive: true });
  const files: Record<string, string> = {
    'clusters/prod.yaml': flowClusterSecret({ name: 'prod', secretName: 'prod' }),
    'appset.yaml': CLEAN,
  };
  for (let i = 0; i < 40; i++) {
    files[`apps/svc-${i}/base/deployment.yaml`] = `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: svc-${i}}\n`;
    files[`apps/svc-${i}/overlays/prod/kustomization.yaml`] =
      'kind: Kustomization\nresources: [../../base]\npatches:\n  - path: replicas.yaml\n';
    files[`apps/svc-${i}/overlays/prod/replicas.yaml`] =
      `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: svc-${i}}\nspec: {replicas: 3}\n`;
  }
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
  }
  const env = { ...process.env, APPSET_CACHE_DIR: path.join(work, 'stats-cache'), APPSET_DEBUG: 'stats' };
  const stats = () => {
    const r = runCli(cli, ['lint', 'appset.yaml'], { cwd: ws, env });
    assert.equal(r.code, 0, r.out + r.err);
    const m =
      /stats: workspace index: (\d+) YAML files listed, (\d+) looked at \(stat\), (\d+) read, (\d+) not read \(cache\), (\d+) parsed/.exec(
        r.err,
      );
    assert.ok(m, r.err);
    return { listed: +m[1], statted: +m[2], read: +m[3], cached: +m[4], parsed: +m[5] };
  };
  // First run: every file looked at and read once, whatever the number of consumers asking the index;
  // none of the 40 kustomizations is parsed (none names appset.yaml).
  assert.deepEqual(stats(), { listed: 122, statted: 122, read: 122, cached: 0, parsed: 0 });
  // Second run: only the cluster Secret and the ApplicationSet file are read again (the kustomizations'
  // patches stay in their folders, so they pass no interest; validate/partial.ts reads an ancestor
  // folder's kustomization itself). ApplicationSet files are kept as text for the folders their templates
  // deploy (install/version.ts), parsed only when a bootstrap install asks: none is parsed here.
  assert.deepEqual(stats(), { listed: 122, statted: 122, read: 2, cached: 120, parsed: 0 });
});

test('json: a mistake met by every parameter set is one result with affected Applications and their sources (issue 10)', () => {
  const dir = path.join(work, 'grouped');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'clusters.yaml'),
    ['a', 'b', 'c'].map((name) => flowClusterSecret({ name, labels: { env: 'prod' } })).join('---\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'appset.yaml'),
    `${appsetHead('grouped', { namespace: null, options: '["missingkey=error"]' })}  generators:
  - clusters: {selector: {matchLabels: {env: prod}}}
${flowTemplate("'web-{{ .name }}'", "repoURL: 'https://example.com/r.git', path: '{{ .nope }}'", "server: '{{ .server }}', namespace: web")}`,
  );
  const r = run(['grouped/appset.yaml', '--format', 'json', '--inventory', 'grouped/clusters.yaml']);
  assert.equal(r.code, 1, r.err);
  const out = JSON.parse(r.out);
  const ds = out.files[0].diagnostics.filter((d: { severity: string }) => d.severity === 'error');
  assert.equal(ds.length, 1, JSON.stringify(ds));
  assert.equal(ds[0].code, 'template/missing-key');
  assert.deepEqual(
    { count: ds[0].affected.count, of: ds[0].affected.of, names: ds[0].affected.names },
    { count: 3, of: 3, names: ['web-a', 'web-b', 'web-c'] },
  );
  assert.deepEqual(ds[0].affected.sources[0], {
    kind: 'cluster',
    label: 'cluster Secret "cluster-a"',
    path: 'grouped/clusters.yaml',
    line: 1,
    col: 1,
  });
  assert.equal(ds[0].related[1].line, 7, 'the second Secret starts on line 7');
});

test('--argocd-version: detected from the repository, overridden by the flag, bad values are usage errors', () => {
  const dir = path.join(work, 'versions');
  fs.mkdirSync(path.join(dir, 'argocd'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'argocd', 'kustomization.yaml'),
    'resources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v3.1.4\n',
  );
  fs.writeFileSync(
    path.join(dir, 'appset.yaml'),
    CLEAN.replace('spec:\n  generators:', 'spec:\n  strategy:\n    type: AllAtOnce\n    deletionOrder: Reverse\n  generators:'),
  );
  const detected = run(['appset.yaml'], dir);
  assert.equal(detected.code, 1, detected.out + detected.err);
  assert.doesNotMatch(detected.out, /deletion-order-ignored/, 'one finding for the field 3.1 does not know');
  assert.match(
    detected.out,
    /appset\.yaml:8:5 error appset\/unknown-field "deletionOrder" was added in Argo CD 3\.2: Argo CD 3\.1\.4's API server drops it .*detected: kustomize remote base of argoproj\/argo-cd \?ref=v3\.1\.4 in argocd\/kustomization\.yaml/,
  );
  const flagged = run(['appset.yaml', '--argocd-version', 'v3.2.0'], dir);
  assert.doesNotMatch(flagged.out, /unknown-field/, flagged.out);
  const bad = run(['appset.yaml', '--argocd-version', 'latest-ish'], dir);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--argocd-version must be auto, master, stable, latest or a version such as 3\.2 or v3\.2\.5/);
});

test('issue 38: outside any git work tree, absolute arguments elsewhere are shown relative in all six formats', () => {
  // The repository: not a git work tree, and not under the folder the command runs in.
  const elsewhere = path.join(work, 'elsewhere');
  const cwd = path.join(work, 'runner');
  fs.mkdirSync(path.join(elsewhere, 'apps'), { recursive: true });
  fs.mkdirSync(cwd, { recursive: true });
  const bad = CLEAN.replace('project: default', 'project: default\n      sneaky: true');
  fs.writeFileSync(path.join(elsewhere, 'apps', 'bad.yaml'), bad);
  for (const format of ['text', 'json', 'sarif', 'github', 'markdown', 'codequality']) {
    for (const input of [path.join(elsewhere, 'apps'), path.join(elsewhere, 'apps', 'bad.yaml')]) {
      const r = run(['--format', format, '--no-fail', input], cwd);
      assert.equal(r.code, 0, `${format}: ${r.err}`);
      assert.ok(!r.out.includes(work) && !r.err.includes(work), `${format} ${input}: an absolute path in\n${r.out}${r.err}`);
      assert.match(r.out, /bad\.yaml/, format);
    }
  }
});
