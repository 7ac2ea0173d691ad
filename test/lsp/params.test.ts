/**
 * Parameters as first-class symbols, over LSP: go to definition from a use to the list element key,
 * the cluster Secret's name/label line, the generator's values entry and the git pattern; references;
 * rename of a list-element key; completion with valid syntax (index for dotted label keys), samples,
 * sources and functions; "did you mean" quick fixes; the Outline, folding, semantic tokens and inlay
 * hints.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  CodeActionRequest,
  HoverRequest,
  CompletionRequest,
  DefinitionRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  InlayHintRequest,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  SemanticTokensRequest,
  type CompletionItem,
  type Diagnostic,
  type DocumentSymbol,
  type Location,
  type Position,
} from 'vscode-languageserver-protocol/node';
import { applyTextEdits, startServer, type TestServer } from './client';
import { clusterSecrets } from '../helpers/clusters';
import { appsetHead, flowTemplate, LOCAL } from '../helpers/appsets';

const CLUSTERS = clusterSecrets([
  { name: 'prod-eu', secretName: 'prod-eu-secret', namespace: null, labels: { tier: 'canary' } },
  { name: 'prod-us', secretName: 'prod-us-secret', namespace: null, labels: { tier: 'high' } },
]);

const SHOP = `${appsetHead('shop', { namespace: null })}  generators:
    - matrix:
        generators:
          - clusters:
              selector:
                matchLabels:
                  argocd.argoproj.io/secret-type: cluster
              values:
                region: eu
          - list:
              elements:
                - service: cart
                - service: billing
  template:
    metadata:
      name: '{{.name}}-{{.service}}'
      labels:
        tier: '{{ .metadata.labels.tier }}'
        region: '{{.values.region}}'
    spec:
      project: default
      source:
        repoURL: https://example.com/shop.git
        path: 'services/{{.service}}'
      destination:
        server: '{{.server}}'
        namespace: shop
`;

const FAST = `${appsetHead('apps', { namespace: null, goTemplate: false })}  generators:
    - git:
        repoURL: https://example.com/apps.git
        revision: HEAD
        directories:
          - path: apps/*
${flowTemplate("'{{path.basename}}'", "repoURL: https://example.com/apps.git, path: '{{path}}'", `${LOCAL}, namespace: '{{path.basename}}'`)}`;

const FILES = `${appsetHead('envs', { namespace: null, options: '["missingkey=error"]' })}  generators:
    - git:
        repoURL: https://example.com/apps.git
        revision: HEAD
        files:
          - path: envs/*.yaml
${flowTemplate(
  "'web-{{ .env }}'",
  "repoURL: https://example.com/apps.git, path: 'web/{{ .env }}'",
  `${LOCAL}, namespace: '{{ .env }}-{{ .path.basename }}'`,
)}`;

const ELEMS = `${appsetHead('teams', { namespace: null })}  generators:
    - list:
        elementsYaml: |
          - team: red
          - team: blue
${flowTemplate("'team-{{ .team }}'", "repoURL: https://example.com/t.git, path: '{{ .team }}'", `${LOCAL}, namespace: x`)}`;

let s: TestServer;
let shopDiags: Diagnostic[];
before(async () => {
  s = await startServer(
    {
      'clusters.yaml': CLUSTERS,
      'shop.yaml': SHOP,
      'fast.yaml': FAST,
      'apps-repo/apps/web/kustomization.yaml': 'resources: []\n',
      'apps-repo/apps/api/kustomization.yaml': 'resources: []\n',
      'apps-repo/envs/dev.yaml': 'env: dev\nreplicas: 1\n',
      'apps-repo/envs/prod.yaml': 'env: prod\nreplicas: 3\n',
      'files.yaml': FILES,
      'elems.yaml': ELEMS,
    },
    { repoMappings: { 'https://example.com/apps.git': 'apps-repo' } },
  );
  shopDiags = await s.open('shop.yaml', SHOP);
  await s.open('fast.yaml', FAST);
});
after(() => s.shutdown());

/** The position of the `n`-th occurrence of `needle` in `text`, plus `delta` characters. */
function pos(text: string, needle: string, delta = 0, n = 1): Position {
  let at = -1;
  for (let i = 0; i < n; i++) at = text.indexOf(needle, at + 1);
  assert.ok(at >= 0, `${needle} not found`);
  const o = at + delta;
  const before = text.slice(0, o);
  return { line: before.split('\n').length - 1, character: o - before.lastIndexOf('\n') - 1 };
}
const lineText = (text: string, line: number) => text.split('\n')[line];
const at = (l: Location | undefined, text: string) =>
  l ? lineText(text, l.range.start.line).slice(l.range.start.character, l.range.end.character) : undefined;

async function definition(rel: string, text: string, needle: string, delta = 1): Promise<Location[]> {
  const r = await s.conn.sendRequest(DefinitionRequest.type, { textDocument: { uri: s.uriOf(rel) }, position: pos(text, needle, delta) });
  return (Array.isArray(r) ? r : r ? [r] : []) as Location[];
}

test('go to definition: a list key, a cluster Secret name and label, a values entry, a git pattern', async () => {
  const svc = await definition('shop.yaml', SHOP, '{{.service}}', 4);
  assert.deepEqual(
    svc.map((l) => at(l, SHOP)),
    ['service', 'service'],
  );
  assert.deepEqual(
    svc.map((l) => l.range.start.line),
    [17, 18],
  );

  const name = await definition('shop.yaml', SHOP, '{{.name}}', 4);
  assert.ok(name.length === 2 && name.every((l) => l.uri.endsWith('/clusters.yaml')), JSON.stringify(name));
  assert.deepEqual(name.map((l) => lineText(CLUSTERS, l.range.start.line).trim()).sort(), ['name: prod-eu', 'name: prod-us']);

  const tier = await definition('shop.yaml', SHOP, '.metadata.labels.tier', 18);
  assert.deepEqual(tier.map((l) => lineText(CLUSTERS, l.range.start.line).trim()).sort(), ['tier: canary', 'tier: high']);

  const region = await definition('shop.yaml', SHOP, '.values.region', 9);
  assert.equal(region.length, 1);
  assert.equal(at(region[0], SHOP), 'region');
  assert.equal(region[0].range.start.line, 14);

  const basename = await definition('fast.yaml', FAST, '{{path.basename}}', 3);
  assert.equal(basename.length, 1);
  assert.equal(at(basename[0], FAST), 'apps/*');
});

test('find references from a list key and from a use; rename a list key and its uses', async () => {
  const uri = s.uriOf('shop.yaml');
  const fromKey = await s.conn.sendRequest(ReferencesRequest.type, {
    textDocument: { uri },
    position: pos(SHOP, '- service: cart', 3),
    context: { includeDeclaration: false },
  });
  assert.deepEqual(
    (fromKey ?? []).map((l) => at(l, SHOP)),
    ['.service', '.service'],
  );
  const withDecl = await s.conn.sendRequest(ReferencesRequest.type, {
    textDocument: { uri },
    position: pos(SHOP, '{{.service}}', 4),
    context: { includeDeclaration: true },
  });
  assert.equal(withDecl?.length, 4);

  const prep = await s.conn.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: pos(SHOP, '{{.service}}', 5) });
  assert.ok(prep && 'placeholder' in prep && prep.placeholder === 'service', JSON.stringify(prep));
  const edit = await s.conn.sendRequest(RenameRequest.type, {
    textDocument: { uri },
    position: pos(SHOP, '{{.service}}', 5),
    newName: 'svc',
  });
  const renamed = applyTextEdits(SHOP, edit!.changes![uri]);
  assert.match(renamed, /- svc: cart\n\s+- svc: billing/);
  assert.match(renamed, /name: '\{\{\.name\}\}-\{\{\.svc\}\}'/);
  assert.match(renamed, /path: 'services\/\{\{\.svc\}\}'/);
  assert.ok(!/\.service\b|- service:/.test(renamed), renamed);

  // A parameter from the cluster generator cannot be renamed from here.
  await assert.rejects(
    s.conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position: pos(SHOP, '{{.name}}', 4), newName: 'cluster' }),
    /cluster/,
  );
  // A new name that would not parse is refused.
  await assert.rejects(
    s.conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position: pos(SHOP, '{{.service}}', 5), newName: 'my-svc' }),
    /Go identifier/,
  );
});

async function rename(rel: string, text: string, needle: string, delta: number, newName: string) {
  const uri = s.uriOf(rel);
  const position = pos(text, needle, delta);
  const prep = await s.conn.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position });
  const edit = await s.conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position, newName });
  return { prep, changes: edit?.changes ?? {} };
}

test('rename a values entry, a git file key (in the files) and an elementsYaml key, each with its uses', async () => {
  const values = await rename('shop.yaml', SHOP, '.values.region', 9, 'area');
  assert.ok(values.prep && 'placeholder' in values.prep && values.prep.placeholder === 'region', JSON.stringify(values.prep));
  const shop = applyTextEdits(SHOP, values.changes[s.uriOf('shop.yaml')]);
  assert.match(shop, /values:\n\s+area: eu/);
  assert.match(shop, /region: '\{\{\.values\.area\}\}'/, 'the label key region is not the parameter');

  await s.open('files.yaml', FILES);
  const files = await rename('files.yaml', FILES, '{{ .env }}', 5, 'stage');
  assert.deepEqual(
    Object.keys(files.changes).sort(),
    [s.uriOf('apps-repo/envs/dev.yaml'), s.uriOf('apps-repo/envs/prod.yaml'), s.uriOf('files.yaml')].sort(),
  );
  assert.equal(applyTextEdits('env: dev\nreplicas: 1\n', files.changes[s.uriOf('apps-repo/envs/dev.yaml')]), 'stage: dev\nreplicas: 1\n');
  const renamedFiles = applyTextEdits(FILES, files.changes[s.uriOf('files.yaml')]);
  assert.equal(renamedFiles.match(/\.stage\b/g)?.length, 3);
  assert.ok(!/\.env\b/.test(renamedFiles));

  await s.open('elems.yaml', ELEMS);
  const elems = await rename('elems.yaml', ELEMS, '{{ .team }}', 5, 'squad');
  const renamedElems = applyTextEdits(ELEMS, elems.changes[s.uriOf('elems.yaml')]);
  assert.match(renamedElems, /- squad: red\n\s+- squad: blue/);
  assert.equal(renamedElems.match(/\.squad\b/g)?.length, 2);
});

test('rename refuses, with the reason, parameters decided by data outside the ApplicationSet', async () => {
  const uri = s.uriOf('fast.yaml');
  await assert.rejects(
    s.conn.sendRequest(PrepareRenameRequest.type, { textDocument: { uri }, position: pos(FAST, '{{path.basename}}', 8) }),
    /path\.basename comes from git directories pattern, which rename cannot change/,
  );
  await assert.rejects(
    s.conn.sendRequest(PrepareRenameRequest.type, { textDocument: { uri: s.uriOf('shop.yaml') }, position: pos(SHOP, '{{.name}}', 4) }),
    /\.name comes from cluster prod-(eu|us), which rename cannot change \(a cluster Secret's name, server and labels are the cluster's own\)/,
  );
});

test('field documentation on hover; the "turn on goTemplate" fix rewrites the {{name}} tags', async () => {
  await s.open('hover.yaml', FILES);
  const h = await s.conn.sendRequest(HoverRequest.type, {
    textDocument: { uri: s.uriOf('hover.yaml') },
    position: pos(FILES, 'goTemplateOptions', 2),
  });
  const md = JSON.stringify(h?.contents);
  assert.match(md, /without it a misspelt parameter silently becomes `<no value>`/);

  const MODE = FAST.replace("name: '{{path.basename}}'", "name: '{{ .path.basename }}'");
  const diags = await s.open('mode.yaml', MODE);
  const d = diags.find((x) => x.code === 'template/gotemplate-syntax');
  assert.ok(d, JSON.stringify(diags.map((x) => x.code)));
  const actions = await s.conn.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: s.uriOf('mode.yaml') },
    range: d!.range,
    context: { diagnostics: [d!] },
  });
  const on = (actions ?? []).find((a) => 'title' in a && a.title.startsWith('Turn on goTemplate'));
  assert.ok(on && 'edit' in on && on.edit, JSON.stringify(actions));
  const fixed = applyTextEdits(MODE, on!.edit!.changes![s.uriOf('mode.yaml')]);
  assert.match(fixed, /spec:\n {2}goTemplate: true\n {2}goTemplateOptions: \["missingkey=error"\]\n/);
  assert.match(fixed, /path: '\{\{ \.path\.path \}\}'/);
  assert.match(fixed, /namespace: '\{\{ \.path\.basename \}\}'/);
  const after = await s.open('mode2.yaml', fixed);
  assert.deepEqual(
    after.filter((x) => String(x.code).startsWith('template/')),
    [],
  );
});

async function complete(rel: string, text: string): Promise<{ items: CompletionItem[]; text: string }> {
  const cursor = text.indexOf('|');
  const clean = text.slice(0, cursor) + text.slice(cursor + 1);
  await s.change(rel, clean);
  const r = await s.conn.sendRequest(CompletionRequest.type, { textDocument: { uri: s.uriOf(rel) }, position: pos(clean, '', cursor) });
  return { items: (Array.isArray(r) ? r : (r?.items ?? [])) as CompletionItem[], text: clean };
}

test('completion: index for dotted label keys, samples and sources, functions with signatures', async (t) => {
  t.after(() => s.change('shop.yaml', SHOP));
  const { items, text } = await complete(
    'shop.yaml',
    SHOP.replace("tier: '{{ .metadata.labels.tier }}'", "tier: '{{ .metadata.labels.arg| }}'"),
  );
  const secretType = items.find((i) => i.filterText === '.metadata.labels.argocd.argoproj.io/secret-type');
  assert.ok(secretType, items.map((i) => i.label).join(' '));
  assert.equal(secretType.label, 'index .metadata.labels "argocd.argoproj.io/secret-type"');
  const edit = secretType.textEdit as { range: { start: Position; end: Position }; newText: string };
  assert.equal(edit.newText, 'index .metadata.labels "argocd.argoproj.io/secret-type"');
  const applied = applyTextEdits(text, [{ range: edit.range, newText: edit.newText }]);
  assert.match(applied, /tier: '\{\{ index \.metadata\.labels "argocd\.argoproj\.io\/secret-type" \}\}'/);
  const tier = items.find((i) => i.label === '.metadata.labels.tier');
  assert.match(tier?.detail ?? '', /canary · cluster prod-eu/);
  const service = items.find((i) => i.label === '.service');
  assert.match(service?.detail ?? '', /cart · list element 1/);

  const fns = (
    await complete('shop.yaml', SHOP.replace("tier: '{{ .metadata.labels.tier }}'", "tier: '{{ .metadata.labels.tier | upp| }}'"))
  ).items;
  const upper = fns.find((i) => i.label === 'upper');
  assert.equal(upper?.detail, 'upper X');
  assert.ok(fns.some((i) => i.label === 'normalize'));
  await s.change('shop.yaml', SHOP);
});

test('"did you mean" quick fixes: a misspelt parameter, fasttemplate syntax under goTemplate', async (t) => {
  t.after(() => s.change('shop.yaml', SHOP));
  const uri = s.uriOf('shop.yaml');
  const typo = SHOP.replace("path: 'services/{{.service}}'", "path: 'services/{{.servicex}}'");
  const d1 = await s.change('shop.yaml', typo);
  const missing = d1.find((d) => d.code === 'generator/missing-param' && at({ uri, range: d.range }, typo) === '.servicex');
  assert.ok(
    missing,
    JSON.stringify(d1.map((d) => [d.code, d.message])) +
      JSON.stringify(s.published('shop.yaml').map((p) => [p.version, p.diagnostics.length])),
  );
  const a1 =
    (await s.conn.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: missing.range,
      context: { diagnostics: [missing] },
    })) ?? [];
  const fix1 = a1.find((a) => a.title === 'Did you mean .service?');
  assert.ok(fix1 && 'edit' in fix1 && fix1.edit, JSON.stringify(a1.map((a) => a.title)));
  assert.match(applyTextEdits(typo, fix1.edit.changes![uri]), /path: 'services\/\{\{\.service\}\}'/);

  const mode = SHOP.replace("path: 'services/{{.service}}'", "path: 'services/{{service}}'");
  const d2 = await s.change('shop.yaml', mode);
  const fnErr = d2.find((d) => /function "service" not defined/.test(typeof d.message === 'string' ? d.message : d.message.value));
  assert.ok(fnErr, JSON.stringify(d2.map((d) => [d.code, d.message])));
  const a2 =
    (await s.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: fnErr.range, context: { diagnostics: [fnErr] } })) ??
    [];
  const fix2 = a2.find((a) => a.title.startsWith('Use .service'));
  assert.ok(fix2 && 'edit' in fix2 && fix2.edit, JSON.stringify(a2.map((a) => a.title)));
  assert.match(applyTextEdits(mode, fix2.edit.changes![uri]), /path: 'services\/\{\{\.service\}\}'/);
  await s.change('shop.yaml', SHOP);
  void shopDiags;
});

test('the Outline: the ApplicationSet, its generators with kinds and counts, template, strategy', async () => {
  const syms = (await s.conn.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: s.uriOf('shop.yaml') } })) as DocumentSymbol[];
  assert.equal(syms.length, 1);
  assert.equal(syms[0].name, 'shop');
  assert.match(syms[0].detail ?? '', /4 Applications/);
  const gens = syms[0].children!.find((c) => c.name === 'generators')!;
  const matrix = gens.children![0];
  assert.equal(matrix.name, 'matrix');
  assert.match(matrix.detail ?? '', /4 parameter sets/);
  assert.deepEqual(
    matrix.children!.map((c) => `${c.name}: ${c.detail}`),
    ['clusters: with selector · 2 parameter sets', 'list: 2 elements · 2 parameter sets'],
  );
  assert.ok(syms[0].children!.some((c) => c.name === 'template'));
});

test('folding ranges, semantic tokens for {{ }} actions, inlay hints with the first value', async () => {
  const uri = s.uriOf('shop.yaml');
  const folds = (await s.conn.sendRequest(FoldingRangeRequest.type, { textDocument: { uri } })) ?? [];
  assert.ok(
    folds.some((f) => f.startLine === 6 && f.endLine === 18),
    JSON.stringify(folds),
  );
  const tokens = await s.conn.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
  const data = tokens!.data;
  assert.ok(data.length >= 5 * 10 && data.length % 5 === 0);
  // Decode the first tokens: `{{` `.name` `}}` on the name line.
  let line = 0;
  let ch = 0;
  const decoded: string[] = [];
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    ch = data[i] ? data[i + 1] : ch + data[i + 1];
    decoded.push(lineText(SHOP, line).slice(ch, ch + data[i + 2]));
  }
  assert.deepEqual(decoded.slice(0, 6), ['{{', '.name', '}}', '{{', '.service', '}}']);
  const hints =
    (await s.conn.sendRequest(InlayHintRequest.type, {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 40, character: 0 } },
    })) ?? [];
  assert.ok(
    hints.some((h) => typeof h.label === 'string' && /^= prod-eu-(billing|cart) · \d+ of \d+ differ$/.test(h.label)),
    JSON.stringify(hints),
  );
});

test('scoped hovers: a cluster selector lists matched and unmatched clusters, a matrix child its own parameter sets', async () => {
  const uri = s.uriOf('shop.yaml');
  const hover = async (needle: string, delta = 1) => {
    const h = await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: pos(SHOP, needle, delta) });
    return h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
  };
  const sel = await hover('selector:');
  assert.match(sel, /Cluster selector: matches 2 of 2 known clusters/);
  assert.match(sel, /not a post-selector/);
  assert.match(sel, /\| ✓ \| prod-eu \|/);
  assert.doesNotMatch(sel, /Post-selector: keeps only/);
  const list = await hover('- list:', 3);
  assert.match(list, /This list child of the matrix yields 2 parameter sets/);
  assert.match(list, /element 1: `service: cart`/);
  assert.match(list, /4 Applications in all/);
  const clusters = await hover('- clusters:', 3);
  assert.match(clusters, /This clusters child of the matrix yields 2 parameter sets/);
  assert.match(clusters, /cluster `prod-us`/);
});

test('"did you mean" under missingkey=error: a misspelt parameter and a misspelt field', async (t) => {
  t.after(() => s.change('shop.yaml', SHOP));
  const uri = s.uriOf('shop.yaml');
  const strict = SHOP.replace('  goTemplate: true\n', '  goTemplate: true\n  goTemplateOptions: ["missingkey=error"]\n');
  for (const [wrong, right] of [
    ['.servicex', '.service'],
    ['.values.regon', '.values.region'],
  ]) {
    const typo = strict.replace(wrong === '.servicex' ? "path: 'services/{{.service}}'" : "region: '{{.values.region}}'", (l) =>
      l.replace(right, wrong),
    );
    assert.notEqual(typo, strict);
    const ds = await s.change('shop.yaml', typo);
    const d = ds.find((x) => at({ uri, range: x.range }, typo) === wrong);
    assert.ok(d, JSON.stringify(ds.map((x) => [x.code, x.message, at({ uri, range: x.range }, typo)])));
    const actions =
      (await s.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) ?? [];
    const fix = actions.find((a) => a.title === `Did you mean ${right}?`);
    assert.ok(fix && 'edit' in fix && fix.edit, `${d.code}: ${JSON.stringify(actions.map((a) => a.title))} ${JSON.stringify(d)}`);
    assert.ok(applyTextEdits(typo, fix.edit.changes![uri]).includes(`{{${right}}}`));
  }
});

test('issue 38: rename changes every definition of a 300-element list, not the first 200', async () => {
  const elements = Array.from({ length: 300 }, (_, i) => `          - svc: s${i}\n`).join('');
  const text = `${appsetHead('many')}  generators:
    - list:
        elements:
${elements}${flowTemplate("'many-{{.svc}}'", 'repoURL: https://example.com/x.git, path: deploy', LOCAL)}`;
  await s.open('many.yaml', text);
  const uri = s.uriOf('many.yaml');
  const position = pos(text, '{{.svc}}', 4);
  const edit = await s.conn.sendRequest(RenameRequest.type, { textDocument: { uri }, position, newName: 'service' });
  const renamed = applyTextEdits(text, edit!.changes![uri]);
  assert.equal((renamed.match(/- service: s\d+/g) ?? []).length, 300);
  assert.equal((renamed.match(/- svc:/g) ?? []).length, 0, 'no element keeps the old key');
  assert.match(renamed, /'many-\{\{\.service\}\}'/);
});
