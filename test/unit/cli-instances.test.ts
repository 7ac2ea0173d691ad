// `appset plan` / `appset lint` as a process (bundled from the sources by test/helpers/cli.ts): the
// `.appset-tools.yaml` instances mapping and maxWaveSize, `--instance NAME`, `--argocd-config PATH`, and
// the AppProject sync window that can park a step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bundleCli, repoRoot, runCli, writeFiles, tempFolder } from '../helpers/cli';
import { cmdParamsCm } from '../helpers/clusters';

const { cli: CLI } = bundleCli('appset-instances-cli-');
const EXAMPLE = path.join(repoRoot, 'examples', 'team-rollout');
const cm = (v: string) => cmdParamsCm(v);

/** The team-rollout example in a git work tree with a production and a staging Argo CD and an AppProject. */
function workspace(extra: Record<string, string> = {}): string {
  const dir = tempFolder('appset-instances-');
  fs.mkdirSync(path.join(dir, '.git'));
  const files: Record<string, string> = {
    'apps/shop.yaml': fs.readFileSync(path.join(EXAMPLE, 'applicationset.yaml'), 'utf8'),
    'apps/clusters.yaml': fs.readFileSync(path.join(EXAMPLE, 'clusters.yaml'), 'utf8'),
    'platform/argocd-prod/params.yaml': cm('false'),
    'platform/argocd-staging/params.yaml': cm('true'),
    'platform/projects/shop.yaml': `apiVersion: argoproj.io/v1alpha1
kind: AppProject
metadata:
  name: shop
  namespace: argocd
spec:
  syncWindows:
  - kind: deny
    schedule: "0 22 * * *"
    duration: 8h
    clusters: ["https://10.0.0.3"]
`,
    '.appset-tools.yaml': `instances:
  production:
    applicationSets: [apps/]
    config: [platform/argocd-prod]
  staging:
    applicationSets: [staging/]
    config: [platform/argocd-staging]
maxWaveSize: 2
`,
    ...extra,
  };
  return writeFiles(dir, files);
}

const run = (cwd: string, ...args: string[]) => {
  const r = runCli(CLI, args, { cwd, timeout: 120_000 });
  return { status: r.code, stdout: r.out, stderr: r.err };
};

test('plan: the instances mapping of .appset-tools.yaml decides, and says so; the sync window shows under its step', () => {
  const dir = workspace();
  const r = run(dir, 'plan', 'apps/shop.yaml');
  assert.equal(r.status, 1, r.stderr);
  assert.match(
    r.stdout,
    /progressive syncs: disabled — Argo CD production \(mapped in \.appset-tools\.yaml instances \("production"\)\), decided by platform\/argocd-prod\/params\.yaml:6\n/,
  );
  assert.match(
    r.stdout,
    /Step 2 · tier In \(low-traffic\) · 6 apps[^]*?sync window: deny window "0 22 \* \* \*" for 8h of AppProject shop can park 3: cart-us-east, catalog-us-east, checkout-us-east \(platform\/projects\/shop\.yaml:8\)\n {2}Step 3/,
  );
  assert.match(r.stdout, /warning rollout\/sync-window Once progressive syncs are on, step 2 can stall in a sync window/);
  // maxWaveSize 2 from the config file: step 1 syncs its 3 canary Applications at once.
  assert.match(r.stdout, /information rollout\/large-wave Step 1 syncs 3 Applications at once \(more than maxWaveSize, 2\)/);
  assert.doesNotMatch(r.stdout, /Step 2 syncs 2 Applications at once/);

  const json = JSON.parse(run(dir, 'plan', 'apps/shop.yaml', '--output', 'json').stdout);
  const win = json.plans[0].plan.steps[1].syncWindows;
  assert.equal(win.length, 1);
  assert.deepEqual(
    { project: win[0].project, kind: win[0].kind, where: win[0].where, apps: win[0].apps },
    {
      project: 'shop',
      kind: 'deny',
      where: 'platform/projects/shop.yaml:8',
      apps: ['cart-us-east', 'catalog-us-east', 'checkout-us-east'],
    },
  );
});

test('plan --instance NAME picks a mapping by name; --argocd-config PATH reads only that configuration', () => {
  const dir = workspace();
  const staging = run(dir, 'plan', 'apps/shop.yaml', '--instance', 'staging');
  assert.match(
    staging.stdout,
    /progressive syncs: enabled — Argo CD staging \(chosen with --instance \("staging"\)\), decided by platform\/argocd-staging\/params\.yaml:6\n/,
  );
  assert.doesNotMatch(staging.stdout, /Ignored/);
  // Now the window is a live problem: no "once progressive syncs are on".
  assert.match(staging.stdout, /warning rollout\/sync-window Step 2 can stall in a sync window/);

  const given = run(dir, 'plan', 'apps/shop.yaml', '--argocd-config', 'platform/argocd-staging/params.yaml');
  assert.match(
    given.stdout,
    /progressive syncs: enabled — Argo CD platform\/argocd-staging\/params\.yaml \(given with --argocd-config\), decided by platform\/argocd-staging\/params\.yaml:6\n/,
  );
  const lint = run(dir, 'lint', 'apps/shop.yaml', '--argocd-config', 'platform/argocd-prod', '--format', 'json');
  assert.ok(
    JSON.parse(lint.stdout).files[0].diagnostics.some((f: { code: string }) => f.code === 'rollout/progressive-syncs-disabled'),
    lint.stdout,
  );

  const unknown = run(dir, 'plan', 'apps/shop.yaml', '--instance', 'prod');
  assert.equal(unknown.status, 2);
  assert.equal(
    unknown.stderr,
    'appset plan: --instance prod: no instance of that name in the instances mapping (known: "production", "staging")\n',
  );
  const both = run(dir, 'plan', 'apps/shop.yaml', '--instance', 'staging', '--argocd-config', 'platform');
  assert.equal(both.status, 2);
  assert.match(both.stderr, /--instance and --argocd-config cannot be combined/);
  const missing = run(dir, 'plan', 'apps/shop.yaml', '--argocd-config', 'nowhere');
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--argocd-config nowhere: no such file or folder/);
  const outside = run(dir, 'plan', 'apps/shop.yaml', '--argocd-config', os.tmpdir());
  assert.equal(outside.status, 2);
  assert.match(outside.stderr, /outside the workspace .* pass --workspace to include it/);
  assert.match(run(dir, 'plan', '--help').stdout, /--instance NAME[^]*--argocd-config PATH/);
});
