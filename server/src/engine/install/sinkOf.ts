/**
 * The sink through which the readers of single install forms (helmCharts.ts, terraform.ts) report
 * (sink.ts): each call's `Placement` becomes the `Place` of the collector's readers, so what they find
 * goes through the one reading of Helm values and controller settings.
 */
import { isObj } from '../objects';
import { parseInline, type Collector, type Place } from './collector';
import { checkArg, checkParam } from './controllerInputs';
import { checkHelmValues } from './scanHelmValues';
import type { FormSink, Placement } from './sink';

const placeOf = (at: Placement): Place => ({
  install: { key: at.key, namespace: at.namespace },
  rank: at.chain !== undefined && at.rank !== undefined ? { chain: at.chain, rank: at.rank } : undefined,
});

export function sinkOf(c: Collector): FormSink {
  return {
    workspace: c.workspace,
    select: (path, at, who) =>
      c.selected.set(path, { key: at.key, namespace: at.namespace, keys: [[]], chain: at.chain, rank: at.rank, who }),
    skip: (path) => c.scanned.add(path),
    install: (site, at) => void c.instanceKey(placeOf(at), site),
    values: (site, at, v, who, known) => void (isObj(v) && checkHelmValues(c, placeOf(at), site, v, who, known)),
    param: (site, at, key, value, who) => checkParam(c, placeOf(at), site, key, value, who),
    arg: (site, at, value, who) => checkArg(c, { ...placeOf(at), slot: 'extraArgs' }, site, value, who),
    unread: (site, at, description) => c.unread(placeOf(at), site, description),
    ignored: (site, at, description) => c.add(placeOf(at), site, undefined, 'ignored', description),
    target: (site, at, path) => c.target(placeOf(at), 'helm-values', site, path),
    parse: (text) => parseInline(text, 1),
  };
}
