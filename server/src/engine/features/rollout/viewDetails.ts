/**
 * What the editor's rollout view adds to the plan: each Application's destination and the place its
 * parameters came from (a list element of this file, a cluster Secret), and the step under the cursor.
 */
import type { AppSetContext } from '../context';
import type { PlanApp } from '@appset-tools/protocol';
import { originPlace } from '../../expand/provenance';
import { loadInventory } from '../../generators/inventory';
import { getStrategy } from './plan';
import { isObj } from '../../objects';

const MAX_APPS = 5000;

export function rolloutViewDetails(
  ctx: AppSetContext,
  offset?: number,
): { apps: Record<string, PlanApp>; focusStep?: number; labelKeys: string[] } {
  const apps: Record<string, PlanApp> = {};
  const exp = ctx.expansion();
  let clusterFiles: Map<string, string> | undefined;
  const clusterFile = (name: string) => {
    clusterFiles ??= new Map(loadInventory(ctx.file).clusters.map((c) => [c.name, c.file]));
    return clusterFiles.get(name);
  };
  for (const a of exp.apps.slice(0, MAX_APPS)) {
    const spec = a.app.spec;
    const dest = isObj<unknown>(spec) && isObj<unknown>(spec.destination) ? spec.destination : undefined;
    const where = [dest?.server ?? dest?.name, dest?.namespace].filter((x) => typeof x === 'string' && x).join(' / ');
    const server = dest?.server ?? dest?.name;
    const fromSecret = a.origins?.find((o) => o.startsWith('cluster:'))?.slice('cluster:'.length);
    const entry: PlanApp = {
      destination: where || '(no destination)',
      cluster: fromSecret ?? (typeof server === 'string' && server ? server : undefined),
      labels: a.labels,
    };
    for (const o of a.origins ?? []) {
      if (o.startsWith('spec/')) {
        const { path, span } = originPlace(ctx.doc, o);
        if (span) entry.source = { file: ctx.file.path ?? ctx.file.uri, offset: span.start, label: `list element ${path.at(-1)}` };
      } else if (o.startsWith('cluster:')) {
        const name = o.slice('cluster:'.length);
        const file = clusterFile(name);
        if (file) {
          const text = ctx.file.workspace.file(file)?.text ?? '';
          const at = text.search(new RegExp(`\\bname:\\s*["']?${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?\\s*$`, 'm'));
          entry.source = { file, offset: Math.max(0, at), label: `cluster ${name}` };
        }
      }
      if (entry.source) break;
    }
    Object.defineProperty(apps, a.name, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  let focusStep: number | undefined;
  const steps = getStrategy(ctx).steps;
  const labelKeys = [...new Set(steps.flatMap((st) => st.matchExpressions.map((e) => e.key)).filter(Boolean))];
  if (offset !== undefined) {
    for (const st of steps) {
      const span = st.at.step.span;
      if (span && offset >= span.start && offset <= span.end) focusStep = st.index + 1;
    }
  }
  return { apps, focusStep, labelKeys };
}
