// The built schema validator's literals, cut to what its code reads (scripts/build/schemaLiterals.js, run by
// esbuild.js): every error of ajv's own standalone code, unchanged, on the fixtures, the examples and each of
// their documents made to fail everywhere (an unknown key in every mapping, a wrong type or value in every field).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Module, { createRequire } from 'node:module';
import { parseAllDocuments } from 'yaml';
import { yamlFiles } from '../../../helpers/yamlCorpus';

const root = path.join(__dirname, '..', '..', '..', '..');
const req = createRequire(path.join(root, 'package.json'));
const { trimSchemaLiterals } = req('./scripts/build/schemaLiterals.js') as { trimSchemaLiterals(code: string): string };

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/** ajv's standalone code for the ApplicationSet schema, with the options and the build's ajv (esbuild.js). */
function standalone(): string {
  const Ajv2020 = req('ajv/dist/2020').default;
  const standaloneCode = req('ajv/dist/standalone').default;
  const options = JSON.parse(fs.readFileSync(path.join(root, 'server/src/engine/validate/ajvOptions.json'), 'utf8'));
  const ajv = new Ajv2020({ ...options, code: { source: true } });
  const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas/applicationset.schema.json'), 'utf8'));
  return standaloneCode(ajv, ajv.compile(schema));
}

function load(code: string, name: string): Validate {
  const file = path.join(root, `${name}.validator.js`);
  const m = new Module(file) as Module & { _compile(code: string, file: string): void };
  m.filename = file;
  m.paths = req.resolve.paths('ajv') ?? [];
  m._compile(code, file);
  return m.exports as Validate;
}

/** Every mapping given an unknown key, every scalar a value of another type (strings also a value no enum allows). */
function broken(v: unknown, depth = 0): unknown {
  if (depth > 40) return v;
  if (Array.isArray(v)) return v.map((x) => broken(x, depth + 1));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = broken(x, depth + 1);
    out.zzUnknownKey = 1;
    return out;
  }
  if (typeof v === 'string') return depth % 2 ? 12345 : `${v}-not-allowed`;
  if (typeof v === 'number') return 'a string';
  if (typeof v === 'boolean') return 1.5;
  return v;
}

test('the trimmed validator gives every error ajv’s own code gives, on the fixtures, the examples and their broken copies', () => {
  const code = standalone();
  const trimmed = trimSchemaLiterals(code);
  // The point of the transform (a third of the validator's load): the whole-schema literals are gone.
  assert.ok(code.length - trimmed.length > 25_000, `${code.length} → ${trimmed.length} characters`);
  assert.ok(!trimmed.includes('"apiVersion":{"type":"string"}'), 'the root schema is no longer a literal');
  const before = load(code, 'ajv');
  const after = load(trimmed, 'trimmed');
  let docs = 0;
  let errors = 0;
  const paths = new Set<string>();
  const compare = (value: unknown, where: string) => {
    const a = before(value);
    const aErrors = structuredClone(before.errors);
    const b = after(value);
    assert.equal(b, a, where);
    assert.deepEqual(after.errors, aErrors, where);
    docs++;
    for (const e of (aErrors ?? []) as { keyword: string; schemaPath: string }[]) {
      errors++;
      paths.add(`${e.keyword} ${e.schemaPath}`);
    }
  };
  for (const file of [...yamlFiles(path.join(root, 'test/fixtures')), ...yamlFiles(path.join(root, 'examples'))].sort()) {
    const text = fs.readFileSync(file, 'utf8');
    let values: unknown[];
    try {
      values = parseAllDocuments(text, { uniqueKeys: false }).flatMap((d) => ('toJS' in d ? [d.toJS({ maxAliasCount: 100 })] : []));
    } catch {
      continue;
    }
    values.forEach((v, i) => {
      compare(v, `${path.relative(root, file)} #${i}`);
      compare(broken(v), `${path.relative(root, file)} #${i}, broken`);
    });
  }
  assert.ok(docs > 500 && errors > 5_000, `${docs} documents, ${errors} errors compared`);
  // Each kind of use the transform rewrites was met: a hasOwnProperty of property names, an enum's values, a type's types.
  for (const seen of [
    'additionalProperties #/properties/spec/additionalProperties',
    'additionalProperties #/properties/spec/properties/generators/items/additionalProperties',
    'enum #/properties/spec/properties/syncPolicy/properties/applicationsSync/enum',
    'type #/properties/spec/properties/strategy/properties/rollingSync/properties/steps/items/properties/maxUpdate/type',
  ])
    assert.ok(
      paths.has(seen),
      `${seen} among ${[...paths]
        .filter((p) => p.startsWith(seen.split(' ')[0]))
        .slice(0, 20)
        .join('\n')}`,
    );
});

test('a literal the code reads in another way is left whole', () => {
  const code =
    'const func1 = Object.prototype.hasOwnProperty;const schema1 = {"properties":{"a":{"type":"string"}}};' +
    'const schema2 = {"enum":["x"]};function v(d){return func1.call(schema1.properties, d) && schema2["enum"];}';
  const out = trimSchemaLiterals(code);
  assert.ok(out.includes('const schema1_0 = {"a":1};'), out);
  assert.ok(out.includes('func1.call(schema1_0, d)'), out);
  assert.ok(out.includes('const schema2 = {"enum":["x"]};'), 'bracket access: kept whole');
  assert.ok(!out.includes('const schema1 = '), out);
});
