// Issue 30: ApplicationSets in any namespace. An Application outside Argo CD's namespace may use only a
// project whose sourceNamespaces lists its namespace (argo-cd app_project_types.go
// IsAppNamespacePermitted, refused by controller/appcontroller.go getAppProj); a project that cannot be
// read offline is said to be "not checked". Fixture written for this test under test/fixtures/real-world/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundledCli, posix, REAL_WORLD } from '../../../helpers/realworld';
import { isAppNamespacePermitted } from '../../../../server/src/engine/rules/appProject';
import { tempFolder } from '../../../helpers/cli';

const cli = bundledCli('proj-ns-');
const fixture = posix(path.join(REAL_WORLD, 'apps-in-any-namespace'));

/** The fixture as a repository of its own (a `.git` folder makes it the workspace), with `change` applied. */
function repo(change: (dir: string) => void = () => {}): string {
  const dir = tempFolder('proj-ns-repo-');
  fs.cpSync(fixture, dir, { recursive: true });
  fs.mkdirSync(path.join(dir, '.git'));
  change(dir);
  return dir;
}

function lint(dir: string, args: string[] = []) {
  const r = cli.run(['lint', 'teams', ...args], dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return r;
}

test('a project that does not list the ApplicationSet namespace in sourceNamespaces: one error on the project, naming its Applications', () => {
  const r = lint(repo());
  assert.equal(r.code, 1, r.out + r.err);
  const denies = r.out.split('\n').filter((l) => l.includes('appset/project-denies'));
  assert.deepEqual(denies, [
    "teams/team-a.yaml:22:16 error appset/project-denies these 2 Applications are created but never sync: Argo CD marks 'team-a-ingress', 'team-a-dns' in namespace 'team-a' with the condition \"… is not permitted to use project 'platform'\": the project's sourceNamespaces does not list team-a, and Argo CD runs in argocd — in 2 of 5 Applications (team-a-ingress, team-a-dns)",
  ]);
  assert.match(r.out, /^ {2}projects\/projects\.yaml:12:1 from: AppProject "platform"$/m);
  // team-a lists team-a; shared lists team-* (a glob); platform from Argo CD's own namespace is always allowed.
  assert.doesNotMatch(r.out, /team-a-web|team-a-docs|platform-ingress/);
});

test('a project defined once per environment is said to be not checked, with its Application', () => {
  const r = lint(repo());
  assert.match(
    r.out,
    /^teams\/team-a\.yaml:60:16 information appset\/project-not-checked not checked: whether project team-b permits this Application's source repositories, destinations and namespace — AppProject "team-b" is defined in more than one place or with a field that is not literal — for team-b-web \(from list element 1\)$/m,
  );
});

test('no AppProject in the repository: every non-default project is said to be not checked, nothing is denied', () => {
  const r = lint(repo((dir) => fs.rmSync(path.join(dir, 'projects'), { recursive: true })));
  assert.equal(r.code, 0, r.out + r.err);
  const heads = r.out.split('\n').filter((l) => / (error|warning|information) /.test(l));
  assert.deepEqual(heads, [
    'teams/team-a.yaml:22:16 information appset/project-not-checked not checked: whether projects team-a, platform, shared permit these 5 Applications\' source repositories, destinations and namespace — AppProjects "team-a", "platform", "shared" are not in the repository (no AppProject in the workspace) — in 5 of 5 Applications (team-a-web, team-a-api, team-a-ingress, …)',
    'teams/team-a.yaml:41:16 information appset/project-not-checked not checked: whether project platform permits these 2 Applications\' source repositories, destinations and namespace — AppProject "platform" is not in the repository (no AppProject in the workspace) — in 2 of 2 Applications (platform-ingress, platform-dns)',
    'teams/team-a.yaml:60:16 information appset/project-not-checked not checked: whether project team-b permits this Application\'s source repositories, destinations and namespace — AppProject "team-b" is not in the repository (no AppProject in the workspace) — for team-b-web (from list element 1)',
  ]);
});

test("Argo CD's namespace unknown (no install in the repository): sourceNamespaces is not judged", () => {
  const r = lint(repo((dir) => fs.rmSync(path.join(dir, 'argocd'), { recursive: true })));
  assert.doesNotMatch(r.out, /appset\/project-denies/);
});

test('IsAppNamespacePermitted: Argo CD namespace always, globs, and a regular expression left unknown', () => {
  const rules = {
    sourceRepos: [],
    destinations: [],
    permitOnlyProjectScopedClusters: false,
    sourceNamespaces: ['team-*', '/^ops-[0-9]+$/'],
  };
  assert.equal(isAppNamespacePermitted(rules, 'argocd', 'argocd'), true);
  assert.equal(isAppNamespacePermitted(rules, '', 'argocd'), true);
  assert.equal(isAppNamespacePermitted(rules, 'team-x', 'argocd'), true);
  assert.equal(isAppNamespacePermitted(rules, 'ops-1', 'argocd'), undefined);
  assert.equal(isAppNamespacePermitted({ ...rules, sourceNamespaces: ['team-*'] }, 'ops-1', 'argocd'), false);
});
