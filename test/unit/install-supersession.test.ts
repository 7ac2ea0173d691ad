/**
 * Which install runs a file, one answer everywhere (issue 40, install/supersession.ts): a bootstrap applied
 * from outside (`argocd/bootstrap/`, nothing in the repository deploys it) sits nearest the ApplicationSet,
 * while an Application of the repository deploys `platform/argocd/`, the same Argo CD in the same namespace
 * (Argo CD docs/operator-manual/declarative-setup.md, "Manage Argo CD Using Argo CD"). Once synced the
 * deployed one runs the controller: its enablement and version decide, and the bootstrap is named as set
 * aside — in `appset plan`, `appset instances` and `appset lint`, run as processes on our own fixture
 * (test/fixtures/installs/self-managed-bootstrap). When the deployed one states no namespace, whether it
 * replaces the bootstrap cannot be decided, and the two disagree: the verdict is unknown, with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleCli, repoRoot, runCli } from '../helpers/cli';

const FIXTURE = path.join(repoRoot, 'test', 'fixtures', 'installs', 'self-managed-bootstrap');
const APPSET = 'argocd/appsets/shop.yaml';

/** The fixture copied out of the repository's test/ folder (a sample folder there, governing only itself). */
function workspace(work: string, name: string, edit: (dir: string) => void = () => {}): string {
  const dir = path.join(work, name);
  fs.cpSync(FIXTURE, dir, { recursive: true });
  edit(dir);
  return dir;
}

const { cli, work } = bundleCli('appset-supersession-');
const run = (cwd: string, ...args: string[]) => {
  const r = runCli(cli, [...args, '--workspace', '.'], { cwd });
  assert.equal(r.signal, null, r.err);
  return r;
};

test('the install the repository deploys runs the file: plan, instances and lint name it and read its enablement, the bootstrap set aside', () => {
  const dir = workspace(work, 'deployed');
  const plan = run(dir, 'plan', APPSET);
  // Exit 1: the strategy is ignored (a warning), as `appset plan` says for any ignored RollingSync.
  assert.equal(plan.code, 1, plan.err);
  const verdict = plan.out.split('\n')[1];
  assert.match(
    verdict,
    /^ {2}progressive syncs: not enabled \(nothing found; the controller's default is off\) — Argo CD platform\/argocd \(/,
  );
  assert.match(verdict, /which replaces the bootstrap argocd\/bootstrap\/ applied from outside once synced/);
  assert.doesNotMatch(plan.out, /progressive syncs: enabled/, 'the bootstrap it replaces never vouches for it');
  assert.match(
    plan.out,
    /note: Argo CD argocd\/bootstrap is a bootstrap applied from outside \(nothing in the repository deploys it\), set aside: .*; it enables progressive syncs, Argo CD platform\/argocd leaves progressive syncs at the controller's default, off, and the deployed one decides/,
  );
  // The version follows the same install.
  assert.match(
    run(dir, 'render', APPSET).out,
    /checked against Argo CD 3\.0 \(detected: argo-cd Helm chart 8\.0\.17 \(kustomize helmCharts\) in platform\/argocd\/kustomization\.yaml; argocd\/bootstrap\/kustomization\.yaml \(Argo CD 2\.13\) is applied from outside/,
  );

  const inst = run(dir, 'instances', '.');
  assert.equal(inst.code, 0, inst.err);
  const blocks = inst.out.split(/\n(?=Argo CD )/);
  const boot = blocks.find((b) => b.startsWith('Argo CD argocd/bootstrap'));
  const platform = blocks.find((b) => b.startsWith('Argo CD platform/argocd'));
  assert.ok(boot && platform, inst.out);
  assert.doesNotMatch(boot, /runs 1 ApplicationSet/, 'the bootstrap runs nothing once replaced');
  assert.match(platform, /runs 1 ApplicationSet file:\n {4}argocd\/appsets\/shop\.yaml — the repository deploys platform\/argocd\//);

  const json = JSON.parse(run(dir, 'instances', '.', '--output', 'json').out) as {
    installs: { name: string; governs: { file: string }[] }[];
  };
  assert.deepEqual(
    json.installs.map((i) => [i.name, i.governs.map((g) => g.file)]),
    [
      ['argocd/bootstrap', []],
      ['platform/argocd', [APPSET]],
    ],
  );

  const lint = run(dir, 'lint', APPSET, '--format', 'json', '--no-fail');
  const report = JSON.parse(lint.out) as { files: { diagnostics: { code: string; message: string }[] }[] };
  const warn = report.files.flatMap((f) => f.diagnostics).find((d) => d.code === 'rollout/progressive-syncs-not-found');
  assert.ok(warn, lint.out);
  assert.match(warn.message, /^Ignored: progressive syncs are off, so all 3 Applications sync at once/);
});

test('the bootstrap stays when nothing deployed replaces it: no deployed install in its namespace', () => {
  const dir = workspace(work, 'alone', (d) => fs.rmSync(path.join(d, 'argocd', 'apps'), { recursive: true }));
  const plan = run(dir, 'plan', APPSET);
  assert.match(
    plan.out.split('\n')[1],
    /^ {2}progressive syncs: enabled — Argo CD argocd\/bootstrap \(installed beside it in argocd\/bootstrap\/ for namespace argocd\)/,
  );
});

test('a deployed install that states no namespace: whether it replaces the bootstrap is not known, and they disagree — unknown, with both named', () => {
  const dir = workspace(work, 'undecided', (d) => {
    const k = path.join(d, 'platform', 'argocd', 'kustomization.yaml');
    fs.writeFileSync(k, fs.readFileSync(k, 'utf8').replace(/^ *namespace: argocd\n/gm, ''));
    const a = path.join(d, 'argocd', 'apps', 'argocd.yaml');
    fs.writeFileSync(a, fs.readFileSync(a, 'utf8').replace(/^( *)namespace: argocd$/gm, '$1namespace: ""'));
  });
  const plan = run(dir, 'plan', APPSET);
  const verdict = plan.out.split('\n')[1];
  assert.match(
    verdict,
    /^ {2}progressive syncs: unknown \(which Argo CD runs it is not known: Argo CD argocd\/bootstrap, applied from outside, enables progressive syncs, and Argo CD platform\/argocd, which the repository deploys, leaves progressive syncs at the controller's default, off; .* Argo CD platform\/argocd states no namespace/,
  );
  const lint = run(dir, 'lint', APPSET, '--no-fail');
  assert.match(lint.out, /warning rollout\/progressive-syncs-not-found Unknown whether honoured: which Argo CD runs it is not known/);
  assert.doesNotMatch(lint.out, /Progressive syncs enabled/);
});
