/**
 * Generator semantics checked against Argo CD's Go code and tests (cited per test): error texts as
 * the controller wraps them, nesting limits, git file parsing and directory listing, Go path.Match,
 * parameter shapes of flatList / pathParamPrefix / values, and where each parameter set came from.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, secret, secrets, workspace, workspaceFor } from '../../generators-helpers';
import { cleanGitPath, goPathMatcher } from '../../../../server/src/engine/generators/gitPatterns';
import { goJSON } from '../../../../server/src/engine/generators/goJson';
import { GoStringMap } from '@appset-tools/gotemplate';

const names = (e: { apps: { name: string }[] }) => e.apps.map((a) => a.name).sort();
const errors = (e: { problems: { severity: string; message: string }[] }) =>
  e.problems.filter((p) => p.severity === 'error').map((p) => p.message);

const gitAppset = (gen: string, opts: { goTemplate?: boolean; name?: string } = {}) => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: g, namespace: argocd}
spec:
  goTemplate: ${opts.goTemplate ? 'true' : 'false'}
  generators:
    - git:
        repoURL: https://example.com/r.git
        revision: HEAD
${gen}
  template:
    metadata: {name: '${opts.name ?? 'x'}'}
    spec:
      project: default
      destination: {server: https://kubernetes.default.svc, namespace: x}
`;
const repoMap = { repoMappings: { 'https://example.com/r.git': 'repo' } };

test('matrix: child errors are wrapped like matrix.go getParams/GenerateParams', (t) => {
  const ws = workspaceFor(t);
  const first = ws.expand(
    appset(`    - matrix:\n        generators:\n          - list: {elements: [{a: 1}]}\n          - list: {elements: [{b: x}]}`),
  );
  assert.deepEqual(errors(first), [
    'error failed to get params for first generator in matrix generator: child generator returned an error on parameter generation: error parsing value as string %!w(<nil>)',
  ]);
  const conflict = ws.expand(
    appset(`    - matrix:\n        generators:\n          - list: {elements: [{env: dev}]}\n          - list: {elements: [{env: prod}]}`),
  );
  assert.deepEqual(errors(conflict), [
    'failed to combine string maps with merging params for the matrix generator: found duplicate key env with different value, a: dev ,b: prod',
  ]);
  const none = ws.expand(
    appset(`    - matrix:\n        generators:\n          - list: {elements: [{a: x}]}\n          - selector: {matchLabels: {a: x}}`),
  );
  assert.deepEqual(errors(none), [
    'failed to get params for second generator in the matrix generator: child generator generated no parameters',
  ]);
  const two = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - list: {elements: [{a: x}]}\n            clusters: {}\n          - list: {elements: [{b: y}]}`,
    ),
  );
  assert.deepEqual(errors(two), [
    'error failed to get params for first generator in matrix generator: found more than one generator in matrix.Generators',
  ]);
});

test('matrix/merge nested in a matrix may only hold terminal generators (ApplicationSetTerminalGenerator, research §1.2)', (t) => {
  const ws = workspaceFor(t);
  const two = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - matrix:\n              generators:\n                - list: {elements: [{a: x}]}\n                - list: {elements: [{b: y}, {b: z}]}\n          - list: {elements: [{c: w}]}`,
      { name: '{{a}}-{{b}}-{{c}}' },
    ),
  );
  assert.deepEqual(names(two), ['x-y-w', 'x-z-w'], 'two levels work');
  const three = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - matrix:\n              generators:\n                - matrix:\n                    generators:\n                      - list: {elements: [{a: x}]}\n                      - list: {elements: [{b: y}]}\n                - list: {elements: [{b: z}]}\n          - list: {elements: [{c: w}]}`,
    ),
  );
  assert.equal(three.apps.length, 0);
  assert.deepEqual(errors(three), [
    'error failed to get params for first generator in matrix generator: child generator returned an error on parameter generation: error failed to get params for first generator in matrix generator: child generator generated no parameters',
  ]);
});

test('merge: children run first, then the merge keys are checked; errors wrapped like merge.go', (t) => {
  const ws = workspaceFor(t);
  const noKeys = ws.expand(
    appset(`    - merge:\n        generators:\n          - list: {elements: [{name: a}]}\n          - list: {elements: [{name: a}]}`),
  );
  assert.deepEqual(errors(noKeys), ['error getting param sets by merge key: no merge keys were specified, Merge requires at least one']);
  const bad = ws.expand(
    appset(
      `    - merge:\n        mergeKeys: [name]\n        generators:\n          - list: {elements: [{name: a}]}\n          - list: {elements: [{name: 1}]}`,
    ),
  );
  assert.deepEqual(errors(bad), [
    'error getting param sets from generators: error getting params from generator 2 of 2: child generator returned an error on parameter generation: error parsing value as string %!w(<nil>)',
  ]);
});

test('merge key JSON is Go json.Marshal: sorted keys, HTML characters escaped (merge.go getParamSetsByMergeKey)', () => {
  assert.equal(goJSON({ b: 'x<y', a: 1.5, c: null }), '{"a":1.5,"b":"x\\u003cy","c":null}');
  assert.equal(
    goJSON(
      new GoStringMap([
        ['z', '1'],
        ['a', '&'],
      ]),
    ),
    '{"a":"\\u0026","z":"1"}',
  );
  const ws = workspace();
  try {
    const e = ws.expand(
      appset(
        `    - merge:\n        mergeKeys: [server, name]\n        generators:\n          - list: {elements: [{name: a, server: s}, {name: a, server: s}]}\n          - list: {elements: [{name: a}]}`,
      ),
    );
    assert.match(errors(e)[0], /Duplicate key was \{"name":"a","server":"s"\}$/);
  } finally {
    ws.close();
  }
});

test('merge in goTemplate deep-merges nested maps, later child wins (merge_test.go TestMergeGenerate)', (t) => {
  const ws = workspaceFor(t);
  const e = ws.expand(
    appset(
      `    - merge:\n        mergeKeys: [name]\n        generators:\n          - list: {elements: [{name: a, v: {x: "1", y: "1"}}, {name: b, v: {x: "1"}}]}\n          - list: {elements: [{name: a, v: {y: "2"}}]}`,
      { goTemplate: true, name: '{{ .name }}-{{ .v.x }}-{{ .v.y }}' },
    ),
  );
  assert.deepEqual(names(e), ['a-1-2', 'b-1-<no value>']);
});

test('matrix: the second child is interpolated; interpolation errors are wrapped (utils.go RenderGeneratorParams)', (t) => {
  const ws = workspaceFor(t);
  const ok = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - list: {elements: [{env: dev, n: "2"}]}\n          - list:\n              elements: [{svc: '{{ .env }}-api'}]`,
      { goTemplate: true, name: '{{ .svc }}' },
    ),
  );
  assert.deepEqual(names(ok), ['dev-api']);
  const bad = ws.expand(
    appset(
      `    - matrix:\n        generators:\n          - list: {elements: [{env: dev}]}\n          - list:\n              elements: [{svc: '{{ .env | nosuch }}'}]`,
      { goTemplate: true, name: '{{ .svc }}' },
    ),
  );
  assert.match(
    errors(bad)[0],
    /^failed to get params for second generator in the matrix generator: child generator returned an error on parameter generation: failed to replace parameters in generator: failed to parse template .*function "nosuch" not defined/,
  );
});

test('git files: empty file, scalar file, list file and prefix (git_test.go Test_generateParamsFromGitFile)', (t) => {
  const ws = workspaceFor(
    t,
    {
      'repo/path/dir/file_name.yaml': '',
      'repo/lists/many.yaml': '- {name: one}\n- {name: two}\n',
      'repo/bad/scalar.yaml': 'this is not json or yaml',
      'repo/bad2/list.yaml': '- a\n- b\n',
      'repo/top.yaml': 'foo:\n  bar: baz\n',
    },
    repoMap,
  );
  const empty = ws.expand(gitAppset(`        files: [{path: "path/dir/file_name.yaml"}]`, { name: '{{path.basename}}' }));
  assert.deepEqual(empty.apps[0].params, {
    path: 'path/dir',
    'path.basename': 'dir',
    'path.filename': 'file_name.yaml',
    'path.basenameNormalized': 'dir',
    'path.filenameNormalized': 'file-name.yaml',
    'path[0]': 'path',
    'path[1]': 'dir',
  });
  const prefixed = ws.expand(gitAppset(`        pathParamPrefix: myRepo\n        files: [{path: "top.yaml"}]`, { name: '{{foo.bar}}' }));
  assert.deepEqual(prefixed.apps[0].params, {
    'foo.bar': 'baz',
    'myRepo.path': '.',
    'myRepo.path.basename': '.',
    'myRepo.path.filename': 'top.yaml',
    'myRepo.path.basenameNormalized': '',
    'myRepo.path.filenameNormalized': 'top.yaml',
    'myRepo.path[0]': '.',
  });
  const goPrefixed = ws.expand(
    gitAppset(`        pathParamPrefix: myRepo\n        files: [{path: "top.yaml"}]`, {
      goTemplate: true,
      name: '{{ .foo.bar }}-{{ .myRepo.path.filename }}',
    }),
  );
  assert.deepEqual(names(goPrefixed), ['baz-top.yaml']);
  const many = ws.expand(gitAppset(`        files: [{path: "lists/many.yaml"}]`, { name: '{{name}}' }));
  assert.deepEqual(names(many), ['one', 'two']);
  const scalar = ws.expand(gitAppset(`        files: [{path: "bad/scalar.yaml"}]`));
  assert.match(
    errors(scalar)[0],
    /^error generating params from git: unable to process file 'bad\/scalar.yaml' from repository 'https:\/\/example.com\/r.git': unable to parse file: /,
  );
  const list = ws.expand(gitAppset(`        files: [{path: "bad2/list.yaml"}]`));
  assert.equal(list.apps.length, 0, 'a list of scalars is not a list of objects');
  assert.match(errors(list)[0], /unable to parse file/);
});

test('git directories: depth-first byte order, hidden and file-less directories left out (repository.go GetGitDirectories)', (t) => {
  const ws = workspaceFor(
    t,
    { 'repo/a/b/f': 'x', 'repo/a-c/f': 'x', 'repo/a/f': 'x', 'repo/.hidden/x/f': 'x', 'repo/empty/sub/.keep-not': '' },
    repoMap,
  );
  require('node:fs').mkdirSync(require('node:path').join(ws.dir, 'repo/void/deeper'), { recursive: true });
  const e = ws.expand(gitAppset(`        directories: [{path: "*"}, {path: "*/*"}]`, { name: '{{path.basenameNormalized}}' }));
  assert.deepEqual(
    e.apps.map((a) => a.params.path),
    ['a', 'a/b', 'a-c', 'empty', 'empty/sub'],
    'void/ has no file; .hidden is skipped',
  );
  const excl = ws.expand(gitAppset(`        directories: [{path: "a*", exclude: true}, {path: "*"}]`, { name: '{{path}}' }));
  assert.deepEqual(names(excl), ['empty'], 'exclude wins whatever the order');
  const bad = ws.expand(gitAppset(`        directories: [{path: "[]a]"}, {path: "a"}]`, { name: '{{path}}' }));
  assert.deepEqual(names(bad), ['a']);
  assert.ok(bad.problems.some((p) => p.code === 'generator/bad-pattern'));
});

test('Go path.Match semantics for directory patterns (path/match.go), on paths cleaned as git does', () => {
  // The pattern's path is cleaned first (./, a/../b, //); .. above the root is outside the repository.
  assert.equal(cleanGitPath('./clusters.json'), 'clusters.json');
  assert.equal(cleanGitPath('./a/../b//c/*.json'), 'b/c/*.json');
  assert.equal(cleanGitPath('apps/./'), 'apps/');
  assert.equal(cleanGitPath('../x.json'), undefined);
  assert.equal(cleanGitPath('a/../../x.json'), undefined);
  const m = (p: string, s: string) => {
    const f = goPathMatcher(p);
    return f === undefined ? 'bad' : f(s);
  };
  assert.equal(m('apps/*', 'apps/a'), true);
  assert.equal(m('apps/*', 'apps/a/b'), false, '* does not cross /');
  assert.equal(m('*/*', 'p1/p2'), true);
  assert.equal(m('a?c', 'abc'), true);
  assert.equal(m('a?c', 'a/c'), false);
  assert.equal(m('a[b-d]e', 'ace'), true);
  assert.equal(m('a[^b-d]e', 'aee'), true);
  assert.equal(m('a[^b-d]e', 'ace'), false);
  assert.equal(m('a[^x]b', 'a/b'), true, 'a class can match / in path.Match');
  assert.equal(m('a\\*b', 'a*b'), true);
  assert.equal(m('a\\*b', 'axb'), false);
  assert.equal(m('[z-a]', 'q'), false, 'a reversed range is legal and matches nothing');
  for (const bad of ['[]a]', '[-]', '[a-]', 'a[', 'a\\', '[^]']) assert.equal(m(bad, 'a'), 'bad', bad);
  assert.equal(m('**', 'a/b'), false, 'no ** in path.Match');
});

test('clusters: flatList wraps every cluster (values included) in one parameter set (cluster.go paramHolder)', (t) => {
  const ws = workspaceFor(t, {
    'c.yaml': secrets(secret('c1', 'https://c1', { env: 'prod' }), secret('c2', 'https://c2', { env: 'prod' })),
  });
  const e = ws.expand(
    appset(
      `    - clusters:\n        flatList: true\n        selector: {matchLabels: {env: prod}}\n        values: {suffix: '{{ .name }}-x'}`,
      { goTemplate: true, name: 'all-{{ len .clusters }}-{{ (index .clusters 1).values.suffix }}' },
    ),
  );
  assert.deepEqual(names(e), ['all-2-c2-x']);
});

test('values: errors are wrapped per generator (cluster.go, value_interpolation.go)', (t) => {
  const ws = workspaceFor(t, { 'c.yaml': secret('c1', 'https://c1', { env: 'prod' }) });
  const e = ws.expand(
    appset(`    - clusters:\n        selector: {matchLabels: {env: prod}}\n        values: {x: '{{ nosuch }}'}`, { goTemplate: true }),
  );
  assert.match(
    errors(e)[0],
    /^error appending templated values for cluster: failed to replace templated string: failed to replace templated string with rendered values: failed to parse template \{\{ nosuch \}\}: /,
  );
});

test('live generators: samples from the inventory, values appended (clusterDecisionResource values untemplated, duck_type.go)', () => {
  const inv = `apiVersion: appset-tools/v1
kind: ClusterInventory
samples:
  pullRequest:
    - {number: "42", branch: feat/x, branch_slug: feat-x}
  clusterDecisionResource:
    - {name: c1, server: https://c1}
`;
  const ws = workspace({ 'inventory.yaml': inv });
  try {
    const pr = ws.expand(
      appset(`    - pullRequest:\n        github: {owner: o, repo: r}\n        values: {env: 'pr-{{number}}'}`, {
        name: '{{branch_slug}}-{{values.env}}',
      }),
    );
    assert.deepEqual(names(pr), ['feat-x-pr-42']);
    assert.equal(pr.exact, false);
    assert.ok(pr.problems.some((p) => p.code === 'generator/live-data'));
    const cdr = ws.expand(
      appset(`    - clusterDecisionResource:\n        configMapRef: cm\n        values: {raw: '{{name}}'}`, { name: '{{name}}' }),
    );
    assert.equal(cdr.apps[0].params['values.raw'], '{{name}}');
  } finally {
    ws.close();
  }
});

test('repoURL forms (https, scp-like ssh, ssh with port, credentials, .git, trailing slash) name one checkout', () => {
  const { normalizeRepoURL } =
    require('../../../../server/src/engine/generators/git') as typeof import('../../../../server/src/engine/generators/git');
  const forms = [
    'https://github.com/argoproj/argo-cd.git',
    'git@github.com:argoproj/argo-cd.git',
    'ssh://git@github.com:22/argoproj/argo-cd',
    'https://user:tok@GitHub.com/argoproj/argo-cd/',
    'git+ssh://git@github.com/argoproj/argo-cd.git',
  ];
  assert.deepEqual(new Set(forms.map(normalizeRepoURL)), new Set(['github.com/argoproj/argo-cd']));
  assert.notEqual(normalizeRepoURL('https://github.com/argoproj/argo-cd-other'), normalizeRepoURL(forms[0]));
  const ws = workspace({ 'checkout/apps/a/f': 'x' }, { repoMappings: { 'git@example.com:team/r.git': 'checkout' } });
  try {
    const e = ws.expand(
      gitAppset(`        directories: [{path: "apps/*"}]`, { name: '{{path.basename}}' }).replace(
        'https://example.com/r.git',
        'https://example.com/team/r',
      ),
    );
    assert.deepEqual(names(e), ['a']);
  } finally {
    ws.close();
  }
});

test('list: null elements are empty parameter sets; elementsYaml is appended unchecked and decode errors keep Go text (list.go)', (t) => {
  const ws = workspaceFor(t);
  const nul = ws.expand(appset(`    - list:\n        elements:\n          - name: a\n          - null`, { name: 'fixed-{{name}}' }));
  assert.deepEqual(names(nul), ['fixed-a', 'fixed-{{name}}'], 'the empty set is not rendered at all');
  const yaml = ws.expand(
    appset(
      `    - list:\n        elements: [{name: a}]\n        elementsYaml: |\n          - name: b\n            replicas: 3\n          - name: c`,
      { name: '{{name}}' },
    ),
  );
  assert.deepEqual(names(yaml), ['a', 'b', 'c'], 'fasttemplate type rules do not apply to elementsYaml');
  const obj = ws.expand(appset(`    - list:\n        elementsYaml: "name: b"`));
  assert.deepEqual(errors(obj), [
    'error unmarshling decoded ElementsYaml error unmarshaling JSON: while decoding JSON: json: cannot unmarshal object into Go value of type []map[string]interface {}',
  ]);
  const scalar = ws.expand(appset(`    - list:\n        elementsYaml: "[a, b]"`));
  assert.deepEqual(errors(scalar), [
    'error unmarshling decoded ElementsYaml error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}',
  ]);
  const notObj = ws.expand(appset(`    - list:\n        elements: ["x"]`));
  assert.deepEqual(errors(notObj), [
    'error unmarshling list element json: cannot unmarshal string into Go value of type map[string]interface {}',
  ]);
});

test('selectors are parsed like the controller: keys must be qualified names, Exists takes no values (utils/selector.go newRequirement)', (t) => {
  const ws = workspaceFor(t, { 'c.yaml': secret('c1', 'https://c1', { env: 'prod' }) });
  const idx = ws.expand(
    appset(
      `    - git:\n        repoURL: https://nowhere/r.git\n        revision: HEAD\n        directories: [{path: "*"}]\n      selector:\n        matchLabels:\n          path[0]: apps`,
    ),
  );
  assert.match(
    errors(idx)[0],
    /^error parsing label selector: key: Invalid value: "path\[0\]": name part must consist of alphanumeric characters/,
  );
  const exists = ws.expand(
    appset(
      `    - list:\n        elements: [{name: a}]\n      selector:\n        matchExpressions:\n          - {key: name, operator: Exists, values: [a]}`,
    ),
  );
  assert.deepEqual(errors(exists), [
    'error parsing label selector: values: Invalid value: []string{"a"}: values set must be empty for exists and does not exist',
  ]);
  const op = ws.expand(
    appset(
      `    - list:\n        elements: [{name: a}]\n      selector:\n        matchExpressions:\n          - {key: name, operator: in, values: [a]}`,
    ),
  );
  assert.deepEqual(errors(op), ['error parsing label selector: "in" is not a valid pod selector operator']);
  const ok = ws.expand(
    appset(
      `    - list:\n        elements: [{name: a, url: "https://x"}, {name: b, url: "https://y"}]\n      selector:\n        matchLabels:\n          url: "https://x"`,
    ),
  );
  assert.deepEqual(names(ok), ['a'], 'post-selector values are not validated, so URLs work');
  const cluster = ws.expand(appset(`    - clusters:\n        selector:\n          matchLabels:\n            env: "https://x"`));
  assert.match(
    errors(cluster)[0],
    /^error getting cluster secrets: error converting label selector: values\[0\]: Invalid value: "https:\/\/x": a valid label must be an empty string/,
  );
});

test('the cluster selector uses the standard Kubernetes parser wording (metav1.LabelSelectorAsSelector)', (t) => {
  const ws = workspaceFor(t, { 'c.yaml': secret('c1', 'https://c1', { env: 'prod' }) });
  const e = ws.expand(
    appset(`    - clusters:\n        selector:\n          matchExpressions:\n            - {key: env, operator: Equals, values: [prod]}`),
  );
  assert.deepEqual(errors(e), [
    'error getting cluster secrets: error converting label selector: "Equals" is not a valid label selector operator',
  ]);
});
