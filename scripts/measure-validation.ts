/**
 * Measures the validation hot paths (numbers go into the report / README):
 *   node --import tsx scripts/measure-validation.ts
 * - size of the generated schema; ajv compile time at runtime vs loading standalone code
 *   (ajv/dist/standalone), to decide whether build-time compilation is worth it;
 * - validation time (schema + semantic checks) of a big ApplicationSet, cold and warm.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import standaloneCode from 'ajv/dist/standalone';
import { APPSET_SCHEMA } from '../server/src/engine/validate/schemaIndex';
import { parseFile } from '../server/src/engine/kinds';
import { validateSchema } from '../server/src/engine/validate/schema';
import { runChecks } from '../server/src/engine/validate/checks/index';
import { rollingSyncBy } from '../test/helpers/appsets';

const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const schemaFile = path.resolve(__dirname, '..', 'schemas', 'applicationset.schema.json');
console.log(`schema: ${fs.statSync(schemaFile).size} bytes, ${Object.keys(APPSET_SCHEMA.$defs).length} $defs`);

const compiles: number[] = [];
for (let i = 0; i < 5; i++) {
  const t = process.hrtime.bigint();
  new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true }).compile(structuredClone(APPSET_SCHEMA));
  compiles.push(ms(t));
}
console.log(`ajv compile at runtime: median ${median(compiles).toFixed(1)} ms (first ${compiles[0].toFixed(1)} ms)`);

const ajv = new Ajv2020({ allErrors: true, strict: false, allowUnionTypes: true, code: { source: true } });
const code = standaloneCode(ajv, ajv.compile(structuredClone(APPSET_SCHEMA)));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'standalone-'));
const file = path.join(tmp, 'validate.js');
fs.writeFileSync(file, code);
fs.symlinkSync(path.resolve(__dirname, '..', 'node_modules'), path.join(tmp, 'node_modules'));
const t = process.hrtime.bigint();
require(file);
console.log(`standalone code: ${code.length} bytes, load ${ms(t).toFixed(1)} ms`);

// A big ApplicationSet: 200 generators (every kind), a full template with sources.
const gens: string[] = [];
for (let i = 0; i < 200; i++) {
  gens.push(`  - matrix:
      generators:
      - git:
          repoURL: https://example.com/r${i}.git
          revision: HEAD
          directories: [{path: 'apps/*'}, {path: 'apps/skip', exclude: true}]
      - clusters:
          selector:
            matchExpressions: [{key: env, operator: In, values: [prod, staging]}]
          values: {tier: '{{metadata.labels.tier}}'}
    selector:
      matchLabels: {app: x${i}}`);
}
const text = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: big, namespace: argocd}
spec:
  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
${gens.join('\n')}
${rollingSyncBy('tier', [{ values: ['canary'] }, { values: ['low'], maxUpdate: '25%' }])}  template:
    metadata:
      name: '{{.path.basename}}-{{.name}}'
      labels: {tier: '{{index .metadata.labels "tier"}}'}
    spec:
      project: default
      sources:
      - repoURL: https://example.com/charts.git
        targetRevision: HEAD
        path: '{{.path.path}}'
        helm:
          valueFiles: [values.yaml]
          parameters: [{name: a, value: b}]
      - repoURL: https://example.com/values.git
        targetRevision: HEAD
        ref: values
      destination: {server: '{{.server}}', namespace: '{{.path.basename}}'}
      syncPolicy:
        automated: {prune: true, selfHeal: true}
        syncOptions: [CreateNamespace=true]
`;
const lines = text.split('\n').length;
const tp = process.hrtime.bigint();
const parsed = parseFile(text);
const parseMs = ms(tp);
// Distinct data each run (no cache hit) vs the same data again (an edit in a comment: cache hit).
const variants = Array.from({ length: 21 }, (_, i) => {
  const v = text.replace('name: big', `name: big${i}`);
  return { text: v, doc: parseFile(v).appsets[0] };
});
const cold: number[] = [];
for (const v of variants) {
  const t2 = process.hrtime.bigint();
  const ds = [...validateSchema(v.doc, v.text), ...runChecks(v.doc, v.text)];
  cold.push(ms(t2));
  if (ds.length) throw new Error(`unexpected diagnostics: ${ds.map((d) => d.message).join('; ')}`);
}
const warm: number[] = [];
for (let i = 0; i < 20; i++) {
  const t2 = process.hrtime.bigint();
  validateSchema(parsed.appsets[0], text);
  runChecks(parsed.appsets[0], text);
  warm.push(ms(t2));
}
console.log(
  `big ApplicationSet (${lines} lines, ${text.length} chars): YAML parse ${parseMs.toFixed(1)} ms; validation ` +
    `first ${cold[0].toFixed(1)} ms (includes compile), new data median ${median(cold.slice(1)).toFixed(2)} ms, ` +
    `unchanged data median ${median(warm).toFixed(2)} ms`,
);
