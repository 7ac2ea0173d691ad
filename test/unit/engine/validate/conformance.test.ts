// No false alarms: Argo CD's own example ApplicationSets (v3.5.1, read from ../shared) and the
// complete examples of its documentation (test/fixtures/docs-examples) validate without an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateText } from './helpers';

const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');
const examplesDir = path.resolve(repoRoot, '..', 'shared', 'argocd-data', 'applicationset-examples-v3.5.1');

function yamlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...yamlFiles(p));
    else if (/\.ya?ml$/.test(e.name)) out.push(p);
  }
  return out.sort();
}

/**
 * v3.5.1 examples that are wrong, with the errors a cluster would give; every other example must be clean.
 * - design-doc/*: written for the original design, before `project` and git `revision` became required
 *   in the CRD: the API server rejects them ("Required value").
 * - matrix-and-union-in-matrix*: `union` is not a generator (the API server prunes it, the matrix child
 *   is empty and the matrix fails); Argo CD fixed these files after v3.5.1 (commit 14273f55c4, #26751:
 *   "docs: fix nested matrix generator examples", `union` → `merge`).
 * - design-doc/proposal/filters.yaml: a proposal that was never implemented (`filters` does not exist).
 */
const KNOWN_WRONG: Record<string, string[]> = {
  'design-doc/applicationset.yaml': ['appset/missing-field'],
  'design-doc/applicationset-fasttemplate.yaml': ['appset/missing-field'],
  'design-doc/git-directory-discovery.yaml': ['appset/missing-field', 'appset/missing-field'],
  'design-doc/git-directory-discovery-fasttemplate.yaml': ['appset/missing-field', 'appset/missing-field'],
  'design-doc/git-files-discovery.yaml': ['appset/missing-field', 'appset/missing-field'],
  'design-doc/git-files-discovery-fasttemplate.yaml': ['appset/missing-field', 'appset/missing-field'],
  'design-doc/git-files-literal.yaml': ['appset/missing-field', 'appset/missing-field'],
  'design-doc/git-files-literal-fasttemplate.yaml': ['appset/missing-field', 'appset/missing-field'],
  'matrix/matrix-and-union-in-matrix.yaml': ['appset/child-generator-kinds', 'appset/unknown-field'],
  'matrix/matrix-and-union-in-matrix-fasttemplate.yaml': ['appset/child-generator-kinds', 'appset/unknown-field'],
};

test('Argo CD v3.5.1 example ApplicationSets: no errors (except the documented wrong ones)', (t) => {
  if (!fs.existsSync(examplesDir)) return t.skip(`${examplesDir} is not available`);
  let appsets = 0;
  for (const file of yamlFiles(examplesDir)) {
    const rel = path.relative(examplesDir, file).split(path.sep).join('/');
    if (rel === 'design-doc/proposal/filters.yaml') continue;
    const text = fs.readFileSync(file, 'utf8');
    if (!/kind:\s*ApplicationSet/.test(text)) continue;
    appsets++;
    const errors = validateText(text).filter((d) => d.severity === 'error');
    const expected = KNOWN_WRONG[rel] ?? [];
    assert.deepEqual(errors.map((d) => d.code).sort(), expected, `${rel}:\n${errors.map((d) => `  ${d.code} ${d.message}`).join('\n')}`);
  }
  assert.ok(appsets >= 40, `only ${appsets} ApplicationSets found`);
});

test('the wrong examples are wrong for the stated reasons', (t) => {
  if (!fs.existsSync(examplesDir)) return t.skip(`${examplesDir} is not available`);
  const dd = validateText(fs.readFileSync(path.join(examplesDir, 'design-doc/git-files-literal.yaml'), 'utf8'));
  assert.deepEqual(dd.map((d) => d.message).sort(), [
    'missing required field "project" in spec.template.spec',
    'missing required field "revision" in the git generator',
  ]);
  const union = validateText(fs.readFileSync(path.join(examplesDir, 'matrix/matrix-and-union-in-matrix.yaml'), 'utf8'));
  assert.ok(union.some((d) => d.code === 'appset/unknown-field' && d.text === 'union'));
  const filters = validateText(fs.readFileSync(path.join(examplesDir, 'design-doc/proposal/filters.yaml'), 'utf8'));
  assert.equal(filters.filter((d) => d.code === 'appset/unknown-field' && d.text === 'filters').length, 2);
});

test('Argo CD documentation examples (test/fixtures/docs-examples): no errors, no warnings', () => {
  const dir = path.join(repoRoot, 'test', 'fixtures', 'docs-examples');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.yaml'));
  assert.ok(files.length >= 25);
  for (const f of files) {
    const ds = validateText(fs.readFileSync(path.join(dir, f), 'utf8')).filter((d) => d.severity === 'error' || d.severity === 'warning');
    assert.deepEqual(
      ds.map((d) => `${d.code} ${d.message}`),
      [],
      f,
    );
  }
});

test('the wrong documentation example is reported precisely', () => {
  const text = fs.readFileSync(
    path.join(repoRoot, 'test', 'fixtures', 'docs-examples', 'known-wrong', 'Appset-Any-Namespace-02.yaml'),
    'utf8',
  );
  const ds = validateText(text);
  assert.deepEqual(
    ds.map((d) => d.message),
    ['spec.generators: expected a list of objects, got an object', 'missing required field "destination" in spec.template.spec'],
  );
});

test('the bundled examples: clean ones have no findings, the broken one shows its codes', () => {
  const ex = path.join(repoRoot, 'examples');
  for (const f of ['guestbook.yaml', 'team-rollout/applicationset.yaml']) {
    assert.deepEqual(
      validateText(fs.readFileSync(path.join(ex, f), 'utf8')).map((d) => d.message),
      [],
      f,
    );
  }
  const broken = fs.readFileSync(path.join(ex, 'broken', 'mistakes.yaml'), 'utf8');
  const found = new Set<string>(validateText(broken).map((d) => d.code));
  // Every code named in a comment of the file is produced.
  for (const m of broken.matchAll(/# (appset\/[a-z-]+)/g)) assert.ok(found.has(m[1]), m[1]);
});
