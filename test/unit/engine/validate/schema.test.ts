import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appset, codes, nestedMatrix, validateText } from './helpers';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { APPSET_SCHEMA, schemaAt } from '../../../../server/src/engine/validate/schemaIndex';
import versionsData from '../../../../schemas/argocd-versions.json';

test('a minimal valid ApplicationSet has no diagnostics', () => {
  assert.deepEqual(validateText(appset('')), []);
});

test('unknown field: on the key, with a did-you-mean from the schema', () => {
  const ds = validateText(
    appset(`  strategy:
    type: RollingSync
    rollingSync:
      steps:
      - matchExpressions: []
        maxUpdates: 2
`),
  );
  assert.equal(ds.length, 1);
  assert.equal(ds[0].code, 'appset/unknown-field');
  assert.equal(ds[0].text, 'maxUpdates');
  assert.equal(ds[0].message, 'unknown field "maxUpdates" in a rollingSync step; did you mean "maxUpdate"?');
  assert.deepEqual(ds[0].data, { replacement: 'maxUpdate' });
});

test('unknown field deep in the Application template (the CRD repeats it under every generator: $ref)', () => {
  const text = appset('', {
    generators:
      '  - list:\n      elements: []\n      template:\n        metadata: {}\n        spec:\n          project: x\n          destination: {}\n          sourse: {}',
  });
  const ds = validateText(text);
  assert.deepEqual(codes(ds), ['appset/unknown-field']);
  assert.equal(ds[0].text, 'sourse');
  assert.match(ds[0].message, /did you mean "source"\?/);
});

test('wrong type: on the value, in plain words', () => {
  const ds = validateText(appset('  goTemplate: "yes"\n').replace('project: default', 'project: 12'));
  const byText = new Map(ds.map((d) => [d.text, d]));
  assert.equal(byText.get('12')?.code, 'appset/wrong-type');
  assert.equal(
    byText.get('12')?.message,
    'spec.template.spec.project: expected a string, got the number 12 (quote it to make it a string)',
  );
  assert.equal(
    byText.get('"yes"')?.message,
    'spec.goTemplate: expected true or false, got the string "yes" (write true or false without quotes)',
  );
});

test('x-kubernetes-int-or-string: integers and strings pass, other types get the int-or-string message', () => {
  const step = (v: string) => appset(`  strategy:\n    type: RollingSync\n    rollingSync:\n      steps:\n      - maxUpdate: ${v}\n`);
  assert.deepEqual(validateText(step('3')), []);
  assert.deepEqual(validateText(step('"25%"')), []);
  const ds = validateText(step('[1]'));
  assert.equal(ds.length, 1);
  assert.equal(ds[0].message, 'spec.strategy.rollingSync.steps[0].maxUpdate: expected an integer or a string like "25%", got a list');
});

test('missing required field: on the parent key', () => {
  const text = appset('').replace('      project: default\n', '');
  const ds = validateText(text);
  assert.equal(ds.length, 1);
  assert.equal(ds[0].code, 'appset/missing-field');
  assert.equal(ds[0].message, 'missing required field "project" in spec.template.spec');
  assert.equal(ds[0].text, 'spec');
  assert.equal(text.slice(0, ds[0].span.start).split('\n').length, 13); // the template's spec: line
});

test('null values count as absent (the API server drops them); a required one is reported on its key', () => {
  assert.deepEqual(validateText(appset('  templatePatch:\n  strategy:\n')), []);
  const ds = validateText(appset('').replace(/  template:[\s\S]*$/, '  template:\n'));
  assert.equal(ds.length, 1);
  assert.equal(ds[0].message, '"template" in spec is required but empty');
  assert.equal(ds[0].text, 'template');
});

test('enum values of the CRD, with suggestion', () => {
  const ds = validateText(appset('  syncPolicy:\n    applicationsSync: create-delet\n'));
  assert.equal(ds.length, 1);
  assert.equal(ds[0].code, 'appset/invalid-value');
  assert.match(ds[0].message, /expected one of create-only, create-update, create-delete, sync; did you mean "create-delete"\?/);
});

test('disableExtensionFilter (newer than v3.5.1) is accepted on directory sources', () => {
  const text = appset('').replace(
    '        path: apps\n',
    '        path: apps\n        directory:\n          recurse: true\n          disableExtensionFilter: true\n',
  );
  assert.deepEqual(validateText(text), []);
});

test('nested matrix children are validated as terminal generators', () => {
  const gens = nestedMatrix(`          - list:
              elements: []
              elementz: []
          - clusters: {}
`);
  const ds = validateText(appset('', { generators: gens }));
  assert.deepEqual(codes(ds), ['appset/unknown-field']);
  assert.equal(ds[0].text, 'elementz');
});

test('generated schema is small and deduplicated', () => {
  const size = JSON.stringify(APPSET_SCHEMA).length;
  assert.ok(size < 40_000, `schema is ${size} bytes`);
  assert.ok(Object.keys(APPSET_SCHEMA.$defs).includes('applicationTemplate'));
});

test('the schema file is up to date with schemas/generate.mjs (when the v3.5.1 CRD is available)', (t) => {
  const repo = path.resolve(__dirname, '..', '..', '..', '..');
  const crd = path.resolve(repo, '..', 'shared', 'argocd-data', 'applicationset-crd-v3.5.1.yaml');
  if (!fs.existsSync(crd)) return t.skip('../shared/argocd-data is not available');
  const before = fs.readFileSync(path.join(repo, 'schemas', 'applicationset.schema.json'), 'utf8');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-'));
  fs.copyFileSync(path.join(repo, 'schemas', 'generate.mjs'), path.join(tmp, 'generate.mjs'));
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(tmp, 'node_modules'));
  cp.execFileSync(process.execPath, [path.join(tmp, 'generate.mjs'), crd], { stdio: 'pipe' });
  // The committed schema is generated from the 3.6/master CRD (schemas/argocd-versions.mjs): the v3.5.1
  // CRD gives the same schema without the fields 3.6 added, under another title.
  const addedInMaster = new Set<string>(versionsData.fieldsAddedIn['3.6'].map((s: string) => s.split('.').pop()!));
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (k !== 'title') o[k] = strip(x);
      const props = o.properties as Record<string, unknown> | undefined;
      if (props) for (const k of addedInMaster) delete props[k];
      return o;
    }
    return v;
  };
  assert.deepEqual(strip(JSON.parse(fs.readFileSync(path.join(tmp, 'applicationset.schema.json'), 'utf8'))), strip(JSON.parse(before)));
});

// Moved from the versions test: the compiled schema is the newest CRD, so it holds every field that some release added.
test('the compiled schema is the newest CRD: it holds the fields later releases added', () => {
  assert.match(String(APPSET_SCHEMA.title), /applicationset-crd-master\.yaml/);
  assert.ok(schemaAt(['spec', 'templatePatch']), 'templatePatch');
  assert.ok(schemaAt(['spec', 'strategy', 'deletionOrder']), 'deletionOrder');
  assert.ok(schemaAt(['spec', 'template', 'spec', 'source', 'directory', 'disableExtensionFilter']), 'disableExtensionFilter (3.6)');
  assert.ok(schemaAt(['spec', 'generators', 0, 'oci', 'repoURL']), 'the oci generator (3.6)');
  assert.ok(schemaAt(['spec', 'generators', 0, 'matrix', 'generators', 0, 'oci', 'files']), 'the oci generator as a matrix child');
});
