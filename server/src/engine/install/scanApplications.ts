/**
 * Argo CD Applications that install Argo CD: the argo-cd chart from a Helm or OCI repository (an install
 * of its own, in the destination namespace) or a local chart folder by `path:` (that chart's install).
 * Their inline Helm values are read in Helm's order after the selected values files (scanHelmValues.ts);
 * a values file they select that cannot be read is said, never silently skipped.
 */
import type { Json } from '../types';
import type { JsonPath } from '../yaml';
import { isObj, own } from '../objects';
import { isArgoChartSource, isOciSource } from '../versions/detect';
import { installOf } from './instances';
import { joinPath, type SelectedValues } from './installers';
import { at, scalarText, type Collector, type Place, type Site } from './collector';
import { chartKeys, checkHelmSource } from './scanHelmValues';

/** An Argo CD Application whose sources may install Argo CD (its Helm values and value files). */
export function checkArgoApplication(c: Collector, site: Site, v: Json, name: string, depth: number) {
  const spec = own(v, 'spec');
  const sources: [Json | undefined, JsonPath][] = [[own(spec, 'source'), ['spec', 'source']]];
  const multi = own(spec, 'sources');
  if (Array.isArray(multi)) multi.forEach((s, i) => sources.push([s, ['spec', 'sources', i]]));
  // An Application that installs Argo CD is an install of its own, in its destination namespace;
  // one that installs a local argo-cd chart (`path:`) configures that chart's install.
  const dest = own(own(spec, 'destination'), 'namespace');
  const namespace = typeof dest === 'string' && dest ? dest : undefined;
  const appKey = `app:${site.file.path}#${name}`;
  for (const [src, p] of sources) {
    if (!isObj(src)) continue;
    const path = isOciSource(src) ? undefined : scalarText(own(src, 'path'));
    const root = c.roots.find((r) => site.file.path.startsWith(r + '/')) ?? c.roots[0];
    const chartDir = path !== undefined && root ? joinPath(root, path) : undefined;
    const installers = chartDir ? c.installers.charts.get(chartDir) : undefined;
    const helm = at(site, ...p, 'helm');
    if (chartDir && installers) {
      const key = installOf(`${chartDir}/values.yaml`).key;
      const place: Place = { install: { key, namespace }, rank: installers.length === 1 ? { chain: key, rank: 1000 } : undefined };
      checkHelmSource(c, place, helm, own(src, 'helm'), depth, chartKeys(c, chartDir));
      noteUnread(c, place, at(helm, 'valueFiles'), installers.find((i) => i.appKey === appKey)?.valueFiles ?? [], name);
    } else {
      const place: Place = { install: { key: appKey, namespace }, rank: { chain: appKey, rank: 1000 } };
      checkHelmSource(c, place, helm, own(src, 'helm'), depth, [[]]);
      const refs = c.installers.refs.get(appKey);
      if (refs && isArgoChartSource(src)) noteUnread(c, place, at(helm, 'valueFiles'), refs.valueFiles, name);
    }
  }
}

/** The values files an Application selects that cannot be read: said, never silently skipped. */
function noteUnread(c: Collector, place: Place, site: Site, files: readonly SelectedValues[], app: string) {
  files.forEach((f, i) => {
    // A file of the repository that the workspace index skipped (over its size limit, not a regular file)
    // exists: what it sets is unknown, so the install's answers are (never "not in the repository").
    const skipped = f.path ? c.workspace.notRead(f.path) : undefined;
    if (skipped) {
      c.unread(place, at(site, i), `Application ${app} helm.valueFiles ${f.written}: not read (${skipped})`);
      return;
    }
    // One the model cannot reach (another repository, the chart package, a URL, past the bound): unknown too.
    if (f.unread) {
      c.unread(place, at(site, Math.min(i, 49)), `Application ${app} helm.valueFiles ${f.written}: not read (${f.unread})`);
      return;
    }
    // A file of this repository that does not exist sets nothing (Argo CD fails to render without it).
    if (f.path && !c.workspace.file(f.path))
      c.add(place, at(site, i), undefined, 'ignored', `Application ${app} helm.valueFiles ${f.written}: not read (not in the repository)`);
  });
}
