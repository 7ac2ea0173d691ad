/**
 * Argo CD versions: the supported list and the schema data agree, the target version is read from
 * settings or detected from the repository's install, and every version-gated rule behaves as the
 * release it models (one test per gate, on both sides of the release that changed it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { appset, secret, secrets, workspace } from '../../generators-helpers';
import { RELEASES, SUPPORTED, parseVersion, NEWEST_RELEASE, splitVersion } from '../../../../server/src/engine/versions/releases';
import { fieldAddedIn } from '../../../../server/src/engine/versions/fields';
import { GATES, templateLibraries } from '../../../../server/src/engine/versions/behaviours';
import { chartToLine } from '../../../../server/src/engine/versions/detect';
import data from '../../../../schemas/argocd-versions.json';
import { VERSIONS_DOC, withVersionTables } from '../../../../scripts/versions-tables';
import { cmdParamsCm } from '../../../helpers/clusters';

const root = resolve(__dirname, '..', '..', '..', '..');
const names = (e: { apps: { name: string }[] }) => e.apps.map((a) => a.name).sort();

test('the supported versions, the schema data and the data script list the same releases', () => {
  const script = readFileSync(resolve(root, 'schemas/argocd-versions.mjs'), 'utf8');
  const scripted = [...script.matchAll(/\['([\d.]+|master)', '([^']+)'\]/g)].map((m) => m[1]);
  assert.deepEqual(scripted, [...SUPPORTED], 'schemas/argocd-versions.mjs RELEASES');
  assert.deepEqual(
    data.releases.map((r) => r.version),
    [...SUPPORTED],
  );
  assert.deepEqual(SUPPORTED.slice(0, 4), ['2.4', '2.5', '2.6', '2.7'], 'from 2.4, the first release with the ApplicationSet CRD');
  assert.ok(SUPPORTED.includes('3.6') && SUPPORTED.at(-1) === 'master', '… 3.6 and master');
  for (const r of RELEASES) assert.match(r.commit, /^[0-9a-f]{40}$/, r.version);
  for (const v of Object.keys(data.fieldsAddedIn)) assert.ok(SUPPORTED.includes(v), `fieldsAddedIn names unsupported ${v}`);
  for (const g of Object.values(GATES)) assert.ok(SUPPORTED.includes(splitVersion(g.since)[0]), `gate since ${g.since}`);
  for (const g of Object.values(GATES)) assert.match(g.commit, /^[0-9a-f]{10}$/, `gate commit ${g.commit}`);
  for (const [, line] of data.helmChartFirstVersion) assert.ok(SUPPORTED.includes(line), `chart table names ${line}`);
});

test('fields know the release that added them, by the most specific path suffix', () => {
  assert.equal(fieldAddedIn(['templatePatch']), '2.10');
  assert.equal(fieldAddedIn(['strategy', 'deletionOrder']), '3.2');
  assert.equal(fieldAddedIn(['template', 'spec', 'source', 'kustomize', 'components']), '2.10');
  assert.equal(fieldAddedIn(['template', 'spec', 'sourceHydrator', 'drySource', 'kustomize']), '3.3');
  assert.equal(fieldAddedIn(['template', 'spec', 'sources', 0, 'directory', 'disableExtensionFilter']), '3.6');
  assert.equal(fieldAddedIn(['generators', 0, 'oci']), '3.6');
  assert.equal(fieldAddedIn(['generators', 0, 'merge', 'generators', 1, 'oci']), '3.6');
  // The fields 2.5–2.7 added (2.4 is the oldest release with the CRD).
  assert.equal(fieldAddedIn(['goTemplate']), '2.5');
  assert.equal(fieldAddedIn(['generators', 0, 'selector']), '2.5');
  assert.equal(fieldAddedIn(['strategy']), '2.6');
  assert.equal(fieldAddedIn(['template', 'spec', 'sources']), '2.6');
  assert.equal(fieldAddedIn(['generators', 0, 'git', 'pathParamPrefix']), '2.6');
  assert.equal(fieldAddedIn(['generators', 0, 'list', 'elementsYaml']), '2.7');
  assert.equal(fieldAddedIn(['syncPolicy', 'preserveResourcesOnDeletion']), undefined, 'in 2.4 already');
  assert.equal(fieldAddedIn(['generators', 0, 'matrix', 'generators', 1, 'pullRequest', 'values']), '3.0');
  assert.equal(fieldAddedIn(['generators', 0, 'list', 'elements']), undefined, 'in every release');
});

test('version texts: tags, minors, master; outside the range they are clamped with a note', () => {
  assert.deepEqual(parseVersion('v3.2.5'), { line: '3.2', patch: 5 });
  assert.deepEqual(parseVersion('2.14'), { line: '2.14' });
  assert.deepEqual(parseVersion('v3.4.0-rc2'), { line: '3.4', patch: 0 });
  assert.deepEqual(parseVersion('3.6.1'), { line: '3.6', patch: 1 });
  assert.deepEqual(parseVersion('master'), { line: 'master' });
  assert.deepEqual(parseVersion('v2.4.0'), { line: '2.4', patch: 0 });
  assert.equal(parseVersion('v2.3.1')?.line, SUPPORTED[0]);
  assert.match(parseVersion('v2.3.1')!.note!, /older than 2\.4, the first release with the ApplicationSet controller built in/);
  assert.equal(parseVersion('v4.1.0')?.line, 'master');
  assert.equal(parseVersion('sha256:abc'), undefined);
  assert.equal(chartToLine('7.7.0')?.line, '2.13');
  assert.equal(chartToLine('7.8.2')?.line, '2.14');
  assert.equal(chartToLine('~8.0.1')?.line, '3.0');
  assert.equal(chartToLine('9.4.3')?.line, '3.3');
});

const TEMPLATE_PATCH = `  templatePatch: |
    metadata:
      labels:
        patched: "yes"
`;

test('detected from a kustomize remote base ?ref=: fields newer than the install are flagged and pruned', () => {
  const ws = workspace({
    'argocd/kustomization.yaml':
      'namespace: argocd\nresources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.9.3\n',
  });
  try {
    const text = appset(`    - list:\n        elements:\n          - name: a`, { extra: TEMPLATE_PATCH });
    const d = ws.diagnostics(text).filter((x) => x.code === 'appset/unknown-field');
    assert.equal(d.length, 1);
    assert.match(d[0].message, /^"templatePatch" was added in Argo CD 2\.10: Argo CD 2\.9\.3's API server drops it/);
    assert.match(d[0].message, /detected: kustomize remote base of argoproj\/argo-cd \?ref=v2\.9\.3 in argocd\/kustomization\.yaml/);
    assert.equal(text.slice(d[0].start, d[0].end), 'templatePatch');
    const e = ws.expand(text);
    assert.equal((e.apps[0].app.metadata as { labels?: object }).labels, undefined, 'the 2.9 controller never sees the patch');
    assert.ok(
      e.notes.some((n) => n.startsWith('checked against Argo CD 2.9.3 (detected')),
      e.notes.join('|'),
    );
  } finally {
    ws.close();
  }
  const newer = workspace({
    'argocd/kustomization.yaml': 'resources:\n  - github.com/argoproj/argo-cd/manifests/cluster-install?ref=v2.10.4\n',
  });
  try {
    const text = appset(`    - list:\n        elements:\n          - name: a`, { extra: TEMPLATE_PATCH });
    assert.deepEqual(
      newer.diagnostics(text).filter((x) => x.code === 'appset/unknown-field'),
      [],
    );
    assert.equal((newer.expand(text).apps[0].app.metadata as { labels: Record<string, string> }).labels.patched, 'yes');
  } finally {
    newer.close();
  }
});

test('detection: Helm chart (Chart.yaml, HelmRelease, Application), image tags, Operator, nearest install wins', () => {
  const cases: [Record<string, string>, string, RegExp][] = [
    [
      {
        'argocd/Chart.yaml':
          'apiVersion: v2\nname: my-argocd\nversion: 1.0.0\ndependencies:\n  - name: argo-cd\n    version: 7.7.0\n    repository: https://argoproj.github.io/argo-helm\n',
      },
      '2.13',
      /argo-cd Helm chart 7\.7\.0 \(Chart\.yaml dependency\)/,
    ],
    [
      {
        'flux/argocd.yaml':
          'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: argocd\n  namespace: argocd\nspec:\n  chart:\n    spec:\n      chart: argo-cd\n      version: 8.0.3\n',
      },
      '3.0',
      /HelmRelease/,
    ],
    [
      {
        'bootstrap/argocd-app.yaml':
          'apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: argocd\nspec:\n  source:\n    repoURL: https://argoproj.github.io/argo-helm\n    chart: argo-cd\n    targetRevision: 9.1.4\n  destination:\n    namespace: argocd\n',
      },
      '3.2',
      /chart 9\.1\.4 \(Application argocd\)/,
    ],
    [
      {
        'deploy/controller.yaml':
          'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: argocd-applicationset-controller\nspec:\n  template:\n    spec:\n      containers:\n        - image: quay.io/argoproj/argocd:v3.1.2\n',
      },
      '3.1',
      /image quay\.io\/argoproj\/argocd:v3\.1\.2/,
    ],
    [
      { 'operator/argocd.yaml': 'apiVersion: argoproj.io/v1beta1\nkind: ArgoCD\nmetadata:\n  name: example\nspec:\n  version: v2.12.3\n' },
      '2.12',
      /Operator ArgoCD example spec\.version v2\.12\.3/,
    ],
    [{ 'values.yaml': 'global:\n  image:\n    tag: v3.3.1\nconfigs:\n  cm: {}\n' }, '3.3', /global\.image\.tag v3\.3\.1/],
    // The argo-cd chart itself, beside its values.
    [
      { 'argo/Chart.yaml': 'name: argo-cd\nversion: 9.1.0\n', 'argo/values.yaml': 'global:\n  image:\n    tag: v3.1.0\n' },
      '3.1',
      /global\.image\.tag v3\.1\.0/,
    ],
    // An umbrella chart: the argo-cd dependency (here under an alias) reads the values under its key.
    [
      {
        'charts/argocd/Chart.yaml':
          'apiVersion: v2\nname: platform\nversion: 0.1.0\ndependencies:\n  - name: argo-cd\n    alias: argo\n    version: ^7.0.0\n    repository: https://argoproj.github.io/argo-helm\n',
        'charts/argocd/values.yaml': 'argo:\n  global:\n    image:\n      tag: v2.12.4\n',
      },
      '2.12',
      /argo\.global\.image\.tag v2\.12\.4/,
    ],
    // A chart range: Helm installs the newest chart matching it.
    [
      {
        'charts/argocd/Chart.yaml':
          'apiVersion: v2\nname: platform\nversion: 0.1.0\ndependencies:\n  - name: argo-cd\n    version: ^7.0.0\n',
      },
      '2.14',
      /chart range \^7\.0\.0: Helm takes the newest chart that matches it/,
    ],
    [
      {
        'deploy/argocd.yaml':
          'kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - image: quay.io/argoproj/argocd:latest\n',
      },
      NEWEST_RELEASE,
      /argocd:latest/,
    ],
  ];
  for (const [files, line, why] of cases) {
    const ws = workspace(files);
    try {
      const e = ws.expand(appset(`    - list:\n        elements:\n          - name: a`));
      const note = e.notes.find((n) => n.startsWith('checked against'))!;
      // The patch is said when the evidence names one (an image tag, ?ref=), not for a chart version.
      assert.match(note, new RegExp(`^checked against Argo CD ${line.replace('.', '\\.')}(\\.\\d+)? \\(detected: `), note);
      assert.match(note, why);
    } finally {
      ws.close();
    }
  }
  // Two installs: the one next to the ApplicationSet decides; the note names the other.
  const ws = workspace({
    'staging/argocd/kustomization.yaml': 'resources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v3.4.1\n',
    'prod/argocd/kustomization.yaml': 'resources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.14.8\n',
  });
  try {
    const note = ws
      .expand(appset(`    - list:\n        elements:\n          - name: a`), 'prod/apps/appset.yaml')
      .notes.find((n) => n.startsWith('checked against'))!;
    assert.match(
      note,
      /^checked against Argo CD 2\.14\.8 \(detected: .* in prod\/argocd\/kustomization\.yaml; other installs in the repository say Argo CD 3\.4\)$/,
    );
  } finally {
    ws.close();
  }
});

test("an unrelated chart's global.image.tag is not Argo CD's version", () => {
  const ws = workspace({
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 1.0.0\n',
    'charts/web/values.yaml': 'global:\n  image:\n    tag: 1.4.2\n',
    'other/values.yaml': 'global:\n  image:\n    tag: 1.4.2\nserver:\n  port: 80\n',
  });
  try {
    const text = appset(`    - list:\n        elements:\n          - name: a`, { extra: '  goTemplateOptions: ["missingkey=error"]\n' });
    const note = ws.expand(text).notes.find((n) => n.startsWith('checked against'))!;
    assert.match(note, new RegExp(`^checked against Argo CD ${NEWEST_RELEASE.replace('.', '\\.')} \\(no Argo CD install found`), note);
    assert.deepEqual(
      ws.diagnostics(text).filter((d) => d.code === 'appset/unknown-field'),
      [],
    );
  } finally {
    ws.close();
  }
});

test('stable and latest are the newest release', () => {
  assert.equal(parseVersion('stable')?.line, NEWEST_RELEASE);
  assert.equal(parseVersion('latest')?.line, NEWEST_RELEASE);
  assert.equal(chartToLine('^7.0.0')?.line, '2.14');
  assert.equal(chartToLine('~7.7.0')?.line, '2.13');
  assert.equal(chartToLine('>=8.0.0 <8.3.0')?.line, '3.0');
});

test('the setting overrides detection; nothing found means the newest release', () => {
  const ws = workspace(
    { 'k/kustomization.yaml': 'resources:\n  - https://github.com/argoproj/argo-cd//manifests/install?ref=v2.9.0\n' },
    { argocdVersion: 'v3.2.0' },
  );
  try {
    const note = ws
      .expand(appset(`    - list:\n        elements:\n          - name: a`))
      .notes.find((n) => n.startsWith('checked against'));
    assert.equal(note, 'checked against Argo CD 3.2.0 (set by argocdVersion "v3.2.0")');
  } finally {
    ws.close();
  }
  const none = workspace();
  try {
    const note = none
      .expand(appset(`    - list:\n        elements:\n          - name: a`))
      .notes.find((n) => n.startsWith('checked against'))!;
    assert.match(note, new RegExp(`^checked against Argo CD ${NEWEST_RELEASE.replace('.', '\\.')} \\(no Argo CD install found`));
  } finally {
    none.close();
  }
});

/** Runs `fn` with a workspace whose settings pin the Argo CD version. */
function at<T>(version: string, files: Record<string, string>, fn: (ws: ReturnType<typeof workspace>) => T): T {
  const ws = workspace(files, { argocdVersion: version, repoMappings: { 'https://example.com/config.git': '.' } });
  try {
    return fn(ws);
  } finally {
    ws.close();
  }
}

test(`gate ${GATES.nestedSelectorsAlways.since}: selectors inside a nested matrix are dropped before 3.0 unless applyNestedSelectors`, () => {
  const nested = `    - matrix:
        generators:
          - list:
              elements:
                - env: dev
                - env: prod
          - matrix:
              generators:
                - list:
                    elements:
                      - app: a
                      - app: b
                  selector:
                    matchLabels:
                      app: a
                - list:
                    elements:
                      - x: "1"`;
  const text = (extra = '') => appset(nested, { name: '{{env}}-{{app}}', extra });
  at('2.14', {}, (ws) => {
    assert.deepEqual(names(ws.expand(text())), ['dev-a', 'dev-b', 'prod-a', 'prod-b'], '2.14 drops the nested selector');
    const d = ws.diagnostics(text()).filter((x) => x.code === 'appset/nested-selector-ignored');
    assert.equal(d.length, 1);
    assert.match(d[0].message, /ignored by Argo CD 2\.14: .*applyNestedSelectors: true/);
    assert.deepEqual(names(ws.expand(text('  applyNestedSelectors: true\n'))), ['dev-a', 'prod-a']);
    assert.deepEqual(
      ws.diagnostics(text('  applyNestedSelectors: true\n')).filter((x) => /nested-selector|deprecated/.test(x.code)),
      [],
    );
  });
  at('3.0', {}, (ws) => {
    assert.deepEqual(names(ws.expand(text())), ['dev-a', 'prod-a']);
    assert.deepEqual(
      ws.diagnostics(text()).filter((x) => x.code === 'appset/nested-selector-ignored'),
      [],
    );
    const dep = ws.diagnostics(text('  applyNestedSelectors: false\n')).filter((x) => x.code === 'appset/deprecated-field');
    assert.match(dep[0].message, /ignored since Argo CD 3\.0/);
  });
});

test(`gate ${GATES.postSelectorStringMaps.since}: goTemplate post-selectors on cluster labels match nothing before 3.4`, () => {
  const files = {
    'clusters.yaml': secrets(
      secret('prod-1', 'https://p1.example.com', { env: 'prod' }),
      secret('dev-1', 'https://d1.example.com', { env: 'dev' }),
    ),
  };
  const text = appset(`    - clusters: {}\n      selector:\n        matchLabels:\n          metadata.labels.env: prod`, {
    goTemplate: true,
  });
  at('3.3', files, (ws) => assert.deepEqual(names(ws.expand(text)), []));
  at('3.4', files, (ws) => assert.deepEqual(names(ws.expand(text)), ['prod-1']));
  // fasttemplate params are flat already: every release matches.
  const fast = appset(`    - clusters: {}\n      selector:\n        matchLabels:\n          metadata.labels.env: prod`);
  at('3.3', files, (ws) => assert.deepEqual(names(ws.expand(fast)), ['prod-1']));
});

test(`gate ${GATES.gitFilesEmptyArray.since}: a git files generator file with [] gives one path-only set before 3.2`, () => {
  const files = { 'config/a/config.yaml': '[]\n', 'config/b/config.yaml': 'name: b\n' };
  const text = appset(
    `    - git:\n        repoURL: https://example.com/config.git\n        revision: HEAD\n        files:\n          - path: config/*/config.yaml`,
    { name: '{{path.basename}}' },
  );
  at('3.1', files, (ws) => assert.deepEqual(names(ws.expand(text)), ['a', 'b']));
  at('3.2', files, (ws) => assert.deepEqual(names(ws.expand(text)), ['b']));
});

test(`gate ${GATES.clusterProjectParam.since}: the cluster generator's project parameter`, () => {
  const files = { 'clusters.yaml': secret('prod-1', 'https://p1.example.com', {}, '') };
  const text = appset(`    - clusters:\n        selector:\n          matchLabels:\n            argocd.argoproj.io/secret-type: cluster`, {
    goTemplate: true,
    options: '["missingkey=error"]',
    name: '{{ .name }}-{{ .project }}',
  });
  at('2.13', files, (ws) => {
    const e = ws.expand(text);
    assert.equal(e.apps.length, 0);
    assert.match(e.problems[0].message, /map has no entry for key "project"/);
  });
  at('2.14', files, (ws) => assert.deepEqual(names(ws.expand(text)), ['prod-1-']));
});

test(`gates ${GATES.argoYamlFunctions.since}, ${GATES.slugify.since}, ${GATES.sprig330.since}, ${GATES.templateNameBase.since}, ${GATES.tplFunction.since}: template functions and error texts follow the release and patch`, () => {
  const list = `    - list:\n        elements:\n          - name: a`;
  const first = (ws: ReturnType<typeof workspace>, name: string) =>
    ws.expand(appset(list, { goTemplate: true, name })).problems[0]?.message;
  // toYaml, fromYaml and fromYamlArray were backported into 2.9.1 (slugify was not).
  at('v2.9.0', {}, (ws) =>
    assert.match(
      first(ws, '{{ .name | toYaml }}')!,
      /failed to parse template \{\{ \.name \| toYaml \}\}: template: :1: function "toYaml" not defined/,
    ),
  );
  at('v2.9.1', {}, (ws) => assert.equal(first(ws, '{{ .name | toYaml }}'), undefined));
  at('2.9', {}, (ws) => assert.equal(first(ws, '{{ .name | toYaml | trim }}'), undefined, 'the latest 2.9 patch'));
  at('2.9', {}, (ws) => assert.match(first(ws, '{{ .name | slugify }}')!, /function "slugify" not defined/));
  at('2.10', {}, (ws) => assert.equal(first(ws, '{{ .name | slugify }}'), undefined));
  at('3.5', {}, (ws) => assert.match(first(ws, '{{ tpl "{{ .name }}" . }}')!, /function "tpl" not defined/));
  at('3.6', {}, (ws) => assert.equal(first(ws, 'x-{{ tpl `{{ .name }}` . }}'), undefined));
  at('2.12', {}, (ws) => assert.match(first(ws, '{{ sha512sum .name }}')!, /function "sha512sum" not defined/));
  at('2.13', {}, (ws) => assert.equal(first(ws, '{{ sha512sum .name | trunc 8 }}'), undefined));
  at('3.2', {}, (ws) => assert.match(first(ws, '{{ .name.x }}')!, /template: :1:8: executing "" at <\.name\.x>/));
  at('3.3', {}, (ws) => assert.match(first(ws, '{{ .name.x }}')!, /template: base:1:8: executing "base" at <\.name\.x>/));
});

test(`gates ${GATES.camelcasePascal.since}, ${GATES.goRangeInt.since}, ${GATES.semverStrict.since}, ${GATES.semverGroupPrerelease.since}: templates run on the release's Go and libraries`, () => {
  const list = `    - list:\n        elements:\n          - name: a`;
  /** The generated name, or the first problem's message. */
  const run = (version: string, name: string) =>
    at(version, {}, (ws) => {
      const e = ws.expand(appset(list, { goTemplate: true, name }));
      return e.problems[0]?.message ?? e.apps.map((a) => a.name).join(',');
    });
  const camel = '{{ if eq (camelcase "fooBar") "Foobar" }}lower{{ else }}pascal{{ end }}';
  assert.equal(run('2.12', camel), 'lower');
  assert.equal(run('2.13', camel), 'pascal');
  const elseWith = '{{ with .nope }}x{{ else with .name }}{{ . }}{{ end }}';
  assert.match(run('2.12', elseWith), /template: :1: unexpected <with> in else/);
  assert.equal(run('2.13', elseWith), 'a');
  const rangeInt = 'n{{ range $i := 2 }}{{ $i }}{{ end }}';
  assert.match(run('2.13', rangeInt), /range can't iterate over 2/);
  // 2.14.0–2.14.13 were built with Go 1.23, 2.14.14 on with Go 1.24: the Go toolchain follows the patch.
  assert.match(run('v2.14.13', rangeInt), /range can't iterate over 2/);
  assert.equal(run('v2.14.14', rangeInt), 'n01');
  assert.equal(run('2.14', rangeInt), 'n01', 'the latest 2.14 patch');
  const lte = '{{ if (semver "1.2.3").LessThanEqual (semver "1.2.3") }}lte{{ end }}';
  assert.match(run('2.12', lte), /can't evaluate field LessThanEqual/);
  assert.equal(run('2.13', lte), 'lte');
  const zeros = 'v{{ (semver "01.2.3").Major }}';
  assert.equal(run('2.13', zeros), 'v1');
  assert.match(run('2.14', zeros), /error calling semver: Invalid Semantic Version/);
  assert.match(run('3.1', zeros), /Invalid Semantic Version/);
  assert.equal(run('3.2', zeros), 'v1');
  const pre = '{{ if semverCompare ">=1.0.0-0, <2.0.0" "1.5.0-rc1" }}admitted{{ else }}refused{{ end }}';
  assert.equal(run('3.1', pre), 'refused');
  assert.equal(run('3.2', pre), 'admitted');
});

test('the gates of template libraries start where the per-release (and per-patch) data changes', () => {
  // The first release, or patch release inside a line, whose libraries satisfy `pred`.
  const first = (pred: (l: (typeof RELEASES)[number]['libraries']) => boolean) => {
    for (const r of RELEASES) {
      for (const [patch, libs] of r.patches ?? []) if (pred(libs)) return patch ? `${r.version}.${patch}` : r.version;
      if (pred(r.libraries)) return r.version;
    }
  };
  const goMinor = (l: { go: string }) => Number(l.go.split('.')[1]);
  // Each gate and the library change that brought it.
  const changes: [keyof typeof GATES, (l: (typeof RELEASES)[number]['libraries']) => boolean][] = [
    ['sprig330', (l) => l.sprig === '3.3.0'],
    ['camelcasePascal', (l) => l.xstrings === '1.5.0'],
    ['goElseWith', (l) => goMinor(l) >= 23],
    ['goRangeInt', (l) => goMinor(l) >= 24],
    ['semverLessThanEqual', (l) => ['3.3.0', '3.3.1', '3.4.0'].includes(l.semver)],
    ['semverStrict', (l) => l.semver === '3.3.1'],
    ['semverGroupPrerelease', (l) => l.semver === '3.4.0'],
  ];
  for (const [gate, changed] of changes) assert.equal(first(changed), GATES[gate].since, gate);
  for (const r of RELEASES) {
    const libs = templateLibraries(r.version);
    assert.ok(['3.2.1', '3.3.0', '3.3.1', '3.4.0'].includes(libs.semver), `${r.version}: semver ${libs.semver} is modelled`);
    assert.ok(['1.3.3', '1.5.0'].includes(libs.xstrings), `${r.version}: xstrings ${libs.xstrings} is modelled`);
    assert.ok(libs.goMinor >= 18 && libs.goMinor <= 26, `${r.version}: Go 1.${libs.goMinor} is modelled`);
    if (r.patches) assert.deepEqual(r.patches.at(-1)![1], r.libraries, `${r.version}: the last patch run is the modelled tag's`);
    // The patch decides: every patch run's Go minor is what templateLibraries gives that patch.
    for (const [patch, l] of r.patches ?? [])
      assert.equal(templateLibraries({ line: r.version, patch }).goMinor, Number(l.go.split('.')[1]), `${r.version}.${patch}`);
  }
});

test(`gate ${GATES.emptyNameRejected.since}: an empty generated name`, () => {
  const text = appset(`    - list:\n        elements:\n          - name: ""`, { goTemplate: true });
  at('3.5', {}, (ws) => {
    const e = ws.expand(text);
    assert.equal(e.apps[0].invalid![0].kind, 'no-name');
    assert.match(e.apps[0].invalid![0].message, /creating it fails at the API server \("resource name may not be empty"\)/);
  });
  at('master', {}, (ws) =>
    assert.match(ws.expand(text).apps[0].invalid![0].message, /^ApplicationSet test contains an application with no name/),
  );
});

test(`gate ${GATES.noStepsHalts.since}: RollingSync with steps: []`, () => {
  const strategy = '  strategy:\n    type: RollingSync\n    rollingSync:\n      steps: []\n';
  const text = appset(`    - list:\n        elements:\n          - name: a`, { extra: strategy });
  const msg = (v: string) => at(v, {}, (ws) => ws.diagnostics(text).find((d) => d.code === 'rollout/no-steps')!.message);
  assert.match(msg('3.5'), /^RollingSync without steps: Argo CD 3\.5 syncs every Application at once/);
  assert.match(msg('3.5'), /from Argo CD 3\.6 on, it stops reconciling/);
  assert.match(msg('3.6'), /^RollingSync without steps: Argo CD 3\.6 reports "No steps defined for rollout"/);
});

test('fields newer than the target: deletionOrder (3.2) and disableExtensionFilter (3.6)', () => {
  const strategy =
    '  strategy:\n    type: RollingSync\n    deletionOrder: Reverse\n    rollingSync:\n      steps:\n        - matchExpressions:\n            - key: env\n              operator: In\n              values: [dev]\n';
  const text = appset(`    - list:\n        elements:\n          - name: a`, { extra: strategy });
  at('3.1', {}, (ws) =>
    assert.match(
      ws.diagnostics(text).find((d) => d.code === 'appset/unknown-field')!.message,
      /^"deletionOrder" was added in Argo CD 3\.2/,
    ),
  );
  at('3.2', {}, (ws) =>
    assert.equal(
      ws.diagnostics(text).find((d) => d.code === 'appset/unknown-field'),
      undefined,
    ),
  );
  const dir = appset(`    - list:\n        elements:\n          - name: a`).replace(
    '        path: apps\n',
    '        path: apps\n        directory:\n          disableExtensionFilter: true\n',
  );
  at('3.5', {}, (ws) =>
    assert.match(
      ws.diagnostics(dir).find((d) => d.code === 'appset/unknown-field')!.message,
      /^"disableExtensionFilter" was added in Argo CD 3\.6/,
    ),
  );
  at('3.6', {}, (ws) =>
    assert.equal(
      ws.diagnostics(dir).find((d) => d.code === 'appset/unknown-field'),
      undefined,
    ),
  );
});

test("docs/versions.md's tables are the data's: every gate, the fields per release, the libraries per patch run", () => {
  const doc = readFileSync(VERSIONS_DOC, 'utf8');
  for (const name of ['gates', 'fields', 'libraries'])
    assert.ok(doc.includes(`<!-- generated: ${name} -->`), `docs/versions.md has the ${name} table`);
  assert.equal(withVersionTables(doc), doc, 'run: node --import tsx scripts/versions-tables.ts');
  // Each row, as a reader finds it.
  for (const [id, g] of Object.entries(GATES)) assert.ok(doc.includes(`| ${g.since} | ${g.what} |`), `docs/versions.md row for ${id}`);
  assert.ok(doc.includes('| 2.14.0–2.14.13 | 1.23.3 |'), 'the Go 1.23 patches of 2.14');
});

test('a field the target does not know gets one finding, not also the checks of its value', () => {
  const strategy = '  strategy:\n    type: AllAtOnce\n    deletionOrder: Revers\n';
  const patch = '  templatePatch: "- not a mapping"\n';
  const text = appset(`    - list:\n        elements:\n          - name: a`, { extra: strategy + patch });
  const codes = (v: string) =>
    at(v, {}, (ws) =>
      ws
        .diagnostics(text)
        .map((d) => d.code)
        .filter((c) => c.startsWith('appset/'))
        .sort(),
    );
  assert.deepEqual(codes('2.9'), ['appset/unknown-field', 'appset/unknown-field']);
  assert.deepEqual(codes('3.1'), ['appset/template-patch-syntax', 'appset/unknown-field']);
  assert.deepEqual(codes('3.2'), ['appset/deletion-order', 'appset/template-patch-syntax']);
});

test('2.4–2.7 are releases of their own: the fields 2.5–2.8 added are flagged for them, and older installs are checked as 2.4', () => {
  assert.deepEqual(
    data.fieldsAddedIn['2.8'].filter((f) => ['goTemplateOptions', 'generators.[].plugin'].includes(f)),
    ['generators.[].plugin', 'goTemplateOptions'],
  );
  const text = appset(`    - list:\n        elements:\n          - name: a`, {
    goTemplate: true,
    extra: '  goTemplateOptions: ["missingkey=error"]\n',
    name: '{{ .name }}-{{ .nope }}',
  });
  const unknown = (ws: ReturnType<typeof workspace>, t = text) =>
    ws
      .diagnostics(t)
      .filter((d) => d.code === 'appset/unknown-field')
      .map((d) => d.message);
  at('v2.7.3', {}, (ws) => {
    const [msg, ...more] = unknown(ws);
    assert.equal(more.length, 0);
    assert.equal(
      msg,
      '"goTemplateOptions" was added in Argo CD 2.8: Argo CD 2.7.3\'s API server drops it without a word, so it has no effect. Checked against Argo CD 2.7.3 (set by argocdVersion "v2.7.3").',
    );
    // Pruned before expansion: without missingkey=error the missing key prints "<no value>".
    assert.deepEqual(names(ws.expand(text)), ['a-<no value>']);
  });
  at('2.8', {}, (ws) => {
    assert.deepEqual(unknown(ws), []);
    assert.match(ws.expand(text).problems[0].message, /map has no entry for key "nope"/);
  });
  // 2.4 has no goTemplate (2.5) and no strategy (2.6): both flagged, and the template renders as fasttemplate.
  const strategy = '  strategy:\n    type: AllAtOnce\n';
  const old = appset(`    - list:\n        elements:\n          - name: a`, { goTemplate: true, extra: strategy, name: '{{name}}' });
  at('2.4', {}, (ws) => {
    const msgs = unknown(ws, old);
    assert.equal(msgs.length, 2, msgs.join('\n'));
    assert.ok(msgs.some((m) => m.startsWith('"goTemplate" was added in Argo CD 2.5: Argo CD 2.4\'s API server drops it')));
    assert.ok(msgs.some((m) => m.startsWith('"strategy" was added in Argo CD 2.6')));
    assert.deepEqual(names(ws.expand(old)), ['a']);
  });
  at('2.6', {}, (ws) => assert.deepEqual(unknown(ws, old), []));
  // Older than 2.4 (no ApplicationSet CRD in argo-cd before it): checked as 2.4.
  at('v2.3.2', {}, (ws) =>
    assert.match(unknown(ws, old)[0], /Checked against Argo CD 2\.4 \(set by argocdVersion "v2\.3\.2", older than 2\.4/),
  );
  // Detected from the repository: a kustomize remote base pinned to v2.6.15.
  const files = {
    'argocd/kustomization.yaml': 'resources:\n  - https://github.com/argoproj/argo-cd//manifests/cluster-install?ref=v2.6.15\n',
  };
  const ws = workspace(files, { repoMappings: { 'https://example.com/config.git': '.' } });
  try {
    assert.match(unknown(ws)[0], /^"goTemplateOptions" was added in Argo CD 2\.8: Argo CD 2\.6\.15's API server/);
  } finally {
    ws.close();
  }
});

test('a template error only the target release makes names the release that behaves otherwise and how the target was chosen', () => {
  const list = `    - list:\n        elements:\n          - name: a`;
  const first = (v: string, name: string) =>
    at(v, {}, (ws) => ws.expand(appset(list, { goTemplate: true, name })).problems[0]?.message ?? '');
  assert.match(
    first('2.12', '{{ sha512sum .name }}'),
    /function "sha512sum" not defined \("sha512sum" exists since Argo CD 2\.13; checked against Argo CD 2\.12 \(set by argocdVersion "2\.12"\)\) — so no Application is generated from this template$/,
  );
  assert.match(
    first('v2.9.0', '{{ .name | toYaml }}'),
    /\("toYaml" exists since Argo CD 2\.9\.1; checked against Argo CD 2\.9\.0 \(set by argocdVersion "v2\.9\.0"\)\) — so no Application is generated from this template$/,
  );
  assert.match(first('3.5', 'x{{ tpl `{{ .name }}` . }}'), /\("tpl" exists since Argo CD 3\.6; checked against Argo CD 3\.5/);
  assert.match(
    first('v2.14.13', 'n{{ range 2 }}{{ . }}{{ end }}'),
    /range can't iterate over 2 \(ranging over an integer needs Go 1\.24, which builds Argo CD 2\.14\.14 and newer; checked against Argo CD 2\.14\.13 \(set by argocdVersion "v2\.14\.13"\)\)$/,
  );
  // An error every release makes says nothing about versions.
  assert.doesNotMatch(first('2.12', '{{ nosuchfn .name }}'), /checked against/);
  // The default target says why it was chosen.
  const ws = workspace({}, { repoMappings: { 'https://example.com/config.git': '.' } });
  try {
    assert.equal(
      ws.expand(appset(list, { goTemplate: true, name: '{{ tpl `{{ .name }}` . }}' })).problems.length,
      0,
      'the default (3.6) has tpl',
    );
  } finally {
    ws.close();
  }
});

test('hovers over gated fields and template functions say since when, and whether the target has them', () => {
  const text = appset(`    - list:\n        elements:\n          - name: a`, {
    goTemplate: true,
    name: 'x{{ tpl `{{ .name }}` . }}',
  }).replace('        path: apps\n', '        path: apps\n        directory:\n          disableExtensionFilter: true\n');
  const fnAt = text.indexOf('tpl `') + 1;
  const fieldAt = text.indexOf('disableExtensionFilter') + 2;
  at('3.6', {}, (ws) => {
    const fn = ws.hover(text, fnAt)!;
    assert.match(fn, /\*\*tpl\*\* — template function/);
    assert.match(fn, /Since Argo CD 3\.6\./);
    assert.doesNotMatch(fn, /Not defined/);
    assert.match(ws.hover(text, fieldAt)!, /Since Argo CD 3\.6\./);
    const items = ws.completions(text, fnAt - 1).map((c) => c.label);
    assert.ok(items.includes('tpl'), 'tpl is offered for 3.6');
  });
  at('3.5', {}, (ws) => {
    assert.match(
      ws.hover(text, fnAt)!,
      /Not defined in the release this ApplicationSet is checked against: Argo CD 3\.5 \(set by argocdVersion "3\.5"\)\./,
    );
    assert.match(
      ws.hover(text, fieldAt)!,
      /Unknown to the release this ApplicationSet is checked against, whose API server drops it: Argo CD 3\.5/,
    );
    const items = ws.completions(text, fnAt - 1).map((c) => c.label);
    assert.ok(items.includes('toYaml') && !items.includes('tpl'), 'a function the target lacks is not offered');
  });
  at('2.12', {}, (ws) => {
    const items = ws.completions(text, fnAt - 1).map((c) => c.label);
    assert.ok(!items.includes('sha512sum') && items.includes('slugify'));
  });
});

test(`gate ${GATES.deletionOrderFinalizerAdded.since}: in 3.2, deletionOrder: Reverse needs the resources finalizer on the ApplicationSet`, () => {
  const strategy =
    '  strategy:\n    type: RollingSync\n    deletionOrder: Reverse\n    rollingSync:\n      steps:\n        - matchExpressions:\n            - key: name\n              operator: In\n              values: [a]\n';
  const text = appset(`    - list:\n        elements:\n          - name: a`, { extra: strategy });
  const withFinalizer = text.replace(
    '  namespace: argocd\n',
    '  namespace: argocd\n  finalizers:\n    - resources-finalizer.argocd.argoproj.io\n',
  );
  const on = { 'argocd/cmd-params.yaml': cmdParamsCm('true', 'argocd') };
  const trap = (v: string, t: string, files: Record<string, string> = on) =>
    at(v, files, (ws) => ws.diagnostics(t).filter((d) => d.code === 'rollout/deletion-order-finalizer'));
  const [d, ...more] = trap('3.2', text);
  assert.equal(more.length, 0);
  assert.match(
    d.message,
    /^Deleting this ApplicationSet deletes all its Applications at once, not in reverse step order: Argo CD 3\.2 deletes in reverse only when the ApplicationSet has the resources-finalizer\.argocd\.argoproj\.io finalizer, and metadata\.finalizers lacks it \(from Argo CD 3\.3 on the controller adds it itself\)\. Checked against Argo CD 3\.2/,
  );
  assert.equal(text.slice(d.start, d.end), 'Reverse');
  assert.deepEqual(trap('3.2', withFinalizer), [], 'the finalizer is there');
  assert.deepEqual(trap('3.3', text), [], '3.3 adds it');
  assert.deepEqual(trap('3.2', text, {}), [], 'progressive syncs off: the strategy is ignored (said elsewhere)');
});

test(`gate ${GATES.rollingSyncRefresh.since}: the first step's hover, the strategy's and the timeline describe the refresh gate (once per change, at least 30 s, no upper bound; PR #27467)`, () => {
  const step = (v: string) =>
    `        - matchExpressions:\n            - key: name\n              operator: In\n              values: [${v}]\n`;
  const strategy = `  strategy:\n    type: RollingSync\n    rollingSync:\n      steps:\n${step('a')}${step('b')}`;
  const text = appset(`    - list:\n        elements:\n          - name: a\n          - name: b`, { extra: strategy });
  const stepAt = text.indexOf('- matchExpressions') + 2;
  const step2At = text.lastIndexOf('- matchExpressions') + 2;
  const strategyAt = text.indexOf('strategy:') + 1;
  at('3.5', {}, (ws) => {
    assert.match(ws.hover(text, stepAt)!, /the next step starts when all \d+ are Healthy\.$/m);
    assert.doesNotMatch(ws.hover(text, strategyAt)!, /refresh/i);
  });
  at('3.6', {}, (ws) => {
    const gate =
      /on a change to Applications that exist \(not for a new ApplicationSet\), the controller first waits at least --refresh-grace-period-seconds \(30 s by default, a minimum\) after the latest change, then, with no upper bound, until every Application of the ApplicationSet has reconciled since it .*; once per change, not before each step/;
    const first = ws.hover(text, stepAt)!;
    assert.match(first, /the next step starts when all \d+ are Healthy\. Before this step: on a change/);
    assert.match(first, gate);
    assert.doesNotMatch(ws.hover(text, step2At)!, /refresh/i, 'the second step is not held by it');
    assert.match(ws.hover(text, strategyAt)!, /Refresh gate: on a change/);
    assert.match(ws.hover(text, strategyAt)!, gate);
    assert.doesNotMatch(ws.hover(text, strategyAt)!, /before each step the controller|up to 30 s/i);
  });
});
