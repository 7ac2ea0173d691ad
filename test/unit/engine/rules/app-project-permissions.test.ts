// Issue 30: every generated Application against what its AppProject permits (sourceRepos with `!`
// denials, destinations by name or server and namespace, project-scoped clusters), as argo-cd
// `app_project_types.go` decides it; fixture written for this test under test/fixtures/real-world/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundledCli, posix, REAL_WORLD, serviceOver } from '../../../helpers/realworld';
import { gobwasMatch } from '../../../../server/src/engine/rules/gobwasGlob';
import { globWork } from '../../../../server/src/engine/rules/globMachine';
import { isSourcePermitted, normalizeGitURL } from '../../../../server/src/engine/rules/appProject';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../../../helpers/memHost';
import { flowClusterSecret } from '../../../helpers/clusters';
import { tempFolder } from '../../../helpers/cli';

const cli = bundledCli('proj-perm-');
const root = posix(path.join(REAL_WORLD, 'project-permissions'));

function findings() {
  const ls = serviceOver(root);
  const p = `${root}/appsets.yaml`;
  const text = fs.readFileSync(p, 'utf8');
  const a = ls.analyze(p, text, p);
  return { text, ds: ls.diagnostics(a).filter((d) => d.code === 'appset/project-denies') };
}

test('a repository the project denies, or an SSH URL where it lists HTTPS ones: one finding on the repoURL with the Application', () => {
  const { text, ds } = findings();
  const repo = ds.filter((d) => text.slice(d.span.start, d.span.end) === "'{{ .repo }}'");
  assert.equal(repo.length, 2, JSON.stringify(ds.map((d) => d.message)));
  const [denied, ssh] = repo;
  assert.match(
    denied.message,
    /^this Application is created but never syncs: application repo https:\/\/github.com\/example-org\/team-a-secrets.git is not permitted in project 'team-a' — in 1 of 7 Applications \(team-a-vault-prod-eu\)$/,
  );
  assert.equal(denied.severity, 'error');
  assert.equal(denied.related?.[0].message, 'AppProject "team-a"');
  assert.match(denied.related?.[0].location.file ?? '', /projects\/team-a\.yaml$/);
  assert.match(ssh.message, /application repo git@github.com:example-org\/team-b-app.git is not permitted in project 'team-b'/);
  // The deny entry permits every repository it does not deny, shared-tools included (Argo CD's rule).
  assert.ok(!ds.some((d) => d.message.includes('shared-tools')));
});

test('a destination no entry allows: one finding per destination and project, naming each denied cluster and namespace', () => {
  const { ds } = findings();
  const messages = ds.map((d) => d.message).filter((m) => m.includes('allowed destinations'));
  assert.equal(messages.length, 2, messages.join('\n'));
  const [team, scoped] = messages;
  assert.match(
    team,
    /^these 2 Applications are created but never sync: application destination server 'prod-eu' and namespace 'monitoring', server 'staging' and namespace 'team-a-web' do not match any of the allowed destinations in project 'team-a' — in 2 of 7 Applications \(team-a-monitoring-prod-eu, team-a-stage-staging\)$/,
  );
  // permitOnlyProjectScopedClusters: only prod-eu's Secret names the project "scoped"; the in-cluster one names none.
  assert.match(
    scoped,
    /server 'https:\/\/staging.example.com' and namespace 'apps', server 'https:\/\/kubernetes.default.svc' and namespace 'apps' .* project 'scoped'/,
  );
  assert.doesNotMatch(scoped, /prod-eu/);
  for (const ok of ['team-a-web-prod-eu', 'team-a-api-in-cluster', 'scoped-prod-eu'])
    assert.ok(!ds.some((d) => d.message.includes(ok)), ok);
});

test('appset lint in a repository of its own: each an error with the AppProject as its first related place, exit 1', () => {
  const dir = tempFolder('proj-perm-repo-');
  fs.cpSync(root, dir, { recursive: true });
  fs.mkdirSync(path.join(dir, '.git'));
  const r = cli.run(['lint', 'appsets.yaml'], dir);
  fs.rmSync(dir, { recursive: true, force: true });
  assert.equal(r.code, 1, r.out + r.err);
  assert.equal((r.out.match(/ error appset\/project-denies /g) ?? []).length, 4, r.out);
  assert.match(r.out, /^ {2}projects\/team-a\.yaml:\d+:1 from: AppProject "team-a"$/m);
});

test("Argo CD's URL normalisation and gobwas globs: case, .git, SSH form, `*` stops at `/`, `**` does not", () => {
  assert.equal(normalizeGitURL('git@GitHub.com:Org/Repo.git'), 'git@github.com/org/repo');
  assert.equal(normalizeGitURL('https://github.com/org/repo.git '), 'https://github.com/org/repo');
  assert.equal(normalizeGitURL('https://example.com/a%20b'), undefined, 'escapes are left to Go');
  const rules = {
    sourceRepos: ['https://github.com/org/*'],
    destinations: [],
    permitOnlyProjectScopedClusters: false,
    sourceNamespaces: [],
  };
  assert.equal(isSourcePermitted(rules, 'https://github.com/org/app'), true);
  assert.equal(isSourcePermitted(rules, 'https://github.com/org/group/app'), false);
  assert.equal(isSourcePermitted({ ...rules, sourceRepos: ['https://github.com/org/**'] }, 'https://github.com/org/group/app'), true);
  // A deny pattern that does not match counts as a match (argo-cd globMatch with negation).
  assert.equal(isSourcePermitted({ ...rules, sourceRepos: ['!https://github.com/org/secret'] }, 'https://github.com/x/y'), true);
  assert.equal(gobwasMatch('{prod,staging}-*', 'staging-eu'), true);
  assert.equal(gobwasMatch('[!a-c]x', 'dx'), true);
  assert.equal(gobwasMatch('[a-', 'a'), false, 'a pattern that does not compile matches nothing');
});

test('glob matching is linear: a backtracking pattern against a long name costs pattern × name steps', () => {
  const cost = (n: number) => {
    globWork.steps = 0;
    assert.equal(gobwasMatch('*a*a*a*a*a*a*b', 'a'.repeat(n)), false);
    return globWork.steps;
  };
  const small = cost(1000);
  const large = cost(2000);
  assert.ok(large <= small * 2.2, `doubling the name took ${large} steps against ${small}`);
  assert.ok(small < 1000 * 14 * 4, `${small} steps for 1,000 characters and a 14-character pattern`);
});

test('one list of the registered clusters: a Secret that declares the in-cluster server under its own name replaces "in-cluster"', () => {
  // argo-cd util/db/cluster.go GetClusterServersByName: the name in-cluster means the local cluster
  // only while no Secret declares its server; ListClusters adds the local cluster on the same condition.
  const appset = (dest: string) =>
    `apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: local}\nspec:\n  goTemplate: true\n  generators:\n  - list: {elements: [{x: a}]}\n  template:\n    metadata: {name: 'app-{{.x}}'}\n    spec:\n      project: default\n      source: {repoURL: 'https://github.com/example/repo.git', path: apps}\n      destination: {name: ${dest}, namespace: apps}\n`;
  const invalid = (secretName: string, dest: string) => {
    const files = new Map([
      ['/ws/clusters/local.yaml', flowClusterSecret({ name: secretName, server: 'https://kubernetes.default.svc' })],
      ['/ws/clusters/prod.yaml', flowClusterSecret({ name: 'prod' })],
      ['/ws/appset.yaml', appset(dest)],
    ]);
    const ls = getLanguageService({ host: memHost(files) });
    const a = ls.analyze('file:///ws/appset.yaml', files.get('/ws/appset.yaml')!, '/ws/appset.yaml');
    return ls
      .diagnostics(a)
      .filter((d) => d.code === 'generator/invalid-application')
      .map((d) => d.message);
  };
  assert.deepEqual(invalid('in-cluster', 'in-cluster'), []);
  assert.deepEqual(invalid('local', 'local'), []);
  assert.deepEqual(invalid('local', 'prod'), []);
  const renamed = invalid('local', 'in-cluster');
  assert.equal(renamed.length, 1);
  assert.match(renamed[0], /there are no clusters with this name: in-cluster/);
});
