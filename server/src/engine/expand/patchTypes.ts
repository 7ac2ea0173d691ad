/**
 * The type check a templatePatch goes through before it is applied: the controller decodes the
 * converted patch into an `Application` with Go's encoding/json (`patch.go` applyTemplatePatch), so
 * a value of the wrong JSON type (`prune: "true"`, `limit: "5"`) fails the whole reconcile, while
 * unknown fields and `null` are accepted. The Application's shape is the ApplicationSet CRD's
 * `spec.template` schema.
 */
import { resolveRef, schemaAt, type SchemaNode } from '../validate/schemaIndex';
import { isObj } from '../objects';

const MAX_DEPTH = 64;

/** The first type mismatch, as a short Go-like message, or undefined when the patch decodes. */
export function patchTypeError(patch: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (k === 'apiVersion' || k === 'kind') {
      if (v !== null && typeof v !== 'string') return mismatch(v, k, 'string');
      continue;
    }
    if (k !== 'metadata' && k !== 'spec') continue; // status, operation: not produced by templates
    const err = check(v, schemaAt(['spec', 'template', k]), k, 0);
    if (err) return err;
  }
  return undefined;
}

function check(v: unknown, schema: SchemaNode | undefined, path: string, depth: number): string | undefined {
  const s = resolveRef(schema);
  if (!s || v === null || v === undefined || depth > MAX_DEPTH) return undefined;
  if (s['x-int-or-string']) {
    if (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))) return undefined;
    return mismatch(v, path, 'intstr.IntOrString');
  }
  const type = Array.isArray(s.type) ? undefined : s.type;
  switch (type) {
    case 'string':
      return typeof v === 'string' ? undefined : mismatch(v, path, 'string');
    case 'boolean':
      return typeof v === 'boolean' ? undefined : mismatch(v, path, 'bool');
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v) ? undefined : mismatch(v, path, 'int64');
    case 'number':
      return typeof v === 'number' ? undefined : mismatch(v, path, 'float64');
    case 'array': {
      if (!Array.isArray(v)) return mismatch(v, path, 'slice');
      for (let i = 0; i < v.length; i++) {
        const e = check(v[i], s.items, `${path}[${i}]`, depth + 1);
        if (e) return e;
      }
      return undefined;
    }
    case 'object': {
      if (!isObj(v)) return mismatch(v, path, s.properties ? 'struct' : 'map');
      for (const k of Object.keys(v)) {
        const sub =
          s.properties && Object.prototype.hasOwnProperty.call(s.properties, k)
            ? s.properties[k]
            : typeof s.additionalProperties === 'object'
              ? s.additionalProperties
              : undefined;
        const e = check(v[k], sub, `${path}.${k}`, depth + 1);
        if (e) return e;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (isObj(v)) return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

function mismatch(v: unknown, path: string, goType: string): string {
  return `json: cannot unmarshal ${jsonType(v)} into Go struct field Application.${path} of type ${goType}`;
}
