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

/** Runs a process without blocking the event loop (the stand-in API servers live in this process). */
function runAsync(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string> },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => p.kill(), 120_000);
    p.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
import { bundleCli, git as gitIn, repoRoot as repo } from '../helpers/cli';
import * as YAML from 'yaml';

let work = '';
/** A stand-in for the appset-tools checkout the action runs from: the bundled CLI and scripts/ci. */
let tools = '';

before(() => {
  work = bundleCli('ci-int-', 'tools/dist/cli.js').work;
  tools = path.join(work, 'tools');
  fs.cpSync(path.join(repo, 'scripts/ci'), path.join(tools, 'scripts/ci'), { recursive: true });
});

/** A local HTTP server recording requests and keeping comments, like the GitHub / GitLab comment APIs. */
interface FakeApi {
  url: string;
  requests: { method: string; url: string; body: unknown; headers: http.IncomingHttpHeaders }[];
  comments: { id: number; body: string }[];
  close(): Promise<void>;
}

function fakeApi(): Promise<FakeApi> {
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

test('the GitHub Action on a pull request: annotations, SARIF for code scanning, job summary, one diff comment updated on the next push', async () => {
  const api = await fakeApi();
  try {
    const { dir, base } = pullRequest('gh-pr');
    const temp = path.join(work, 'runner-temp');
    fs.mkdirSync(temp, { recursive: true });
    const event = path.join(work, 'event.json');
    fs.writeFileSync(event, JSON.stringify({ pull_request: { number: 7, base: { sha: base } } }));
    const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));
    inputs['github-token'] = 'test-token';
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
    const runSteps = async () => {
      const summary = path.join(work, `summary-${Math.random()}.md`);
      const results: { name?: string; code: number | null; out: string; outputs: Record<string, string> }[] = [];
      for (const step of action.runs.steps) {
        if (!step.run) continue;
        const outFile = path.join(work, `out-${Math.random()}`);
        fs.writeFileSync(outFile, '');
        const env: Record<string, string> = {
          ...(process.env as Record<string, string>),
          GITHUB_OUTPUT: outFile,
          GITHUB_STEP_SUMMARY: summary,
          GITHUB_EVENT_PATH: event,
          GITHUB_REPOSITORY: 'acme/deploy',
          GITHUB_API_URL: api.url,
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
      return { results, summary: fs.readFileSync(summary, 'utf8') };
    };

    const first = await runSteps();
    const [build, lint, diff, fail] = first.results;
    assert.equal(build.code, 0, build.out);
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

test('the GitLab job: Code Quality report, SARIF and markdown artifacts, one merge request note', async () => {
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
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...job.variables,
      APPSET_TOOLS_DIR: tools,
      CI_PROJECT_DIR: dir,
      CI_MERGE_REQUEST_IID: '12',
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
      CI_API_V4_URL: `${api.url}/api/v4`,
      CI_PROJECT_ID: 'acme/deploy',
      APPSET_GITLAB_TOKEN: 'glpat-test',
    };
    // The job's script lines, as the runner runs them (the tools folder exists, so nothing is cloned).
    const r = await runAsync('bash', ['-c', job.script.join('\n')], { cwd: dir, env });
    assert.equal(r.status, 1, 'the error fails the job: ' + r.stdout + r.stderr);
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

test('the pre-commit hook: its entry lints the staged YAML files, skipping the ones without an ApplicationSet', () => {
  const hooks = YAML.parse(fs.readFileSync(path.join(repo, '.pre-commit-hooks.yaml'), 'utf8')) as {
    id: string;
    entry: string;
    language: string;
    files: string;
    name: string;
  }[];
  const hook = hooks.find((h) => h.id === 'appset-lint')!;
  assert.equal(hook.language, 'node');
  assert.ok(new RegExp(hook.files).test('apps/x.yaml') && !new RegExp(hook.files).test('README.md'));
  const [bin, ...args] = hook.entry.split(' ');
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
  assert.equal(pkg.bin[bin], './dist/cli.js', "the entry is the package's bin");
  assert.equal(pkg.scripts.prepare, 'node esbuild.js', 'pre-commit installs from git: npm builds dist/ on install');
  const { dir } = pullRequest('pre-commit');
  // pre-commit passes the changed files that match `files`.
  const run = (files: string[]) =>
    spawnSync(process.execPath, [path.join(tools, 'dist/cli.js'), ...args, ...files], { cwd: dir, encoding: 'utf8' });
  const bad = run(['apps/guestbook.yaml', 'values.yaml']);
  assert.equal(bad.status, 1);
  assert.match(bad.stdout, /apps\/guestbook\.yaml:6:3 error appset\/unknown-field/);
  assert.match(bad.stdout, /1 ApplicationSet in 1 file/, 'the Helm values file is not linted');
  assert.equal(run(['values.yaml']).status, 0);
});
