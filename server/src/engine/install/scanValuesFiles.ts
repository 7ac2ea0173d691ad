/**
 * Helm values files as files: the values a chart beside them reads (the argo-cd chart itself, or an
 * umbrella chart's argo-cd dependency under its name or alias), the ones the installs select (an
 * Application's `helm.valueFiles`, in Helm's order), and values files no install of the repository reads
 * (said as ignored, with why). What the values say is read by scanHelmValues.ts.
 */
import type { Json } from '../types';
import { isObj, own } from '../objects';
import { dirname, relativePath } from '../paths';
import { argoValuesKeys, chartBeside } from '../versions/detect';
import { installOf } from './instances';
import { isArgoChart } from './installers';
import { at, type Collector, type Obj, type Place, type Site } from './collector';
import { checkParams } from './controllerInputs';
import { chartKeys, checkHelmValues, scanValuesDoc } from './scanHelmValues';

/** The values files the installs of charts and the Applications of the argo-cd chart select (installers.ts). */
export function selectInstallerValues(c: Collector) {
  for (const [dir, installers] of c.installers.charts) {
    const key = installOf(`${dir}/values.yaml`).key;
    const keys = chartKeys(c, dir);
    for (const inst of installers)
      inst.valueFiles.forEach((f, i) => {
        if (f.path)
          c.selected.set(f.path, {
            key,
            namespace: inst.namespace,
            keys,
            chain: installers.length === 1 ? key : undefined,
            rank: i + 1,
            who: `${inst.label} helm.valueFiles ${f.written}`,
          });
      });
  }
  for (const [appKey, r] of c.installers.refs)
    r.valueFiles.forEach((f, i) => {
      if (f.path)
        c.selected.set(f.path, {
          key: appKey,
          keys: [[]],
          chain: appKey,
          rank: i + 1,
          who: `Application ${r.name} helm.valueFiles ${f.written}`,
        });
    });
}

/** A Chart.yaml without a kind. */
export function checkChartFile(c: Collector, place: Place, site: Site, v: Json) {
  // A chart that is or wraps argo-cd: its values files are its configuration even when they do not
  // name a setting yet (the enabling fix writes there, under the dependency's name or alias).
  if (!isArgoChart(v)) return;
  const dir = dirname(site.file.path);
  for (const name of ['values.yaml', 'values.yml']) {
    const values = c.workspace.file(`${dir}/${name}`);
    if (values) c.reread.file(c, values, place);
  }
}

/** A YAML document without kind or apiVersion: Helm values, of a chart beside it or selected by an install. */
export function checkValuesFile(c: Collector, place: Place, site: Site, v: Json) {
  const chart = site.inner ? undefined : chartBeside(c.workspace, site.file.path);
  if (chart) checkValuesBesideChart(c, place, site, v, chart.path);
  else checkLooseValues(c, place, site, v);
}

/** Values with no chart beside them: of a folder an install selects from, or of an install found elsewhere. */
function checkLooseValues(c: Collector, place: Place, site: Site, v: Json) {
  // A folder of values files an install selects from (values/prod.yaml): the others are read by no install.
  const dir = dirname(site.file.path);
  const sibling = site.inner ? undefined : [...c.selected.entries()].find(([p]) => dirname(p) === dir);
  if (sibling) {
    const why = `${sibling[1].who.replace(/ helm\.valueFiles .*| valuesFrom .*/, '')} selects ${relativePath(c.roots, sibling[0])} from this folder, not ${relativePath([dir], site.file.path)}`;
    // Said as the selecting install's evidence (the file is no install of its own).
    const selecting: Place = { ...place, install: { key: sibling[1].key, namespace: sibling[1].namespace } };
    for (const k of [[], ['argo-cd']])
      checkParams(
        c,
        selecting,
        at(site, ...k, 'configs', 'params'),
        own(own(k.length ? own(v, k[0]) : v, 'configs'), 'params'),
        'Helm values configs.params',
        why,
      );
    return;
  }
  checkHelmValues(c, place, site, v, 'Helm values');
  // An umbrella chart's values: the argo-cd dependency's values sit under its name.
  const sub = own(v, 'argo-cd');
  if (isObj(sub)) checkHelmValues(c, place, at(site, 'argo-cd'), sub, 'Helm values argo-cd:');
}

function checkValuesBesideChart(c: Collector, place: Place, site: Site, v: Json, chartPath: string) {
  // A chart beside the values: the argo-cd chart itself reads them at the top, an umbrella chart's
  // argo-cd dependency under its name or alias (Helm's subchart values); any other chart not at all.
  const keys = isObj(v) ? argoValuesKeys(c.workspace, site.file, v as Obj) : [];
  if (!keys.length) return;
  const chartDir = dirname(chartPath);
  const installers = c.installers.charts.get(chartDir) ?? [];
  const base = site.file.path.slice(site.file.path.lastIndexOf('/') + 1);
  const isDefault = dirname(site.file.path) === chartDir && /^values\.ya?ml$/.test(base);
  if (installers.length && !isDefault) {
    // Helm reads the chart's values.yaml and the files the installing Application selects; another
    // values file beside the chart (values-dev.yaml) is read by no install of this repository.
    const chosen = [...new Set(installers.flatMap((i) => i.valueFiles.map((f) => f.written)))];
    const why = `no Application installing ${relativePath([dirname(chartDir)], chartDir)} selects ${relativePath([chartDir], site.file.path)} (${installers.map((i) => i.label).join(', ')} ${chosen.length ? `selects ${chosen.join(', ')}` : 'selects no values file'})`;
    for (const k of keys)
      checkParams(
        c,
        place,
        at(site, ...k, 'configs', 'params'),
        own(own(k.length ? own(v, k[0]) : v, 'configs'), 'params'),
        `Helm values ${k.length ? `${k[0]}.` : ''}configs.params`,
        why,
      );
    return;
  }
  // The chart's own values.yaml, of the install that installs the chart: first in its Helm order.
  let chartPlace = place;
  if (isDefault && installers.length) {
    const install = { key: installOf(site.file.path).key, namespace: installers[0].namespace };
    chartPlace = { ...place, install, ...(installers.length === 1 ? { rank: { chain: install.key, rank: 0 } } : {}) };
  }
  scanValuesDoc(c, chartPlace, site, v, keys, chartPath);
}
