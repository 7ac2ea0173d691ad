// The CI gate as CI runs it: the bundled CLI in a child process on git repositories this test
// creates (base and head commits). `appset lint` in every format (SARIF validated against the
// official SARIF 2.1.0 schema), exit codes, and `appset diff --base`.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { bundleCli, git, repoRoot as repo, runCli, writeFiles } from '../helpers/cli';
import { clusterSecrets, cmdParamsCm } from '../helpers/clusters';
import { appsetHead, clusterListMatrix, flowTemplate, rollingSyncBy, serviceElements, TIER_LABEL } from '../helpers/appsets';

let cli = '';
let work = '';

before(() => {
  ({ cli, work } = bundleCli('cli-ci-'));
});

const run = (args: string[], cwd: string) => runCli(cli, args, { cwd, timeout: 120_000 });

/** The story's fleet: 12 production clusters (1 canary, 3 low, 8 high), progressive syncs enabled. */
function clusters(tierOf: (i: number) => string = (i) => (i === 0 ? 'canary' : i < 4 ? 'low' : 'high')): string {
  return clusterSecrets(
    Array.from({ length: 12 }, (_, i) => {
      const n = String(i).padStart(2, '0');
      return { name: `prod-${n}`, secretName: `cluster-${n}`, labels: { env: 'production', tier: tierOf(i) } };
    }),
  );
}

function services(list: string[], name = 'services'): string {
  return `${appsetHead(name)}  generators:
${clusterListMatrix({ env: 'production' }, serviceElements(list))}${rollingSyncBy(
    'tier',
    [
      { values: ['canary'], maxUpdate: 1 },
      { values: ['low'], maxUpdate: 2 },
      { values: ['high'], maxUpdate: '25%' },
    ],
    { compact: true },
  )}${flowTemplate(
    "'{{.service}}-{{.name}}'",
    "repoURL: 'https://example.com/deploy.git', path: 'services/{{.service}}', targetRevision: HEAD",
    "server: '{{.server}}', namespace: '{{.service}}'",
    TIER_LABEL,
  )}`;
}

const CMD_PARAMS = cmdParamsCm('true', 'argocd');

/** A git repository with one commit holding `files`; returns its path. */
function makeRepo(name: string, files: Record<string, string>): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  write(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  return dir;
}

const write = writeFiles;

const BASE = {
  'apps/services.yaml': services(['auth', 'billing']),
  'argocd/clusters.yaml': clusters(),
  'argocd/argocd-cmd-params-cm.yaml': CMD_PARAMS,
};

// ---------------------------------------------------------------- appset diff

test('diff: a service added to the matrix → exactly its 12 Applications added, nothing else', () => {
  const dir = makeRepo('diff-add', BASE);
  write(dir, { 'apps/services.yaml': services(['auth', 'billing', 'search']) });
  const statusBefore = git(dir, 'status', '--porcelain');
  const r = run(['diff', '--base', 'main', '--format', 'json'], dir);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.version, 1);
  assert.deepEqual(j.summary, { applicationSets: 1, added: 12, removed: 0, changed: 0, moved: 0, syncAtOnce: 6, deletesResources: 0 });
  const a = j.appsets[0];
  assert.equal(a.name, 'services');
  assert.equal(a.status, 'changed');
  assert.equal(a.unchanged, 24);
  assert.deepEqual(
    a.changes.map((c: { name: string }) => c.name),
    Array.from({ length: 12 }, (_, i) => `search-prod-${String(i).padStart(2, '0')}`),
  );
  assert.ok(a.changes.every((c: { change: string }) => c.change === 'added'));
  // Steps and waves: canary 1 at a time, low 2 at a time, high 25% of its 24 Applications = 6.
  assert.deepEqual(
    a.waves.map((w: { step: number; wave: number; apps: string[] }) => `${w.step}.${w.wave}:${w.apps.length}`),
    ['1.1:1', '2.1:2', '2.2:1', '3.1:6', '3.2:2'],
  );
  assert.equal(git(dir, 'status', '--porcelain'), statusBefore, 'the work tree is not touched');

  const md = run(['diff', '--base', 'main', '--format', 'markdown'], dir);
  assert.equal(md.code, 0);
  assert.match(
    md.out,
    /^<!-- appset-tools:diff -->\n### ApplicationSet changes\n\n\*\*1 ApplicationSet changed against main: Applications 12 added, 0 removed, 0 changed; at most 6 Applications sync at once\.\*\*/,
  );
  assert.match(md.out, /\| `search-prod-00` \| ➕ added \| step 1 · wave 1 \|/);
  assert.match(
    md.out,
    /Sync order: step 1 wave 1 \(1\) → step 2 wave 1 \(2\) → step 2 wave 2 \(1\) → step 3 wave 1 \(6\) → step 3 wave 2 \(2\)/,
  );
  const text = run(['diff', '--base', 'HEAD', 'apps'], dir);
  assert.match(text.out, /^1 ApplicationSet changed against HEAD: Applications 12 added/);
});

test('diff: a cluster relabelled in the same change → its Applications move between steps, read from each revision', () => {
  const dir = makeRepo('diff-relabel', BASE);
  write(dir, { 'argocd/clusters.yaml': clusters((i) => (i === 0 ? 'canary' : i < 5 ? 'low' : 'high')) });
  const r = run(['diff', '--base', 'main', '--format', 'json'], dir);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.equal(j.summary.changed, 2);
  assert.equal(j.summary.moved, 2);
  assert.equal(j.summary.added + j.summary.removed, 0);
  const changes = j.appsets[0].changes;
  assert.deepEqual(
    changes.map(
      (c: { name: string; fromStep: number; step: number; syncs: boolean; fields: { path: string; before: string; after: string }[] }) => [
        c.name,
        c.fromStep,
        c.step,
        c.syncs,
        c.fields,
      ],
    ),
    [
      ['auth-prod-04', 3, 2, false, [{ path: 'metadata.labels.tier', before: 'high', after: 'low' }]],
      ['billing-prod-04', 3, 2, false, [{ path: 'metadata.labels.tier', before: 'high', after: 'low' }]],
    ],
  );
  const text = run(['diff', '--base', 'main'], dir);
  assert.match(
    text.out,
    /~ auth-prod-04: no sync \(metadata only\); moves from step 3 to step 2\n\s+metadata\.labels\.tier: "high" → "low"/,
  );
});

test('diff: the canary cluster relabelled → step 1 selects nothing and the stage disappears; steps before → after', () => {
  const dir = makeRepo('diff-canary-gone', BASE);
  write(dir, { 'argocd/clusters.yaml': clusters((i) => (i < 4 ? 'low' : 'high')) });
  const j = JSON.parse(run(['diff', '--base', 'main', '--format', 'json'], dir).out);
  const a = j.appsets[0];
  assert.deepEqual(a.rollout.emptied, [1]);
  assert.deepEqual(
    a.rollout.base.map((s: { apps: number }) => s.apps),
    [2, 6, 16],
  );
  assert.deepEqual(
    a.rollout.head.map((s: { apps: number }) => s.apps),
    [0, 8, 16],
  );
  const text = run(['diff', '--base', 'main'], dir).out;
  assert.match(
    text,
    /\n {2}rollout: steps \(Applications per step\): 1: 2 \(1 at once\), 2: 6 \(2 at once\), 3: 16 \(4 at once\) → 1: 0, 2: 8 \(2 at once\), 3: 16 \(4 at once\)\n/,
  );
  assert.match(text, /\n {2}rollout: step 1 \(tier In \(canary\)\) now selects no Application: that stage of the rollout disappears\n/);
  const md = run(['diff', '--base', 'main', '--format', 'markdown'], dir).out;
  assert.match(md, /^- Rollout: step 1 .* now selects no Application/m);
  // Nothing syncs (labels only), so rows stay in name order.
  assert.deepEqual(
    a.changes.map((c: { name: string }) => c.name),
    ['auth-prod-00', 'billing-prod-00'],
  );
});

test('diff: ApplicationSets added, deleted and renamed; field-level changes; the strategy switched', () => {
  const other = services(['web'], 'web').replace(/  strategy:[\s\S]*?  template:/, '  template:');
  const dir = makeRepo('diff-appsets', { ...BASE, 'apps/web.yaml': other, 'apps/old.yaml': services(['legacy'], 'legacy') });
  write(dir, {
    'apps/old.yaml': null,
    'apps/new.yaml': services(['fresh'], 'fresh'),
    'apps/services.yaml': services(['auth', 'billing'], 'platform-services').replace(
      "path: 'services/{{.service}}'",
      "path: 'svc/{{.service}}'",
    ),
    'apps/web.yaml': services(['web'], 'web'),
  });
  const r = run(['diff', '--base', 'main', '--format', 'json'], dir);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  const by = new Map(j.appsets.map((a: { name: string }) => [a.name, a]));
  const fresh = by.get('fresh') as { status: string; changes: unknown[] };
  assert.equal(fresh.status, 'added');
  assert.equal(fresh.changes.length, 12);
  const legacy = by.get('legacy') as { status: string; changes: { change: string }[] };
  assert.equal(legacy.status, 'removed');
  assert.ok(legacy.changes.every((c) => c.change === 'removed') && legacy.changes.length === 12);
  const renamed = by.get('platform-services') as {
    status: string;
    renamedFrom: string;
    changes: { fields: { path: string; before: string; after: string }[]; syncs: boolean }[];
  };
  assert.equal(renamed.status, 'renamed');
  assert.equal(renamed.renamedFrom, 'services');
  assert.equal(renamed.changes.length, 24);
  assert.deepEqual(renamed.changes[0].fields, [{ path: 'spec.source.path', before: 'services/auth', after: 'svc/auth' }]);
  assert.ok(renamed.changes.every((c) => c.syncs));
  const web = by.get('web') as { strategy: { base: string; head: string }; status: string };
  assert.deepEqual(web.strategy, { base: 'AllAtOnce', head: 'RollingSync', effective: true, effectiveBase: false });
  const md = run(['diff', '--base', 'main', '--format', 'markdown'], dir).out;
  assert.match(md, /#### `platform-services` \(renamed from `services`\)/);
  assert.match(md, /<details><summary>Field changes<\/summary>/);
  assert.match(md, /- `auth-prod-00`\n  - `spec\.source\.path`: `"services\/auth"` → `"svc\/auth"`/);
});

test('diff: each removed Application says whether it and its resources go, and why; policy.maxDeletes gates it', () => {
  const dir = makeRepo('diff-deletes', BASE);
  // billing leaves the list (24 → 12 Applications) and cluster prod-11 leaves the fleet.
  const eleven = clusters()
    .split('---\n')
    .filter((d) => !d.includes('prod-11'))
    .join('---\n');
  write(dir, { 'apps/services.yaml': services(['auth']), 'argocd/clusters.yaml': eleven });
  const r = run(['diff', '--base', 'main', '--format', 'json'], dir);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  const removed = new Map<string, { deletion: { application: string; resources: string; why: string } }>(
    j.appsets[0].changes.filter((c: { change: string }) => c.change === 'removed').map((c: { name: string }) => [c.name, c]),
  );
  assert.equal(removed.size, 13);
  assert.deepEqual(removed.get('billing-prod-00')!.deletion, {
    application: 'deleted',
    resources: 'deleted',
    why: 'resources-finalizer.argocd.argoproj.io: its resources are deleted with it',
  });
  // The controller takes the resources finalizer off an Application whose cluster is gone.
  for (const n of ['auth-prod-11', 'billing-prod-11'])
    assert.deepEqual(removed.get(n)!.deletion, {
      application: 'deleted',
      resources: 'kept',
      why: 'its destination cluster is no longer registered, so the controller removes the resources finalizer first',
    });
  assert.equal(j.summary.deletesResources, 11);
  const text = run(['diff', '--base', 'main'], dir).out;
  assert.match(
    text,
    /^1 ApplicationSet changed against main: Applications 0 added, 13 removed, 0 changed; 11 removals delete the resources in the cluster;/,
  );
  assert.match(
    text,
    /- billing-prod-00: deleted with its resources \(resources-finalizer\.argocd\.argoproj\.io: its resources are deleted with it\)/,
  );
  assert.match(text, /- auth-prod-11: deleted, its resources stay \(its destination cluster is no longer registered/);

  // The gate: more resource-deleting removals than the repository allows fails the check.
  write(dir, { '.appset-tools.yaml': 'policy:\n  maxDeletes: 5\n' });
  const gated = run(['diff', '--base', 'main'], dir);
  assert.equal(gated.code, 1);
  assert.match(gated.err, /^appset diff: 11 removed Applications would delete their resources, more than policy\.maxDeletes \(5\)/);
  write(dir, { '.appset-tools.yaml': 'policy:\n  maxDeletes: 11\n' });
  assert.equal(run(['diff', '--base', 'main'], dir).code, 0);

  // applicationsSync create-update never deletes; preserveResourcesOnDeletion leaves no finalizer.
  const withPolicy = (p: string) => services(['auth']).replace('  goTemplate: true\n', `  goTemplate: true\n  syncPolicy:\n    ${p}\n`);
  write(dir, { 'apps/services.yaml': withPolicy('applicationsSync: create-update') });
  const kept = JSON.parse(run(['diff', '--base', 'main', '--format', 'json'], dir).out);
  const k = kept.appsets[0].changes.find((c: { name: string }) => c.name === 'billing-prod-00');
  assert.equal(k.deletion.application, 'kept');
  assert.match(k.deletion.why, /^applicationsSync: create-update never deletes Applications/);
  assert.equal(kept.summary.deletesResources, 0);
  // A selector that matches nothing any more: every Application goes, said first.
  write(dir, {
    'apps/services.yaml': services(['auth', 'billing']).replace('env: production', 'env: prodution'),
    'argocd/clusters.yaml': clusters(),
    '.appset-tools.yaml': null,
  });
  const none = run(['diff', '--base', 'main'], dir).out;
  assert.match(
    none,
    /\n {2}!! the generators produce no Application at this revision .*: the controller deletes every Application of this ApplicationSet\n/,
  );
  assert.equal(JSON.parse(run(['diff', '--base', 'main', '--format', 'json'], dir).out).appsets[0].generatesNothing, true);

  // Applications rendered with preserveResourcesOnDeletion carry no resources finalizer: removed, their resources stay.
  const preserve = (list: string[]) =>
    services(list).replace('  goTemplate: true\n', '  goTemplate: true\n  syncPolicy:\n    preserveResourcesOnDeletion: true\n');
  const dir2 = makeRepo('diff-preserve', { ...BASE, 'apps/services.yaml': preserve(['auth', 'billing']) });
  write(dir2, { 'apps/services.yaml': preserve(['auth']) });
  const p = JSON.parse(run(['diff', '--base', 'main', '--format', 'json'], dir2).out);
  assert.equal(p.summary.removed, 12);
  assert.equal(p.summary.deletesResources, 0);
  assert.match(p.appsets[0].changes[0].deletion.why, /^no resources finalizer/);
});

test('diff: bad usage, unknown revision and no git repository exit 2', () => {
  const dir = makeRepo('diff-usage', BASE);
  assert.equal(run(['diff'], dir).code, 2);
  const unknown = run(['diff', '--base', 'no-such-branch'], dir);
  assert.equal(unknown.code, 2);
  assert.match(unknown.err, /unknown revision "no-such-branch"/);
  assert.equal(run(['diff', '--base', '--upload-pack=x'], dir).code, 2);
  const plain = path.join(work, 'not-git');
  fs.mkdirSync(plain, { recursive: true });
  const ng = run(['diff', '--base', 'main'], plain);
  assert.equal(ng.code, 2);
  assert.match(ng.err, /not inside a git work tree/);
  assert.equal(run(['diff', '--base', 'main', '--format', 'xml'], dir).code, 2);
});

// ---------------------------------------------------------------- appset lint formats

const BROKEN_SERVICES = services(['auth'])
  .replace(
    '  goTemplate: true',
    '  goTemplate: true\n  owner: platform # appset-tools: ignore appset/unknown-field -- fixed in the next release',
  )
  .replace('        maxUpdate: 1', '        maxUpdates: 1');

function lintRepo(): string {
  return makeRepo(`lint-${Math.random().toString(36).slice(2)}`, {
    ...BASE,
    'apps/services.yaml': BROKEN_SERVICES,
    'apps/broken.yaml': 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: x\nspec: [\n',
    '.appset-tools.yaml': 'policy:\n  maxSyncAtOnce: 1\n',
  });
}

test('lint --format sarif: valid SARIF 2.1.0, one result per finding, rules with README help, fingerprints, suppressions', () => {
  const dir = lintRepo();
  const r = run(['lint', '.', '--format', 'sarif'], dir);
  assert.equal(r.code, 1, r.err);
  const sarif = JSON.parse(r.out) as { runs: any[] };
  const schema = JSON.parse(fs.readFileSync(path.join(repo, 'test/fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8'));
  const ajv = new Ajv04({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  assert.ok(validate(sarif), JSON.stringify(validate.errors?.slice(0, 5), null, 2));

  const json = JSON.parse(run(['lint', '.', '--format', 'json'], dir).out);
  const findings = json.files.flatMap((f: { diagnostics: unknown[] }) => f.diagnostics);
  const run0 = sarif.runs[0];
  assert.equal(run0.results.length, findings.length, 'one result per finding');
  const readme = fs.readFileSync(path.join(repo, 'docs', 'codes.md'), 'utf8');
  for (const rule of run0.tool.driver.rules) {
    const anchor = rule.helpUri.split('#')[1];
    assert.ok(readme.includes(`<a id="${anchor}"></a>\`${rule.id}\``), `README anchor for ${rule.id}`);
    assert.ok(rule.help.text && rule.shortDescription.text);
  }
  for (const res of run0.results) {
    assert.equal(run0.tool.driver.rules[res.ruleIndex].id, res.ruleId);
    assert.match(res.partialFingerprints['appsetToolsFinding/v1'], /^[0-9a-f]{16}$/);
  }
  // The exact region of the misspelt maxUpdate key (UTF-16 columns, end exclusive).
  const text = fs.readFileSync(path.join(dir, 'apps/services.yaml'), 'utf8').split('\n');
  const mu = run0.results.find(
    (x: { ruleId: string; message: { text: string } }) => x.ruleId === 'appset/unknown-field' && /maxUpdates/.test(x.message.text),
  );
  const region = mu.locations[0].physicalLocation.region;
  assert.equal(mu.locations[0].physicalLocation.artifactLocation.uri, 'apps/services.yaml');
  assert.equal(text[region.startLine - 1].slice(region.startColumn - 1, region.endColumn - 1), 'maxUpdates');
  // The suppressed finding is there, marked, with its justification; it is not counted.
  const sup = run0.results.filter((x: { suppressions?: unknown[] }) => x.suppressions);
  assert.equal(sup.length, 1);
  assert.deepEqual(sup[0].suppressions, [{ kind: 'inSource', status: 'accepted', justification: 'fixed in the next release' }]);
  assert.equal(json.summary.suppressed, 1);
  // The broken file is reported (yaml/syntax) and the other files were still checked.
  assert.ok(
    run0.results.some(
      (x: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
        x.ruleId === 'yaml/syntax' && x.locations[0].physicalLocation.artifactLocation.uri === 'apps/broken.yaml',
    ),
  );
  assert.ok(run0.results.some((x: { ruleId: string }) => x.ruleId === 'policy/max-sync-at-once'));
});

test('lint --format json: the versioned shape with fingerprints, ApplicationSet and suppression', () => {
  const dir = lintRepo();
  const j = JSON.parse(run(['lint', 'apps/services.yaml', '--format', 'json'], dir).out);
  assert.equal(j.version, 1);
  assert.deepEqual(j.tool, { name: 'appset-tools', version: '0.1.0' });
  const d = j.files[0].diagnostics.find((x: { code: string; suppressed?: unknown }) => x.code === 'appset/unknown-field' && !x.suppressed);
  assert.deepEqual(Object.keys(d).sort(), [
    'applicationSet',
    'code',
    'col',
    'endCol',
    'endLine',
    'fingerprint',
    'line',
    'message',
    'path',
    'severity',
  ]);
  assert.equal(d.applicationSet, 'services');
  assert.equal(j.summary.failOn, 'error');
  assert.equal(j.summary.failed, true);
  // Fingerprints do not change when lines are inserted above.
  const again = JSON.parse(
    run(
      ['lint', 'apps/services.yaml', '--format', 'json'],
      (write(dir, { 'apps/services.yaml': '# a comment\n\n' + BROKEN_SERVICES }), dir),
    ).out,
  );
  const d2 = again.files[0].diagnostics.find(
    (x: { code: string; suppressed?: unknown }) => x.code === 'appset/unknown-field' && !x.suppressed,
  );
  assert.equal(d2.line, d.line + 2);
  assert.equal(d2.fingerprint, d.fingerprint);
});

test('lint --fail-on: exit 0 clean, 1 at or above the level, 2 for unreadable inputs while the rest is still reported', () => {
  const dir = makeRepo('failon', {
    ...BASE,
    'apps/services.yaml': services(['auth']).replace('        maxUpdate: 2', '        maxUpdate: "2"'),
  });
  const errs = run(['lint', 'apps'], dir);
  assert.equal(errs.code, 0, errs.out);
  assert.match(errs.out, /warning appset\/max-update/);
  assert.equal(run(['lint', 'apps', '--fail-on', 'warning'], dir).code, 1);
  assert.equal(run(['lint', 'apps', '--fail-on', 'information'], dir).code, 1);
  assert.equal(run(['lint', 'apps', '--fail-on', 'warning', '--no-fail'], dir).code, 0);
  assert.equal(run(['lint', 'apps', '--fail-on', 'hint'], dir).code, 2);
  const missing = run(['lint', 'apps', 'nope.yaml', '--format', 'json'], dir);
  assert.equal(missing.code, 2);
  const j = JSON.parse(missing.out);
  assert.equal(j.files.length, 1, 'apps/ was still checked');
  assert.deepEqual(j.problems, [{ path: 'nope.yaml', message: 'nope.yaml: no such file or folder' }]);
  assert.match(missing.err, /nope\.yaml: no such file or folder/);
});

test('lint --format github: workflow-command annotations with escaped properties; markdown; codequality', () => {
  const dir = lintRepo();
  const gh = run(['lint', 'apps', '--format', 'github'], dir);
  assert.equal(gh.code, 1);
  const lines = gh.out.trim().split('\n');
  assert.match(
    lines.find((l) => l.includes('maxUpdates'))!,
    /^::error file=apps\/services\.yaml,line=\d+,endLine=\d+,col=9,endColumn=19,title=appset\/unknown-field::unknown field "maxUpdates"/,
  );
  assert.ok(!lines.some((l) => l.includes('"owner"')), 'suppressed findings are not annotated');
  assert.match(lines.at(-1)!, /^2 ApplicationSets in 2 files: \d+ errors?/);
  const md = run(['lint', 'apps', '--format', 'markdown'], dir).out;
  assert.match(md, /^### ❌ appset lint: 2 ApplicationSets in 2 files/);
  assert.match(
    md,
    /\| \d+ \| ❌ error \| \[`appset\/unknown-field`\]\(https:\/\/[^)]+docs\/codes\.md#code-appset-unknown-field\) \| unknown field "maxUpdates"/,
  );
  assert.match(md, /<details><summary>1 suppressed<\/summary>/);
  const cq = JSON.parse(run(['lint', 'apps', '--format', 'codequality'], dir).out);
  assert.ok(cq.length > 2);
  assert.deepEqual(Object.keys(cq[0]).sort(), ['check_name', 'description', 'fingerprint', 'location', 'severity']);
  // Several outputs from one run (what the GitHub Action and the GitLab job do).
  const r = run(['lint', 'apps', '--format', 'github', '--sarif', 'out.sarif', '--markdown', 'out.md'], dir);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, 'out.sarif'), 'utf8')).version, '2.1.0');
  assert.match(fs.readFileSync(path.join(dir, 'out.md'), 'utf8'), /^### ❌ appset lint/);
});

test('lint: problems in .appset-tools.yaml are reported once, located in it', () => {
  const dir = makeRepo('badcfg', { ...BASE, '.appset-tools.yaml': 'severity:\n  rollout/blast-radius: quiet\n' });
  const r = run(['lint', 'apps', 'argocd'], dir);
  assert.equal(r.code, 1);
  assert.match(r.out, /^\.appset-tools\.yaml:2:25 error config\/invalid severity: the severity of rollout\/blast-radius must be one of/m);
});
