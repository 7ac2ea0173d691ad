import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../server/src/cli/main';
import type { CliIO } from '../../server/src/cli/io';
import { appsetHead, DOC_EXAMPLE_STEPS, rollingSyncBy } from '../helpers/appsets';
import { tempFolder } from '../helpers/cli';

function io(cwd: string) {
  let out = '';
  let err = '';
  const x: CliIO & { out_: () => string; err_: () => string } = {
    out: (s) => void (out += s),
    err: (s) => void (err += s),
    readStdin: async () => '',
    stdinLines: async function* () {},
    cwd,
    out_: () => out,
    err_: () => err,
  };
  return x;
}

function tempWorkspace(files: Record<string, string>): string {
  const dir = tempFolder('appset-plan-');
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return fs.realpathSync(dir);
}

// The Progressive-Syncs.md example (dev, qa with maxUpdate 0, prod with 10%), as our own list.
const EXAMPLE = `${appsetHead('guestbook', { namespace: null, options: '["missingkey=error"]' })}  generators:
    - list:
        elements:
          - {cluster: engineering-dev, url: "https://1.2.3.4", env: env-dev}
          - {cluster: engineering-qa, url: "https://2.4.6.8", env: env-qa}
          - {cluster: engineering-prod, url: "https://9.8.7.6/", env: env-prod}
${rollingSyncBy('envLabel', DOC_EXAMPLE_STEPS)}  template:
    metadata:
      name: '{{.cluster}}-guestbook'
      labels:
        envLabel: '{{.env}}'
    spec:
      project: my-project
      source:
        repoURL: https://github.com/infra-team/cluster-deployments.git
        targetRevision: HEAD
        path: guestbook/{{.cluster}}
      destination:
        server: '{{.url}}'
        namespace: guestbook
`;

test('appset plan: bad usage and missing input exit 2, no ApplicationSet 4, a document not checked 3', async () => {
  const deep = EXAMPLE.replace('        namespace: guestbook', '        namespace: guestbook\n  x: ' + '['.repeat(120) + ']'.repeat(120));
  const dir = tempWorkspace({ 'cm.yaml': 'kind: ConfigMap\n', 'deep.yaml': deep });
  for (const args of [['plan'], ['plan', 'a', 'b'], ['plan', 'x.yaml', '--output', 'xml'], ['plan', 'missing.yaml']]) {
    const x = io(dir);
    assert.equal(await main(args, x), 2, args.join(' '));
    assert.ok(x.err_().length > 0);
  }
  const none = io(dir);
  assert.equal(await main(['plan', 'cm.yaml'], none), 4);
  assert.match(none.err_(), /cm\.yaml: no ApplicationSet found/);
  const notChecked = io(dir);
  assert.equal(await main(['plan', 'deep.yaml'], notChecked), 3);
  assert.match(notChecked.err_(), /yaml\/too-deep[^]*deep\.yaml: NOT CHECKED/);
  const h = io(dir);
  assert.equal(await main(['plan', '--help'], h), 0);
  assert.match(h.out_(), /usage: appset plan/);
});

test('appset plan: the documented example, text and JSON; progressive syncs not found → exit 1, enabled → 0', async () => {
  const dir = tempWorkspace({ 'guestbook.yaml': EXAMPLE });
  const t = io(dir);
  assert.equal(await main(['plan', 'guestbook.yaml'], t), 1);
  const text = t.out_();
  assert.match(text, /progressive syncs: not enabled \(nothing found; the controller's default is off\)/);
  assert.match(text, /Step 1 · envLabel In \(env-dev\) · 1 app · all at once, 1 wave\n {4}wave 1 \(1\): engineering-dev-guestbook/);
  assert.match(
    text,
    /Step 2 · envLabel In \(env-qa\) · 1 app · maxUpdate 0 → manual gate: sync by hand\n {4}manual \(1\): engineering-qa-guestbook/,
  );
  assert.match(text, /Step 3 · envLabel In \(env-prod\) · 1 app · maxUpdate 10% → 1 at a time, 1 wave/);
  assert.match(text, /rollout\/progressive-syncs-not-found/);

  const j = io(dir);
  assert.equal(await main(['plan', 'guestbook.yaml', '--output', 'json', '--progressive-syncs', 'enabled'], j), 0);
  const json = JSON.parse(j.out_());
  const plan = json.plans[0].plan;
  assert.equal(plan.appset, 'guestbook');
  assert.equal(plan.enablement.state, 'enabled');
  assert.deepEqual(
    plan.steps.map((s: { apps: string[]; concurrency: number | null; manual: boolean }) => [s.apps, s.concurrency, s.manual]),
    [
      [['engineering-dev-guestbook'], null, false],
      [['engineering-qa-guestbook'], 0, true],
      [['engineering-prod-guestbook'], 1, false],
    ],
  );
  assert.equal(plan.totalWaves, 2);
});

test('appset plan: detects argocd-cmd-params-cm in the git work tree of the file', async () => {
  const dir = tempWorkspace({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'apps/guestbook.yaml': EXAMPLE,
    'argocd/params.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\ndata:\n  applicationsetcontroller.enable.progressive.syncs: "true"\n',
  });
  const t = io(dir);
  assert.equal(await main(['plan', 'apps/guestbook.yaml'], t), 0, t.out_());
  assert.match(
    t.out_(),
    /progressive syncs: enabled — Argo CD argocd \(installed beside it in argocd\/\), decided by argocd\/params\.yaml:6\n {4}enables: argocd\/params\.yaml: ConfigMap argocd-cmd-params-cm sets/,
  );
});
