#!/usr/bin/env node
// Generates schemas/applicationset.schema.json (JSON Schema draft 2020-12, for ajv) from the
// ApplicationSet CRD of an Argo CD release.
//
//   node schemas/generate.mjs [path/to/applicationset-crd.yaml]
//
// `npm run schema` (schemas/argocd-versions.mjs) runs it on the CRD of the newest supported Argo CD
// (master), which holds every field of every supported release. Default input:
// ../shared/argocd-data/applicationset-crd-v3.5.1.yaml (next to the repository).
// What the conversion does, and why:
// - `x-kubernetes-int-or-string` → integer or string (the CRD's anyOf, kept as one `type` list so
//   ajv reports a single error), marked `x-int-or-string` for readable messages.
// - `x-kubernetes-preserve-unknown-fields` → an open object (or anything when no type is given).
// - objects that list `properties` get `additionalProperties: false`: the API server prunes fields it
//   does not know, so a misspelt field silently disappears — that is what we want to flag.
// - nested matrix/merge generators are free-form JSON in the CRD; the controller decodes them into
//   terminal-generator lists (Argo CD `applicationset_types.go`, `NestedMatrixGenerator`), so we
//   give them that shape to validate their children too.
// - identical subtrees (the Application template is repeated under every generator) are moved to
//   `$defs` and referenced, largest first, which keeps the file small and ajv's compile fast.
// - `status`, `format` and the `x-kubernetes-list/map-type` markers are dropped (not user input /
//   not checkable without extra ajv plugins).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';

const here = dirname(fileURLToPath(import.meta.url));
const input = process.argv[2] ?? resolve(here, '..', '..', 'shared', 'argocd-data', 'applicationset-crd-v3.5.1.yaml');
const output = resolve(here, 'applicationset.schema.json');

const crd = YAML.parse(readFileSync(input, 'utf8'));
const version = crd.spec.versions.find((v) => v.storage) ?? crd.spec.versions[0];
const root = version.schema.openAPIV3Schema;

/** Converts one CRD (structural OpenAPI v3) schema node to JSON Schema. */
function convert(node) {
  const out = {};
  if (node['x-kubernetes-int-or-string']) {
    out.type = ['integer', 'string'];
    out['x-int-or-string'] = true;
    return out;
  }
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  if (node.type) out.type = node.type;
  if (node.enum) out.enum = node.enum;
  if (node.pattern) out.pattern = node.pattern;
  for (const k of ['minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength']) if (k in node) out[k] = node[k];
  if (node.properties) {
    out.properties = {};
    for (const key of Object.keys(node.properties).sort()) out.properties[key] = convert(node.properties[key]);
    if (node.required?.length) out.required = [...node.required];
    if (!preserve) out.additionalProperties = false;
  } else if (node.additionalProperties !== undefined) {
    out.additionalProperties = node.additionalProperties === true ? {} : convert(node.additionalProperties);
  }
  if (node.items) out.items = convert(node.items);
  if (preserve && !node.properties && !node.type) return {};
  return out;
}

const schema = convert(root);
schema.$schema = 'https://json-schema.org/draft/2020-12/schema';
schema.$id = 'https://appset-tools/applicationset.schema.json';
schema.title = `ApplicationSet (${crd.spec.group}/${version.name}, from ${input.split('/').pop()})`;
delete schema.properties.status;
delete schema.additionalProperties; // `status` and future top-level fields are not ours to judge
// ObjectMeta is validated by the API server's own rules; type the parts users write.
schema.properties.metadata = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    namespace: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
    finalizers: { type: 'array', items: { type: 'string' } },
  },
};

// Nested matrix/merge: children are terminal generators (no further matrix/merge).
const generatorItem = schema.properties.spec.properties.generators.items;
for (const kind of ['matrix', 'merge']) {
  const top = generatorItem.properties[kind];
  const nestedItem = top.properties.generators.items;
  const terminal = structuredClone(nestedItem);
  delete terminal.properties.matrix;
  delete terminal.properties.merge;
  for (const nestedKind of ['matrix', 'merge']) {
    const shape = structuredClone(generatorItem.properties[nestedKind]);
    shape.properties.generators = { type: 'array', items: terminal };
    nestedItem.properties[nestedKind] = shape;
  }
}

// ---- deduplication into $defs ----
const MIN_SHARED_CHARS = 200;
const defs = {};
const defNames = new Set();

/** Calls fn(holder, key, schemaNode, pathNames) for every schema position below `node`. */
function eachSchema(node, names, fn) {
  const visit = (holder, key, child, childNames) => {
    if (!child || typeof child !== 'object' || Array.isArray(child)) return;
    fn(holder, key, child, childNames);
    eachSchema(child, childNames, fn);
  };
  if (node.properties) for (const k of Object.keys(node.properties)) visit(node.properties, k, node.properties[k], [...names, k]);
  if (node.items) visit(node, 'items', node.items, [...names, 'item']);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') visit(node, 'additionalProperties', node.additionalProperties, [...names, 'value']);
}

function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  return JSON.stringify(v);
}

function defName(names) {
  const meaningful = names.filter((n) => n !== 'item' && n !== 'value');
  const last = meaningful[meaningful.length - 1] ?? 'shared';
  let base = last + (names[names.length - 1] === 'item' ? 'Item' : '');
  if (['spec', 'metadata', 'template', 'generators'].includes(last) && meaningful.length > 1) {
    base = meaningful[meaningful.length - 2] + last[0].toUpperCase() + last.slice(1) + (names[names.length - 1] === 'item' ? 'Item' : '');
  }
  let name = base;
  for (let i = 2; defNames.has(name); i++) name = `${base}${i}`;
  defNames.add(name);
  return name;
}

for (let round = 0; round < 500; round++) {
  const counts = new Map();
  const scan = (node, names) =>
    eachSchema(node, names, (holder, key, child, childNames) => {
      const c = canonical(child);
      if (c.length < MIN_SHARED_CHARS) return;
      const e = counts.get(c) ?? { n: 0, names: childNames, at: [] };
      e.n++;
      e.at.push([holder, key]);
      counts.set(c, e);
    });
  scan(schema, []);
  for (const [name, d] of Object.entries(defs)) scan(d, [name]);
  let best;
  for (const [c, e] of counts) if (e.n >= 2 && (!best || c.length > best[0].length)) best = [c, e];
  if (!best) break;
  const [c, e] = best;
  const name = defName(e.names);
  defs[name] = JSON.parse(c);
  for (const [holder, key] of e.at) holder[key] = { $ref: `#/$defs/${name}` };
}
// Name the well-known shared definitions after what they are rather than where they first appeared.
const refName = (node) => node?.$ref?.slice('#/$defs/'.length);
const topMatrix = schema.properties.spec.properties.generators.items.properties.matrix;
renameDef(refName(schema.properties.spec.properties.template), 'applicationTemplate');
renameDef(refName(topMatrix.properties.generators), 'nestedGenerators');
renameDef(refName(defs.nestedGenerators?.items?.properties?.matrix?.properties?.generators), 'terminalGenerators');
renameDef(refName(defs.source?.properties?.plugin), 'sourcePlugin');

function renameDef(from, to) {
  if (!from || !(from in defs) || to in defs) return;
  defs[to] = defs[from];
  delete defs[from];
  const fix = (v) => {
    if (Array.isArray(v)) v.forEach(fix);
    else if (v && typeof v === 'object') {
      if (v.$ref === `#/$defs/${from}`) v.$ref = `#/$defs/${to}`;
      Object.values(v).forEach(fix);
    }
  };
  fix(schema);
  fix(defs);
}

if (Object.keys(defs).length) schema.$defs = Object.fromEntries(Object.keys(defs).sort().map((k) => [k, defs[k]]));

const text = JSON.stringify(schema) + '\n';
writeFileSync(output, text);
console.log(`wrote ${output}: ${text.length} bytes, ${Object.keys(defs).length} shared definitions`);
