/**
 * Generators that need live data the editor cannot reach (Argo CD `pull_request.go`,
 * `scm_provider.go`, `duck_type.go`, `plugin.go`). The preview uses sample parameter sets from a
 * ClusterInventory file (`samples.<kind>`) when there are any, and says so; otherwise it yields
 * nothing and says why.
 */
import { GoStringMap } from '@appset-tools/gotemplate';
import { loadInventory } from './inventory';
import { put, tagOrigin, type ParamSet } from './params';
import { noteEmpty, type Generate } from './types';
import { appendValues } from './values';

const WHAT: Record<string, string> = {
  pullRequest: 'open pull requests',
  scmProvider: 'repositories of an SCM provider',
  clusterDecisionResource: 'cluster decisions of a custom resource',
  plugin: 'the answer of a generator plugin',
};

export const generateLive: Generate = (spec, ctx, path) => {
  const kind = String(path[path.length - 1]);
  const samples = loadInventory(ctx.file).samples.get(kind) ?? [];
  ctx.inexact.value = true;
  const message = samples.length
    ? `the ${kind} generator needs ${WHAT[kind] ?? 'live data'}; the preview uses ${samples.length} sample parameter set${samples.length === 1 ? '' : 's'} from the inventory`
    : `the ${kind} generator needs ${WHAT[kind] ?? 'live data'}, which the editor cannot reach; add sample parameter sets under samples.${kind} in a ClusterInventory file to preview it`;
  ctx.notes.add(message);
  ctx.findings.push({ code: 'generator/live-data', message, path });
  if (!samples.length) noteEmpty(ctx, path, message, true, true);
  return samples.map((s, i) => {
    const p: ParamSet = {};
    for (const k of Object.keys(s)) put(p, k, s[k]);
    tagOrigin(ctx.origins, p, `sample:${kind}/${i}`);
    return kind === 'clusterDecisionResource' ? plainValues(p, spec.values, ctx.goTemplate) : appendValues(p, spec.values, ctx, path);
  });
};

/** clusterDecisionResource adds its `values` without rendering them (`duck_type.go`). */
function plainValues(p: ParamSet, values: unknown, goTemplate: boolean): ParamSet {
  if (!values || typeof values !== 'object' || Array.isArray(values)) return p;
  const entries = Object.entries(values as Record<string, unknown>).map(([k, v]) => [k, String(v ?? '')] as const);
  if (!entries.length) return p;
  if (goTemplate) put(p, 'values', new GoStringMap(entries));
  else for (const [k, v] of entries) put(p, `values.${k}`, v);
  return p;
}
