// The ready-made integrations, run as far as they can be offline: the GitHub Action's steps
// (action.yml's own env expressions evaluated, its scripts run on a fixture pull request, the
// comment posted to and then updated on a local stand-in for the GitHub API), the GitLab job
// (script, artifacts, merge request note on a stand-in GitLab API) and the pre-commit hook.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** Runs a process without blocking the event loop (the stand-in API servers live in this process). */
function runAsync(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeout?: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => p.kill(), opts.timeout ?? 120_000);
    p.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
import { git as gitIn, repoRoot as repo } from '../helpers/cli';
import { offlineNpmEnv, packRepository } from '../helpers/npmPackage';
import * as YAML from 'yaml';

let work = '';
/** The appset-tools repository as `uses: appset-tools/appset-tools@v1` checks it out: sources, no dist/. */
let tools = '';
/** The npm package packed from it: the action and the GitLab job install this instead of the registry's. */
let tarball = '';

before(() => {
  ({ work, src: tools, tarball } = packRepository('ci-int-'));
  fs.rmSync(path.join(tools, 'dist'), { recursive: true, force: true });
});

/** The environment of a CI job: this one's, with npm offline and on an empty cache (the tarball must need nothing). */
const jobEnv = (): Record<string, string> => ({ ...(process.env as Record<string, string>), ...offlineNpmEnv(work) });

/** A local HTTP server recording requests and keeping comments, like the GitHub / GitLab comment APIs. */
interface FakeApi {
  url: string;
  requests: { method: string; url: string; body: unknown; headers: http.IncomingHttpHeaders }[];
  comments: { id: number; body: string }[];
  close(): Promise<void>;
}

/** `refuse`: answer every POST/PATCH/PUT with this HTTP status (a read-only token gets 403). */
function fakeApi(refuse?: number): Promise<FakeApi> {
  const api: Partial<FakeApi> = { requests: [], comments: [] };
  let next = 100;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      api.requests!.push({ method: req.method!, url: req.url!, body, headers: req.headers });
      const send = (code: number, v: unknown) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(v));
      };
      const idMatch = /\/(\d+)$/.exec(req.url!.split('?')[0]);
      if (req.method === 'GET') return send(200, api.comments);
      if (refuse) return send(refuse, { message: 'Resource not accessible by integration' });
      if (req.method === 'POST') {
        const c = { id: next++, body: body.body };
        api.comments!.push(c);
        return send(201, c);
      }
      if ((req.method === 'PATCH' || req.method === 'PUT') && idMatch) {
        const c = api.comments!.find((x) => x.id === Number(idMatch[1]));
        if (!c) return send(404, {});
        c.body = body.body;
        return send(200, c);
      }
      send(400, {});
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      api.url = `http://127.0.0.1:${port}`;
      api.close = () => new Promise((r) => server.close(() => r()));
      resolve(api as FakeApi);
    });
  });
}

const git = (cwd: string, ...args: string[]) => gitIn(cwd, ...args).trim();

const APPSET = (elements: string[]) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: guestbook
spec:
  generators:
  - list:
      elements:
${elements.map((e) => `      - {env: ${e}}`).join('\n')}
  template:
    metadata: {name: 'guestbook-{{env}}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', path: guestbook, targetRevision: HEAD}
      destination: {server: 'https://kubernetes.default.svc', namespace: '{{env}}'}
`;

/** A pull request: base commit with 2 Applications, head work tree with a third and a misspelt field. */
function pullRequest(name: string): { dir: string; base: string } {
  const dir = path.join(work, name);
  fs.mkdirSync(path.join(dir, 'apps'), { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, 'apps/guestbook.yaml'), APPSET(['dev', 'staging']));
  fs.writeFileSync(path.join(dir, 'values.yaml'), 'image: {tag: "{{ .Values.tag }}"}\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  const base = git(dir, 'rev-parse', 'HEAD');
  fs.writeFileSync(
    path.join(dir, 'apps/guestbook.yaml'),
    APPSET(['dev', 'staging', 'prod']).replace('  generators:', '  generatorz: []\n  generators:'),
  );
  return { dir, base };
}

/** Evaluates the `${{ … }}` expressions action.yml uses in `env:` (paths, `||` fallbacks). */
function evaluate(value: string, ctx: Record<string, unknown>): string {
  return value.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expr: string) => {
    for (const alt of expr.split('||').map((s) => s.trim())) {
      const v = alt.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), ctx);
      if (v !== undefined && v !== '' && v !== null) return String(v);
    }
    return '';
  });
}

interface ActionStep {
  name?: string;
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}

const action = YAML.parse(fs.readFileSync(path.join(repo, 'action.yml'), 'utf8')) as {
  name: string;
  description: string;
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
};

test('action.yml is a well-formed composite action: every run step has a shell, every expression names a declared input or step', () => {
  assert.ok(action.name && action.description);
  assert.equal(action.runs.using, 'composite');
  const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
  const text = fs.readFileSync(path.join(repo, 'action.yml'), 'utf8');
  for (const m of text.matchAll(/inputs\.([\w-]+)/g)) assert.ok(m[1] in action.inputs, `undeclared input ${m[1]}`);
  for (const m of text.matchAll(/steps\.([\w-]+)\.outputs/g)) assert.ok(ids.has(m[1]), `unknown step ${m[1]}`);
  for (const s of action.runs.steps) {
    assert.ok(!!s.run !== !!s.uses, `${s.name}: exactly one of run/uses`);
    if (s.run) assert.equal(s.shell, 'bash', `${s.name}: composite run steps need a shell`);
    if (s.uses) assert.match(s.uses, /^[\w-]+\/[\w/-]+@v\d+$/, `${s.name}: pinned to a major version`);
    for (const m of (s.run ?? '').matchAll(/scripts\/ci\/[\w.-]+/g)) assert.ok(fs.existsSync(path.join(repo, m[0])), m[0]);
  }
  const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'));
  assert.ok(upload?.with?.sarif_file.includes('steps.lint.outputs.sarif-file'));
  for (const [k, o] of Object.entries(action.outputs)) assert.match(o.value, /steps\.\w+\.outputs\./, k);
});

interface StepResult {
  name?: string;
  code: number | null;
  out: string;
  outputs: Record<string, string>;
}

/**
 * The action's `run` steps on the pull request in `dir` (base commit `base`), as the runner runs them:
 * the `uses` steps (setup-node, upload-sarif, upload-artifact) are GitHub's own and not run here; the
 * package is installed from the packed tarball (the `version` input) instead of the registry.
 */
function githubAction(apiUrl: string, dir: string, base: string, name: string) {
  const temp = path.join(work, `${name}-runner-temp`);
  fs.mkdirSync(temp, { recursive: true });
  const event = path.join(work, `${name}-event.json`);
  fs.writeFileSync(event, JSON.stringify({ pull_request: { number: 7, base: { sha: base } } }));
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));
  inputs['github-token'] = 'test-token';
  inputs.version = tarball;
  const ctx: Record<string, unknown> = {
    inputs,
    github: {
      action_path: tools,
      event_name: 'pull_request',
      token: 'test-token',
      event: { pull_request: { number: 7, base: { sha: base } } },
    },
    runner: { temp },
    steps: {},
  };
  return async () => {
    const summary = path.join(work, `summary-${Math.random()}.md`);
    const results: StepResult[] = [];
    for (const step of action.runs.steps) {
      if (!step.run) continue;
      const outFile = path.join(work, `out-${Math.random()}`);
      fs.writeFileSync(outFile, '');
      const env: Record<string, string> = {
        ...jobEnv(),
        GITHUB_OUTPUT: outFile,
        GITHUB_STEP_SUMMARY: summary,
        GITHUB_EVENT_PATH: event,
        GITHUB_REPOSITORY: 'acme/deploy',
        GITHUB_API_URL: apiUrl,
        GITHUB_ACTION_PATH: tools,
      };
      for (const [k, v] of Object.entries(step.env ?? {})) env[k] = evaluate(v, ctx);
      // The one condition that differs between the runs here: "Fail on findings" runs when lint exited non-zero.
      if (
        step.if?.includes("steps.lint.outputs.exit-code != '0'") &&
        (ctx.steps as Record<string, { outputs: Record<string, string> }>).lint.outputs['exit-code'] === '0'
      )
        continue;
      const r = await runAsync('bash', ['-e', '-c', step.run], { cwd: dir, env });
      const outputs = Object.fromEntries(
        fs
          .readFileSync(outFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      if (step.id) (ctx.steps as Record<string, unknown>)[step.id] = { outputs };
      results.push({ name: step.name, code: r.status, out: r.stdout + r.stderr, outputs });
    }
    return { results, summary: fs.readFileSync(summary, 'utf8'), reports: path.join(temp, 'appset-tools-report') };
  };
}

test('the GitHub Action on a pull request: the packaged CLI installed (no build), annotations, SARIF, job summary, the reports for the artifact, one diff comment updated on the next push', async () => {
  const api = await fakeApi();
  try {
    const { dir, base } = pullRequest('gh-pr');
    const runSteps = githubAction(api.url, dir, base, 'gh-pr');
    const first = await runSteps();
    const [install, lint, diff, fail] = first.results;
    assert.deepEqual(
      first.results.map((r) => r.name),
      ['Install appset-tools', 'appset lint', 'appset diff', 'Fail on findings'],
    );
    assert.equal(install.code, 0, install.out);
    assert.match(install.out, /^appset \d+\.\d+\.\d+$/m);
    assert.ok(
      install.outputs.cli.startsWith(path.join(work, 'gh-pr-runner-temp')),
      'installed outside the repository: ' + install.outputs.cli,
    );
    assert.ok(
      !fs.existsSync(path.join(tools, 'node_modules', 'appset-tools')) && !fs.existsSync(path.join(tools, 'dist')),
      'nothing built in the action checkout',
    );
    assert.equal(lint.code, 0, 'findings do not stop the later steps: ' + lint.out);
    assert.equal(lint.outputs['exit-code'], '1');
    assert.match(
      lint.out,
      /^::error file=apps\/guestbook\.yaml,line=6,endLine=6,col=3,endColumn=13,title=appset\/unknown-field::unknown field "generatorz"/m,
    );
    const sarifFile = lint.outputs['sarif-file'];
    assert.equal(JSON.parse(fs.readFileSync(sarifFile, 'utf8')).runs[0].results.length, 1);
    assert.equal(diff.code, 0, diff.out);
    assert.match(diff.out, /pr-comment: posted comment 100 on #7/);
    assert.equal(fail.code, 1, 'the job fails at the end because of the error');
    assert.match(first.summary, /### ❌ appset lint/);
    assert.match(first.summary, /Applications 1 added, 0 removed, 0 changed/);
    // What the artifact step uploads: the folder of the full reports.
    assert.deepEqual(fs.readdirSync(first.reports).sort(), ['appset-diff.md', 'appset-lint.md', 'appset-tools.sarif']);
    assert.equal(api.comments.length, 1);
    assert.match(api.comments[0].body, /^<!-- appset-tools:diff -->/);
    assert.match(api.comments[0].body, /`guestbook-prod` \| ➕ added \| all at once/);
    const post = api.requests.find((r) => r.method === 'POST')!;
    assert.equal(post.url, '/repos/acme/deploy/issues/7/comments');
    assert.equal(post.headers.authorization, 'Bearer test-token');

    // The next push: the same comment is updated, not a second one added.
    fs.writeFileSync(path.join(dir, 'apps/guestbook.yaml'), APPSET(['dev', 'staging', 'prod', 'qa']));
    const second = await runSteps();
    assert.equal(second.results[2].code, 0, second.results[2].out);
    assert.match(second.results[2].out, /updated comment 100 on #7/);
    assert.equal(api.comments.length, 1);
    assert.match(api.comments[0].body, /Applications 2 added/);
    assert.equal(second.results[1].outputs['exit-code'], '0');
  } finally {
    await api.close();
  }
});

test('the GitHub Action on a pull request from a fork (read-only token): the refused comment is a warning, and clean lint passes', async () => {
  const api = await fakeApi(403);
  try {
    const { dir, base } = pullRequest('gh-fork');
    fs.writeFileSync(path.join(dir, 'apps/guestbook.yaml'), APPSET(['dev', 'staging', 'prod']));
    const { results } = await githubAction(api.url, dir, base, 'gh-fork')();
    assert.deepEqual(
      results.map((r) => [r.name, r.code]),
      [
        ['Install appset-tools', 0],
        ['appset lint', 0],
        ['appset diff', 0],
      ],
      'no step fails, and "Fail on findings" does not run',
    );
    assert.match(results[2].out, /^::warning title=appset-tools comment not posted::.*forks and Dependabot.*\(HTTP 403\)$/m);
    assert.equal(api.comments.length, 0);
    assert.equal(api.requests.filter((r) => r.method === 'POST').length, 1);
  } finally {
    await api.close();
  }
});

test('the GitLab job: the npm package installed outside the project (no checkout of the tool), Code Quality report, SARIF and markdown artifacts, one merge request note', async () => {
  const api = await fakeApi();
  try {
    const job = (
      YAML.parse(fs.readFileSync(path.join(repo, 'ci/appset-tools.gitlab-ci.yml'), 'utf8')) as Record<
        string,
        { script: string[]; variables: Record<string, string>; artifacts: { paths: string[]; reports: { codequality: string } } }
      >
    )['.appset-tools'];
    assert.ok(job, 'the template defines the .appset-tools job');
    const { dir, base } = pullRequest('gl-mr');
    assert.match(
      job.variables.APPSET_TOOLS_PACKAGE,
      new RegExp(`^appset-tools@${pkgVersion.replace(/\./g, '\\.')}$`),
      'the template runs its own release',
    );
    const env: Record<string, string> = {
      ...jobEnv(),
      ...job.variables,
      APPSET_TOOLS_PACKAGE: tarball,
      CI_PROJECT_DIR: dir,
      CI_MERGE_REQUEST_IID: '12',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      CI_API_V4_URL: `${api.url}/api/v4`,
      CI_PROJECT_ID: 'acme/deploy',
      APPSET_GITLAB_TOKEN: 'glpat-test',
    };
    // The job's script lines, as the runner runs them.
    const r = await runAsync('bash', ['-c', job.script.join('\n')], { cwd: dir, env });
    assert.equal(r.status, 1, 'the error fails the job: ' + r.stdout + r.stderr);
    // Nothing of the tool in the project: only the reports are new, and only the project's ApplicationSet was linted.
    assert.deepEqual(gitIn(dir, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).sort(), [
      ' M apps/guestbook.yaml',
      '?? appset-diff.md',
      '?? appset-lint.md',
      '?? appset-tools.sarif',
      '?? gl-code-quality-report.json',
    ]);
    assert.match(r.stdout, /1 ApplicationSet in 1 file/);
    for (const p of [...job.artifacts.paths, job.artifacts.reports.codequality])
      assert.ok(fs.existsSync(path.join(dir, p)), `artifact ${p}`);
    const cq = JSON.parse(fs.readFileSync(path.join(dir, job.artifacts.reports.codequality), 'utf8'));
    assert.equal(cq[0].check_name, 'appset/unknown-field');
    assert.deepEqual(cq[0].location, { path: 'apps/guestbook.yaml', lines: { begin: 6, end: 6 } });
    assert.equal(api.comments.length, 1);
    const post = api.requests.find((x) => x.method === 'POST')!;
    assert.equal(post.url, '/api/v4/projects/acme%2Fdeploy/merge_requests/12/notes');
    assert.equal(post.headers['private-token'], 'glpat-test');
    assert.match(api.comments[0].body, /Applications 1 added/);
    // Again: the note is updated.
    await runAsync('bash', ['-c', job.script.join('\n')], { cwd: dir, env });
    assert.equal(api.comments.length, 1);
    assert.ok(api.requests.some((x) => x.method === 'PUT'));
  } finally {
    await api.close();
  }
});

const pkgVersion: string = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).version;
const preCommit = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
const noPreCommit = preCommit.status === 0 ? false : 'pre-commit is not installed (.ci/run installs the Debian package)';

/** Runs pre-commit on `files` in the repository `dir`, its environments under `work`. */
function runPreCommit(dir: string, files: string[], env: Record<string, string>) {
  return runAsync('pre-commit', ['run', '--color', 'never', '--files', ...files], {
    cwd: dir,
    env: { ...env, PRE_COMMIT_HOME: path.join(work, 'pre-commit-home') },
    // A hang guard: the first run installs the hook (npm installs the dev toolchain and builds).
    timeout: 900_000,
  });
}

test(
  'the pre-commit hook as documented: pre-commit installs it from the repository (npm builds it) and lints the staged ApplicationSets only',
  { skip: noPreCommit },
  async () => {
    const hooks = YAML.parse(fs.readFileSync(path.join(repo, '.pre-commit-hooks.yaml'), 'utf8')) as {
      id: string;
      entry: string;
      language: string;
      files: string;
    }[];
    const hook = hooks.find((h) => h.id === 'appset-lint')!;
    const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
    assert.equal(pkg.bin[hook.entry.split(' ')[0]], './dist/cli.js', "the entry is the package's bin");
    // The hook repository: this repository's files at a commit (no dist/: pre-commit's npm install builds it).
    const hookRepo = path.join(work, 'hook-repo');
    fs.cpSync(tools, hookRepo, { recursive: true, verbatimSymlinks: true });
    fs.rmSync(path.join(hookRepo, 'node_modules'));
    git(hookRepo, 'init', '-q', '-b', 'main');
    git(hookRepo, 'add', '-A');
    git(hookRepo, 'commit', '-qm', 'release');
    const { dir } = pullRequest('pre-commit');
    fs.writeFileSync(
      path.join(dir, '.pre-commit-config.yaml'),
      `repos:\n  - repo: ${pathToFileURL(hookRepo).href}\n    rev: ${git(hookRepo, 'rev-parse', 'HEAD')}\n    hooks:\n      - id: appset-lint\n`,
    );
    git(dir, 'add', '-A');
    // npm installs the dev toolchain for the build from its cache (no network needed where `npm ci` ran).
    const env = { ...(process.env as Record<string, string>), npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false' };
    const bad = await runPreCommit(dir, ['apps/guestbook.yaml', 'values.yaml'], env);
    assert.equal(bad.status, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout, /apps\/guestbook\.yaml:6:3 error appset\/unknown-field/);
    assert.match(bad.stdout, /1 ApplicationSet in 1 file/, 'the Helm values file is not linted');
    const ok = await runPreCommit(dir, ['values.yaml'], env);
    assert.equal(ok.status, 0, ok.stdout + ok.stderr);
    assert.match(ok.stdout, /appset lint \(Argo CD ApplicationSets\)\.+Passed/);
  },
);

test(
  'the pre-commit hook from the npm package (a local hook with the package as its dependency): no build, nothing but the tarball',
  { skip: noPreCommit },
  async () => {
    const { dir } = pullRequest('pre-commit-npm');
    fs.writeFileSync(
      path.join(dir, '.pre-commit-config.yaml'),
      `repos:
  - repo: local
    hooks:
      - id: appset-lint
        name: appset lint
        entry: appset lint --only-appsets
        language: node
        additional_dependencies: ['${tarball}']
        files: \\.ya?ml$
        require_serial: true
`,
    );
    git(dir, 'add', '-A');
    const r = await runPreCommit(dir, ['apps/guestbook.yaml', 'values.yaml'], jobEnv());
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /apps\/guestbook\.yaml:6:3 error appset\/unknown-field/);
    assert.match(r.stdout, /1 ApplicationSet in 1 file/);
  },
);
