/**
 * templatePatch (Argo CD `controllers/template/template.go` renderTemplatePatch, `patch.go`): the
 * rendered patch (JSON, or YAML converted to JSON) is applied with strategic-merge semantics as the
 * Application type defines them: objects merge, lists are replaced, `null` deletes;
 * `metadata.finalizers` are united; `spec.project` cannot be changed by a patch.
 */
import { parseGoYaml, yamlLimitMessage } from '../yaml';
import { put } from '../generators/params';
import { isObj } from '../objects';
import { patchTypeError } from './patchTypes';

export class PatchError extends Error {}

export function parsePatch(rendered: string): Record<string, unknown> {
  const t = rendered.trim();
  let v: unknown;
  const tooBig = yamlLimitMessage(rendered);
  if (tooBig) throw new PatchError(`the rendered templatePatch is not read: ${tooBig}`);
  if (t.startsWith('{')) {
    try {
      v = JSON.parse(t);
    } catch (e) {
      // A patch that looks like JSON is not converted; Go's decoder then rejects it (utils.go ConvertYAMLToJSON).
      throw new PatchError(`invalid templatePatch ${JSON.stringify(rendered)}: ${(e as Error).message}`);
    }
  } else {
    try {
      v = parseGoYaml(rendered);
    } catch (e) {
      throw new PatchError(`error while converting template to json ${JSON.stringify(rendered)}: ${(e as Error).message}`);
    }
  }
  if (v === null || v === undefined) return {};
  // Go's %q of the converted JSON: a quoted JSON string.
  const quoted = JSON.stringify(JSON.stringify(v));
  if (!isObj(v))
    throw new PatchError(
      `invalid templatePatch ${quoted}: json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into Go value of type v1alpha1.Application`,
    );
  const typeError = patchTypeError(v);
  if (typeError) throw new PatchError(`invalid templatePatch ${quoted}: ${typeError}`);
  return v;
}

export function applyPatch(app: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const project = isObj(app.spec) ? app.spec.project : undefined;
  const out = merge(app, patch, []) as Record<string, unknown>;
  if (isObj(out.spec) && project !== undefined) put(out.spec, 'project', project);
  return out;
}

function merge(dst: unknown, patch: unknown, path: string[]): unknown {
  if (!isObj(patch)) return patch;
  const base = isObj(dst) ? dst : {};
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(base)) put(out, k, base[k]);
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      delete out[k];
      continue;
    }
    const here = [...path, k];
    if (here.join('.') === 'metadata.finalizers' && Array.isArray(v) && Array.isArray(out[k])) {
      const union = [...(out[k] as unknown[])];
      for (const f of v) if (!union.includes(f)) union.push(f);
      put(out, k, union);
    } else put(out, k, isObj(v) ? merge(out[k], v, here) : v);
  }
  return out;
}
