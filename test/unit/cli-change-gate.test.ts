// The change gate in CI (issue 41): `appset diff` judges the change with the engine the editor's
// "This change" lens uses, and exits 1 when it makes more Applications (policy.maxChangeAtOnce) or
// clusters (policy.maxChangeClustersAtOnce) sync at the same time than the repository allows. The
// bundled CLI as a process, on a git repository this test creates.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, git, runCli, writeFiles } from '../helpers/cli';
import { cmdParamsCm } from '../helpers/clusters';
import { SERVICES, storyAppSet, storyRollout, storySecrets } from '../helpers/story';

let cli = '';
let work = '';
before(() => {
  ({ cli, work } = bundleCli('cli-change-gate-'));
});
const run = (args: string[], cwd: string) => runCli(cli, args, { cwd, timeout: 120_000 });

const STEPS = [{ values: ['canary'] }, { values: ['low-traffic'], maxUpdate: 2 }, { values: ['high-traffic'], maxUpdate: 3 }];
const TWO = SERVICES.slice(0, 2);

function repo(name: string, files: Record<string, string>): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  writeFiles(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  return dir;
}

test('diff: the change gate fails a change that syncs too much at once, and passes once it rolls out in small waves', () => {
  const dir = repo('gate', {
    'apps/services.yaml': storyAppSet('go', TWO),
    'clusters/secrets.yaml': storySecrets(),
    'argocd/argocd-cmd-params-cm.yaml': cmdParamsCm('false'),
    '.appset-tools.yaml': 'policy:\n  maxChangeAtOnce: 5\n  maxChangeClustersAtOnce: 3\n',
  });
  // No change: the gate has nothing to judge.
  assert.equal(run(['diff', '--base', 'main'], dir).code, 0);

  // The shared revision bumped with no strategy: 24 Applications on 12 clusters at once.
  writeFiles(dir, { 'apps/services.yaml': storyAppSet('go', TWO).replace('targetRevision: HEAD', 'targetRevision: v2') });
  let r = run(['diff', '--base', 'main'], dir);
  assert.equal(r.code, 1, r.err + r.out);
  assert.match(
    r.err,
    /^appset diff: apps\/services\.yaml: ApplicationSet services: This change syncs 24 Applications on 12 clusters at the same time because the ApplicationSet has no RollingSync strategy, more than policy\.maxChangeAtOnce \(5\) and policy\.maxChangeClustersAtOnce \(3\) allows in \.appset-tools\.yaml \(policy\/change-at-once\)$/m,
  );

  // A RollingSync the controller ignores (progressive syncs disabled) changes nothing.
  const rolling = storyRollout(STEPS, {}, TWO).replace('targetRevision: HEAD', 'targetRevision: v2');
  writeFiles(dir, { 'apps/services.yaml': rolling });
  r = run(['diff', '--base', 'main'], dir);
  assert.equal(r.code, 1);
  assert.match(r.err, /because the RollingSync strategy is ignored \(progressive syncs are not enabled\)/);

  // Enabled: the largest wave is 3 Applications (the high-traffic step's maxUpdate: prod-06's two and one of prod-07's).
  writeFiles(dir, { 'argocd/argocd-cmd-params-cm.yaml': cmdParamsCm('true') });
  r = run(['diff', '--base', 'main'], dir);
  assert.equal(r.code, 0, r.err);
  // A tighter cluster limit fails the same change.
  writeFiles(dir, { '.appset-tools.yaml': 'policy:\n  maxChangeClustersAtOnce: 1\n' });
  r = run(['diff', '--base', 'main'], dir);
  assert.equal(r.code, 1);
  assert.match(
    r.err,
    /This change syncs up to 3 Applications on up to 2 clusters at the same time in its waves, more than policy\.maxChangeClustersAtOnce \(1\) allows/,
  );
});

test('diff: an ApplicationSet whose YAML does not parse has no known comparison: said, exit 3 (the gate fails closed)', () => {
  const dir = repo('broken', {
    'apps/services.yaml': storyAppSet('go', TWO),
    'clusters/secrets.yaml': storySecrets(),
    '.appset-tools.yaml': 'policy:\n  maxChangeAtOnce: 100\n',
  });
  writeFiles(dir, { 'apps/services.yaml': storyAppSet('go', TWO).replace('- service: svc-02', '- service: [svc-02') });
  const r = run(['diff', '--base', 'main'], dir);
  assert.equal(r.code, 3, r.err);
  assert.match(
    r.err,
    /^appset diff: apps\/services\.yaml: ApplicationSet services: the YAML does not parse at the work tree \(line \d+: [^)]*\): its comparison is NOT KNOWN; exit status 3$/m,
  );
});
