/**
 * `rollout/sync-window-no-match`: a sync window entry that names one of this ApplicationSet's clusters
 * the way its Applications do not (rollout/windowMisses.ts), so the window never applies to them. The
 * finding is on `strategy:` (the rollout the window was written to hold), with the window as related
 * information.
 */
import type { AppSetContext } from '../context';
import type { EngineDiagnostic } from '../../types';
import { fieldsOf } from '../../fields/appset';
import { getProjects } from '../../rollout/syncWindows';
import { windowMisses } from '../../rollout/windowMisses';
import { windowText } from '../../rollout/describe';
import { loadInventory } from '../../generators/inventory';
import { finding } from '../../diagnostics/codes';
import { names } from '../../rollout/describe';

export function windowMissDiagnostics(ctx: AppSetContext, namespace: string | undefined): EngineDiagnostic[] {
  const projects = getProjects(ctx.file.workspace, ctx.file.host.roots());
  if (!projects.length) return [];
  const clusters = loadInventory(ctx.file).clusters;
  const misses = windowMisses(ctx.expansion().apps, projects, clusters, ctx.file.path ?? '', namespace);
  const span = fieldsOf(ctx.doc).strategy.at.strategy.keySpan;
  return misses.map((m) => {
    const dest = m.writtenAs === 'server' ? m.cluster.server : m.cluster.name;
    const other = m.writtenAs === 'server' ? 'name' : 'server';
    const who = `${m.apps.length === 1 ? 'its Application' : `its ${m.apps.length} Applications`} (${names(m.apps)})`;
    const why =
      m.field === 'clusters'
        ? `its clusters entry "${m.entry}" is the cluster's ${other}, but these Applications write their destination by ${m.writtenAs} (${dest}), and Argo CD matches a window's clusters against the destination's name or server as the Application writes it. Write "${dest}" there.`
        : `its applications entry "${m.entry}" names the cluster, but applications matches Application names; to hold the cluster, write "${dest}" under clusters (the destination's ${m.writtenAs}, as these Applications write it).`;
    return finding(
      'rollout/sync-window-no-match',
      `The sync window of AppProject ${m.project.name} at ${m.window.where} never applies to cluster ${m.cluster.name} and ${who}: ${why}`,
      span,
      {
        related: [
          {
            location: { file: m.project.file, ...(m.window.span ? { span: m.window.span } : {}) },
            message: `${windowText(m.window)} of AppProject ${m.project.name}: ${m.field} "${m.entry}" matches none of these Applications`,
          },
        ],
        data: { field: m.field, entry: m.entry, destination: dest },
      },
    );
  });
}
