/**
 * The rest of a workspace still being read (deferred at start, or again after a reset), read in slices
 * of the scheduler before a view answers: the preview, the plan and the lenses count Applications, and
 * from a part of the workspace (cluster Secrets not read yet) they would count none. False when the
 * request went stale meanwhile.
 */
import type { ServerState } from '../state';
import type { Revalidation } from './diagnostics';

export async function readWholeWorkspace(s: ServerState, revalidation: Revalidation, stale: () => boolean): Promise<boolean> {
  const ws = s.service.workspace;
  const steps = function* () {
    while (!ws.warm(10)) yield;
  };
  if (!(await s.slices(steps(), stale, 'workspace index')).ok) return false;
  if (ws.reading && s.guard('workspace index', false, () => ws.settle())) revalidation.scheduleOthers('');
  return true;
}
