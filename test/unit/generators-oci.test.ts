/**
 * The oci generator (Argo CD 3.6, PR #26121; applicationset/generators/oci.go, repo_path_utils.go and
 * the repo server's GetOciDirectories / GetOciFiles at argo-cd refs/pull/26121/merge, and their tests
 * oci_test.go): an artifact mapped to a local folder is read as the git generator reads a checkout,
 * with the OCI repo server's differences (every directory, doublestar file globs, "." for all files);
 * without a mapping one plain note; gated to 3.6; also as a matrix or merge child.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workspaceFor } from './generators-helpers';

const names = (e: { apps: { name: string }[] }) => e.apps.map((a) => a.name).sort();
const errors = (e: { problems: { severity: string; message: string }[] }) =>
  e.problems.filter((p) => p.severity === 'error').map((p) => p.message);

const URL = 'oci://ghcr.io/example/platform-apps';
const ociAppset = (gen: string, opts: { goTemplate?: boolean; name?: string; url?: string } = {}) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: o, namespace: argocd}
spec:
  goTemplate: ${opts.goTemplate === false ? 'false' : 'true'}
  generators:
    - oci:
        repoURL: ${opts.url ?? URL}
        revision: 1.2.0
${gen}
  template:
    metadata: {name: '${opts.name ?? '{{ .path.basename }}'}'}
    spec:
      project: default
      source: {repoURL: '${URL}', targetRevision: 1.2.0, path: '{{ .path.path }}'}
      destination: {server: https://kubernetes.default.svc, namespace: x}
`;

/** An extracted artifact: apps with files, an empty folder, a hidden one, config files. */
const ARTIFACT = {
  'artifact/apps/api/kustomization.yaml': 'resources: []\n',
  'artifact/apps/web/values.yaml': 'replicas: 1\n',
  'artifact/apps/empty/.keep-dir/x': 'hidden subtree\n',
  'artifact/.hidden/app/f.yaml': 'x: 1\n',
  'artifact/config/dev.yaml': 'env: dev\ntier: 1\n',
  'artifact/config/prod.yaml': 'env: prod\ntier: 2\n',
  'artifact/config/nested/qa.json': '{"env": "qa", "tier": 3}\n',
};
const mapped = { repoMappings: { [URL]: 'artifact' }, argocdVersion: '3.6' };

test('oci directories: path.Match over every directory of the artifact, hidden ones left out', (t) => {
  const ws = workspaceFor(t, { ...ARTIFACT, 'artifact/apps/bare/.gitkeep': '' }, mapped);
  const e = ws.expand(ociAppset(`        directories: [{path: "apps/*"}, {path: apps/web, exclude: true}]`));
  // `apps/empty` holds only a hidden folder and `apps/bare` a dotfile: the OCI repo server still lists them.
  assert.deepEqual(names(e), ['api', 'bare', 'empty']);
  assert.deepEqual(errors(e), []);
  assert.ok(e.notes.some((n) => n.includes(`mapped to ${URL}`)));
  // The lens over generators counts what it found, as for git.
  const lenses = ws.lenses(ociAppset(`        directories: [{path: "apps/*"}]`));
  assert.ok(
    lenses.some((l) => /^4 Applications · (approximate · )?4 directories/.test(l)),
    lenses.join(' | '),
  );
  const all = ws.expand(ociAppset(`        directories: [{path: "*"}]`));
  assert.deepEqual(names(all), ['apps', 'config'], '.hidden is skipped');
});

test('oci files: doublestar globs, "." means every file, excludes, keys become parameters', (t) => {
  const ws = workspaceFor(t, ARTIFACT, mapped);
  const one = ws.expand(ociAppset(`        files: [{path: "config/*.yaml"}]`, { name: '{{ .env }}-{{ .tier }}-{{ .path.filename }}' }));
  assert.deepEqual(names(one), ['dev-1-dev.yaml', 'prod-2-prod.yaml'], '`*` does not cross `/`');
  const deep = ws.expand(
    ociAppset(`        files: [{path: "config/**"}, {path: "config/prod.yaml", exclude: true}]`, {
      name: '{{ .env }}-{{ .path.basename }}',
    }),
  );
  assert.deepEqual(names(deep), ['dev-config', 'qa-nested']);
  // "." is every file of the artifact, dot-folders too (doublestar has no hidden-file rule), in
  // byte order: the first that is not a YAML/JSON object or list fails the generator, as in Argo CD.
  const every = ws.expand(ociAppset(`        files: [{path: "."}]`, { name: '{{ .path.basenameNormalized }}' }));
  assert.match(errors(every)[0], /unable to process file 'apps\/empty\/\.keep-dir\/x' from repository/);
  const yamlOnly = ws.expand(
    ociAppset(`        files: [{path: "**/*.yaml"}]`, { name: '{{ .path.basenameNormalized }}-{{ .path.filenameNormalized }}' }),
  );
  assert.deepEqual(names(yamlOnly), ['api-kustomization.yaml', 'app-f.yaml', 'config-dev.yaml', 'config-prod.yaml', 'web-values.yaml']);
  // fasttemplate: flattened keys, path[N].
  const fast = ws.expand(ociAppset(`        files: [{path: "config/nested/*.json"}]`, { goTemplate: false, name: '{{env}}-{{path[1]}}' }));
  assert.deepEqual(names(fast), ['qa-nested']);
});

test('oci: pathParamPrefix and values as for git; parse errors say "from oci"', (t) => {
  const ws = workspaceFor(t, { ...ARTIFACT, 'artifact/bad/x.yaml': '[1, 2]\n' }, mapped);
  const e = ws.expand(
    ociAppset(
      `        pathParamPrefix: art\n        values: {team: '{{ .art.path.basename }}-t'}\n        directories: [{path: "apps/a*"}]`,
      {
        name: '{{ .values.team }}',
      },
    ),
  );
  assert.deepEqual(names(e), ['api-t']);
  const bad = ws.expand(ociAppset(`        files: [{path: "bad/*.yaml"}]`));
  assert.match(
    errors(bad)[0],
    /^error generating params from oci: unable to process file 'bad\/x\.yaml' from repository 'oci:\/\/ghcr\.io\/example\/platform-apps': unable to parse file: /,
  );
});

test('oci without a mapped folder: nothing offline, one plain note at repoURL; git remotes are not taken for it', (t) => {
  const ws = workspaceFor(t, ARTIFACT, { argocdVersion: '3.6' });
  const text = ociAppset(`        directories: [{path: "apps/*"}]`);
  const e = ws.expand(text);
  assert.equal(e.apps.length, 0);
  const d = ws.diagnostics(text).filter((x) => x.code === 'generator/no-oci-artifact');
  assert.equal(d.length, 1);
  assert.match(
    d[0].message,
    /^no local copy of the OCI artifact oci:\/\/ghcr\.io\/example\/platform-apps: the oci generator yields nothing offline; map it to a folder holding the artifact's content with appsetTools\.repoMappings, repoMappings in \.appset-tools\.yaml or --repo-map oci:\/\/ghcr\.io\/example\/platform-apps=\.\/folder$/,
  );
  assert.equal(text.slice(d[0].start, d[0].end), URL);
  // A mapping to a folder that does not exist is said, not dropped.
  const missing = workspaceFor(t, {}, { repoMappings: { [URL]: 'nowhere' }, argocdVersion: '3.6' });
  assert.match(
    errors(missing.expand(text))[0],
    /sends oci:\/\/ghcr\.io\/example\/platform-apps to "nowhere", but .* is not a readable folder/,
  );
});

test('oci as a matrix and a merge child', (t) => {
  const ws = workspaceFor(t, ARTIFACT, mapped);
  const matrix = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: m, namespace: argocd}
spec:
  goTemplate: true
  generators:
    - matrix:
        generators:
          - oci:
              repoURL: ${URL}
              revision: 1.2.0
              files: [{path: "config/*.yaml"}]
          - list:
              elements: [{region: eu}, {region: us}]
  template:
    metadata: {name: '{{ .env }}-{{ .region }}'}
    spec:
      project: default
      source: {repoURL: '${URL}', targetRevision: 1.2.0, path: x}
      destination: {server: https://kubernetes.default.svc, namespace: x}
`;
  assert.deepEqual(names(ws.expand(matrix)), ['dev-eu', 'dev-us', 'prod-eu', 'prod-us']);
  const merge = matrix
    .replace('- matrix:', '- merge:\n        mergeKeys: [env]')
    .replace('elements: [{region: eu}, {region: us}]', 'elements: [{env: prod, region: us}]')
    .replace("'{{ .env }}-{{ .region }}'", '\'{{ .env }}-{{ .region | default "none" }}\'');
  assert.deepEqual(names(ws.expand(merge)), ['dev-none', 'prod-us']);
});

test('oci before Argo CD 3.6: an unknown field, dropped; the generator entry then has no generator', (t) => {
  const ws = workspaceFor(t, ARTIFACT, { ...mapped, argocdVersion: '3.5' });
  const text = ociAppset(`        directories: [{path: "apps/*"}]`);
  const d = ws.diagnostics(text).filter((x) => x.code === 'appset/unknown-field');
  assert.equal(d.length, 1);
  assert.match(d[0].message, /^"oci" was added in Argo CD 3\.6: Argo CD 3\.5's API server drops it/);
  assert.equal(ws.expand(text).apps.length, 0);
});
