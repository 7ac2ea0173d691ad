/**
 * The generated ApplicationSet JSON Schema (schemas/applicationset.schema.json, from the CRD) and
 * a way to walk it by JSON path, used for messages (allowed field names), completions and hover.
 */
import schemaJson from '../../../../schemas/applicationset.schema.json';
import type { JsonPath } from '../yaml';

export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  required?: string[];
  enum?: string[];
  pattern?: string;
  $ref?: string;
  'x-int-or-string'?: boolean;
  [k: string]: unknown;
}

export const APPSET_SCHEMA = schemaJson as unknown as SchemaNode & { $defs: Record<string, SchemaNode> };

export function resolveRef(node: SchemaNode | undefined): SchemaNode | undefined {
  let n = node;
  for (let i = 0; n?.$ref && i < 16; i++) n = definition(n.$ref);
  return n;
}

/** `$defs` entries by their `$ref`, kept: walks resolve the same few references at every node (no slice each time). */
const definitions = new Map<string, SchemaNode | undefined>();
function definition(ref: string): SchemaNode | undefined {
  if (definitions.has(ref)) return definitions.get(ref);
  const d = APPSET_SCHEMA.$defs[ref.slice('#/$defs/'.length)];
  definitions.set(ref, d);
  return d;
}

/** The schema describing the value at `path`, or undefined when the path leaves the schema. */
export function schemaAt(path: JsonPath): SchemaNode | undefined {
  let node = resolveRef(APPSET_SCHEMA);
  for (const seg of path) {
    if (!node) return undefined;
    if (typeof seg === 'number') node = resolveRef(node.items);
    else if (node.properties && Object.prototype.hasOwnProperty.call(node.properties, seg)) node = resolveRef(node.properties[seg]);
    else if (node.additionalProperties && typeof node.additionalProperties === 'object') node = resolveRef(node.additionalProperties);
    else return undefined;
  }
  return node;
}

/** A short description of a schema's type for messages and hover ("a string", "a list of strings"). */
export function describeType(s: SchemaNode | undefined): string {
  if (!s) return 'any value';
  if (s['x-int-or-string']) return 'an integer or a string like "25%"';
  const t = s.type;
  if (Array.isArray(t)) return t.map((x) => describeType({ type: x })).join(' or ');
  switch (t) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'array': {
      const it = resolveRef(s.items);
      const inner = it?.type === 'object' || it?.properties ? 'objects' : it?.type ? describeType(it).replace(/^an? /, '') + 's' : 'values';
      return `a list of ${inner}`;
    }
    case 'object':
      if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object') {
        return `a map of ${describeType(resolveRef(s.additionalProperties)).replace(/^an? /, '')}s`;
      }
      return 'an object';
    default:
      return 'any value';
  }
}
