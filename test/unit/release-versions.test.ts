// A release names one version everywhere a user copies it from (scripts/release/versions.mjs): the
// changelog's newest entry, the package-lock and every install snippet (npm specs, Action refs, GitLab
// include URLs, pre-commit revs) agree with package.json. `npm run release:check` runs the same check
// before the builds; docs/development.md "Releasing" is the checklist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from '../helpers/cli';

const load = () => import('../../scripts/release/versions.mjs');
const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));

test('the versions the templates and docs name agree with package.json and the changelog', async () => {
  const { versionProblems, versionReferences } = await load();
  assert.deepEqual(versionProblems(repoRoot), []);
  const kinds = new Set(versionReferences(repoRoot).map((r) => r.kind));
  assert.deepEqual([...kinds].sort(), ['Action ref', 'GitLab include', 'npm spec', 'pre-commit rev']);
});

test('a version bumped in package.json alone is reported at every place that still names the old one', async () => {
  const { versionProblems, versionReferences } = await load();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-versions-'));
  try {
    const files = ['package.json', 'CHANGELOG.md', 'README.md', 'action.yml', '.pre-commit-hooks.yaml', 'ci/appset-tools.gitlab-ci.yml'];
    for (const f of [...files, ...fs.readdirSync(path.join(repoRoot, 'docs')).map((f) => `docs/${f}`)]) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.copyFileSync(path.join(repoRoot, f), path.join(dir, f));
    }
    const next = '9.8.7';
    const bump = (f: string, from: string, to: string) =>
      fs.writeFileSync(path.join(dir, f), fs.readFileSync(path.join(dir, f), 'utf8').split(from).join(to));
    bump('package.json', `"version": "${pkg.version}"`, `"version": "${next}"`);
    const stale = versionReferences(dir);
    const problems = versionProblems(dir);
    assert.ok(
      problems.some((p) => p.startsWith(`CHANGELOG.md: the newest entry is ${pkg.version}`)),
      problems.join('\n'),
    );
    for (const r of stale) assert.ok(problems.includes(`${r.file}:${r.line}: ${r.kind} names ${pkg.version}, package.json says ${next}`));
    assert.equal(problems.length, stale.length + 1);
    // The release's edits: a changelog entry and every snippet moved on.
    bump('CHANGELOG.md', `## ${pkg.version}`, `## ${next}\n\n- …\n\n## ${pkg.version}`);
    for (const f of new Set(stale.map((r) => r.file))) bump(f, pkg.version, next);
    assert.deepEqual(versionProblems(dir), []);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
