/**
 * The language server reads the files its log of the Argo CD installs needs before it logs
 * (`LanguageService.enablementSummaryAhead`, install/model.ts `parseInstallFilesAhead`), a few KiB of text
 * per turn, so that the log (`enablementSummary`) parses nothing in one block (issue 39). Over every fixture
 * and example as one workspace, and a repository whose self-managed Argo CD an ApplicationSet's template
 * deploys beside a long ApplicationSet: it takes several steps, the log after it (in steps, as the server runs
 * it) parses only the files of 16 KiB or more, which are left to it (WorkspaceIndex.inSteps: the long one in
 * many pauses), and the log and the installs' report say what a service that never read ahead says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { memHost, repoFiles } from '../helpers/memHost';
import { longListAppSet } from '../helpers/appsets';

const BUDGET = 4 * 1024;

/** Reads ahead until done; how many steps it took. */
function stepsAhead(ls: ReturnType<typeof getLanguageService>): number {
  for (let i = 1; i <= 10_000; i++) if (ls.enablementSummaryAhead(BUDGET)) return i;
  return assert.fail('reading ahead never finished');
}

const SELF_MANAGED = new Map<string, string>([
  [
    '/ws/bootstrap/kustomization.yaml',
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\nresources:\n  - https://raw.githubusercontent.com/argoproj/argo-cd/v2.12.0/manifests/install.yaml\n',
  ],
  [
    '/ws/argocd/self/kustomization.yaml',
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: argocd\nresources:\n  - https://raw.githubusercontent.com/argoproj/argo-cd/v2.13.1/manifests/install.yaml\n',
  ],
  [
    '/ws/apps/platform.yaml',
    'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: platform\n  namespace: argocd\nspec:\n  goTemplate: true\n  generators:\n    - list:\n        elements: [{app: self}]\n  template:\n    metadata:\n      name: "{{.app}}"\n    spec:\n      project: default\n      source:\n        repoURL: https://example.com/repo.git\n        path: "argocd/{{.app}}"\n      destination:\n        server: https://kubernetes.default.svc\n        namespace: argocd\n',
  ],
  ['/ws/apps/long.yaml', longListAppSet(540)],
]);

for (const [name, files] of [
  ['every fixture and example', repoFiles((n) => /\.ya?ml$/i.test(n), 'test/fixtures', 'examples')],
  ['a self-managed Argo CD deployed by an ApplicationSet, beside a long one', SELF_MANAGED],
] as const) {
  test(`${name}: the installs' files are read ahead in steps, and the log then parses nothing and says the same`, () => {
    const ahead = getLanguageService({ host: memHost(files) });
    const steps = stepsAhead(ahead);
    const parsed = ahead.workspace.counts.parsed;
    // The log as the server runs it, in steps: the files of 16 KiB or more, left to it, are parsed there in steps.
    const log = ahead.enablementSummarySteps();
    let pauses = 0;
    let r = log.next();
    for (; !r.done; r = log.next()) pauses++;
    const summary = r.value;
    // The fixtures' one exception: a chart's Chart.yaml beside argo-cd values, looked up by its path
    // (versions/detect.ts chartBeside), not by an interest; it is a few lines.
    const lookedUp = name === 'every fixture and example' ? 1 : 0;
    const large = [...files.values()].filter((t) => t.length >= 16 * 1024).length;
    const byLog = ahead.workspace.counts.parsed - parsed;
    assert.ok(byLog >= lookedUp && byLog <= lookedUp + large, `${name}: the log parsed ${byLog} files (${large} large)`);
    if (name === 'every fixture and example') assert.ok(steps > 1, `${name}: read in ${steps} step(s)`);
    // The long ApplicationSet (111 KiB) is read by the log, in many steps, not ahead in one.
    else assert.ok(byLog === 1 && pauses > 5, `${name}: the log parsed ${byLog} file(s) in ${pauses} pauses`);
    assert.equal(ahead.enablementSummaryAhead(BUDGET), true);
    const fresh = getLanguageService({ host: memHost(files) });
    assert.deepEqual(summary, fresh.enablementSummary(), name);
    assert.deepEqual(ahead.installReport([]), fresh.installReport([]), name);
  });
}
