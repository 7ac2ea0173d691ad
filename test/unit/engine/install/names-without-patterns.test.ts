/**
 * The install scan's folder-name and kustomize-reference tests written without regular expressions (issue 39,
 * workspace/names.ts) give what the patterns they replaced gave, over random strings and every corpus path.
 */
import { test } from 'node:test';
import { isInstallFolder, isSample } from '../../../../server/src/engine/install/instances';
import { isRemoteEntry } from '../../../../server/src/engine/install/kustomizeBases';
import { isRemote, namesArgoproj } from '../../../../server/src/engine/install/kustomizePaths';
import { installsArgoCd } from '../../../../server/src/engine/install/upstreamManifests';
import { same } from '../../../helpers/patternEquivalence';

test('the install folder and sample folder tests give what their patterns gave', () => {
  const installLike =
    /^(argo-?cd.*|argo|install|installation|bootstrap|gitops|platform|system|infra|infrastructure|manifests|config|configs|deploy|helm|charts?|values|cluster-config|cd)$/i;
  same('isInstallFolder', isInstallFolder, (s) => installLike.test(s) || /argo/i.test(s));
  const sampleDir = /^(examples?|samples?|tests?|testdata|test-data|fixtures?|docs?|demos?|e2e|hack|archived?|archives)$/i;
  same(
    'isSample',
    (s) => isSample({ key: `/ws/${s}/cm.yaml` }, ['/ws']),
    (s) => `${s}/cm.yaml`.split('/').some((seg) => sampleDir.test(seg)),
  );
});

test('the kustomize reference tests give what their patterns gave', () => {
  same('isRemoteEntry', isRemoteEntry, (s) => /^[a-z]+:\/\/|^git@|\?ref=|^(github|gitlab|bitbucket)\.(com|org)\//i.test(s));
  same(
    'isRemote',
    isRemote,
    (s) => /^(https?:\/\/|git@|ssh:\/\/|git::|(github|gitlab|bitbucket)\.(com|org)\/)/i.test(s) || /\?ref=|\/\/.*\?/.test(s),
  );
  same('namesArgoproj', namesArgoproj, (s) => /argoproj(-labs)?\//i.test(s));
  const argoCd =
    /argoproj\/argo-cd(?:\.git)?\/{1,2}manifests(?:\/|\?|$)|raw\.githubusercontent\.com\/argoproj\/argo-cd\/[^/\s]+\/manifests\//i;
  const autopilot = /argoproj-labs\/argocd-autopilot(?:\.git)?\/{1,2}manifests(?:\/|\?|$)/i;
  same('installsArgoCd', installsArgoCd, (s) => (argoCd.test(s) || autopilot.test(s)) && !/\/manifests\/crds(?:[/?]|$)/i.test(s));
});

test('a URL scheme spelled with both cases of the letters is the case-insensitive pattern (install/kustomizePaths.ts, installers.ts)', () => {
  same(
    'scheme',
    (s) => /^[a-zA-Z]+:\/\//.test(s),
    (s) => /^[a-z]+:\/\//i.test(s),
  );
  same(
    'Chart',
    (s) => ['Chart.yaml', 'Chart.yml'].includes(s.split('/').pop() ?? ''),
    (s) => /^Chart\.ya?ml$/.test(s.split('/').pop() ?? ''),
  );
});
