/**
 * The cluster generator (Argo CD `applicationset/generators/cluster.go`) over the workspace
 * inventory. Secrets are de-duplicated by name (last wins); the controller's order is Go map order,
 * i.e. unspecified, so the preview sorts by name (the controller sorts Applications by name anyway).
 */
import { GoStringMap } from '@appset-tools/gotemplate';
import { normalize } from './normalize';
import { loadInventory, IN_CLUSTER_SERVER, type Cluster } from './inventory';
import { put, tagOrigin, type ParamSet } from './params';
import { isEmptySelector, matchesSelector, selectorError, SelectorError } from './selector';
import { GeneratorError, noteEmpty, wrapErrors, type Generate } from './types';
import { emptyClustersReason } from './why';
import { appendValues } from './values';
import { has } from '../versions/behaviours';
import { compareGoStrings } from '../rules/order';

export const generateClusters: Generate = (spec, ctx, path) => {
  const inv = loadInventory(ctx.file);
  const byName = new Map<string, Cluster>();
  const bad = selectorError(spec.selector, true);
  if (bad) throw new GeneratorError(`error getting cluster secrets: error converting label selector: ${bad}`, [...path, 'selector']);
  let selected: Cluster[];
  try {
    selected = inv.clusters.filter((c) => matchesSelector(spec.selector, c.labels));
  } catch (e) {
    if (e instanceof SelectorError)
      throw new GeneratorError(`error getting cluster secrets: error converting label selector: ${e.message}`, [...path, 'selector']);
    throw e;
  }
  for (const c of selected) byName.set(c.name, c);
  const clusters = [...byName.values()].sort((a, b) => compareGoStrings(a.name, b.name));
  if (inv.held)
    ctx.notes.add(
      'the workspace is still being read: the cluster generator sees the cluster Secrets read so far (the findings follow once it is read)',
    );
  else if (!inv.clusters.length && inv.templates.length) {
    const t = inv.templates[0];
    ctx.notes.add(
      `the workspace's cluster Secrets are templates, not clusters (${t.file}: ${t.field} ${t.what}${inv.templates.length > 1 ? ` and ${inv.templates.length - 1} more` : ''}): the cluster generator only sees the in-cluster entry`,
    );
  } else if (!inv.clusters.length)
    ctx.notes.add('no cluster Secrets or ClusterInventory found in the workspace: the cluster generator only sees the in-cluster entry');
  // The clusters Argo CD has are then registered outside the repository: what depends on them is not known offline.
  if (!inv.held && !inv.clusters.length && !ctx.file.settings.inventoryFiles.length && ctx.runTimeClusters) ctx.runTimeClusters.value++;
  // A cap or a skipped file may be why Secrets are missing: say so (never a silent cap). While the
  // workspace is still read (held, above: its findings follow once it is read, with these notes), only
  // what was seen so far: listing the whole workspace here, at once, was a sixth of the first answer's
  // CPU on the bench's 50-ApplicationSet file (issue 39), work the background read does anyway.
  for (const n of ctx.file.workspace.scanNotes(inv.held)) ctx.notes.add(n);
  // A cluster Secret that could not be read may be a missing cluster: the preview is not exact.
  if (inv.skipped.length) ctx.inexact.value = true;
  for (const k of inv.skipped)
    ctx.notes.add(
      `a cluster Secret or inventory in ${k.file} (line ${k.line}) was skipped, not read: ${k.why}; any cluster it declares is missing here`,
    );
  for (const u of inv.unread)
    ctx.notes.add(
      `appsetTools.inventoryFiles names "${u}", but no readable file matches it (a relative path is read from each workspace folder): no clusters were read from it`,
    );
  const withValues = clusters.map((c) =>
    wrapErrors('error appending templated values for cluster: ', () =>
      appendValues(
        tagOrigin(ctx.origins, clusterParams(c, ctx.goTemplate, has(ctx.version, 'clusterProjectParam')), `cluster:${c.name}`),
        spec.values,
        ctx,
        path,
      ),
    ),
  );
  if (isEmptySelector(spec.selector) && !clusters.some((c) => c.server === IN_CLUSTER_SERVER)) {
    const p: ParamSet = {};
    put(p, 'name', 'in-cluster');
    put(p, 'nameNormalized', 'in-cluster');
    put(p, 'server', IN_CLUSTER_SERVER);
    if (has(ctx.version, 'clusterProjectParam')) put(p, 'project', '');
    tagOrigin(ctx.origins, p, 'cluster:in-cluster');
    withValues.push(wrapErrors('error appending templated values for local cluster: ', () => appendValues(p, spec.values, ctx, path)));
  }
  if (!withValues.length) {
    const at = spec.selector !== undefined ? [...path, 'selector'] : path;
    // Information, not a warning: Argo CD generates nothing and reports no error for a selector that
    // matches no cluster (applicationset/generators/cluster.go), and the clusters Argo CD will have are
    // registered at run time; the repository's cluster Secrets are only what is known today.
    noteEmpty(ctx, at, emptyClustersReason(spec.selector, inv.clusters), true);
  }
  if (spec.flatList === true) {
    const p: ParamSet = {};
    put(p, 'clusters', withValues);
    return [tagOrigin(ctx.origins, p, ...withValues)];
  }
  return withValues;
};

/** `withProject`: Argo CD 2.14+ sets the `project` parameter (cluster.go, PR #20338). */
export function clusterParams(c: Cluster, goTemplate: boolean, withProject = true): ParamSet {
  const p: ParamSet = {};
  put(p, 'name', c.name);
  put(p, 'nameNormalized', normalize(c.name));
  put(p, 'server', c.server);
  if (withProject) put(p, 'project', c.project);
  const labels = Object.keys(c.labels);
  const annotations = Object.keys(c.annotations);
  if (goTemplate) {
    const md: ParamSet = {};
    if (labels.length) put(md, 'labels', new GoStringMap(labels.map((k) => [k, c.labels[k]])));
    if (annotations.length) put(md, 'annotations', new GoStringMap(annotations.map((k) => [k, c.annotations[k]])));
    put(p, 'metadata', md);
  } else {
    for (const k of labels) put(p, `metadata.labels.${k}`, c.labels[k]);
    for (const k of annotations) put(p, `metadata.annotations.${k}`, c.annotations[k]);
  }
  return p;
}
