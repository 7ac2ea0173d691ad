// The schema's data: what each schema finding says, and where, is stated by the rule fixtures
// (test/fixtures/rules/appset/unknown-field.yaml, wrong-type.yaml, missing-field.yaml, invalid-value.yaml).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { APPSET_SCHEMA, schemaAt } from '../../../../server/src/engine/validate/schemaIndex';
import versionsData from '../../../../schemas/argocd-versions.json';
import { tempFolder } from '../../../helpers/cli';

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
  const tmp = tempFolder('schema-');
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
