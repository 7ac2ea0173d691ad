/**
 * The `inventory/placeholder-cluster` notes: a cluster Secret or ClusterInventory entry whose name or
 * server is a placeholder is a template, not a cluster (generators/placeholders.ts decides), and its
 * file says so once, on the placeholder.
 */
import type { FeatureContributor, FileContext } from '../context';
import type { EngineDiagnostic, Json } from '../../types';
import { spanAt, type JsonPath } from '../../yaml';
import { isObj } from '../../objects';
import { clusterPlaceholder } from '../../generators/placeholders';
import { SECRET_TYPE_LABEL } from '../../generators/inventory';
import { finding } from '../../diagnostics/codes';

/** The `inventory/placeholder-cluster` notes of one file (cluster Secrets and ClusterInventory entries). */
function placeholderDiagnostics(file: FileContext): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  for (const d of file.parsed.docs) {
    const v = d.value;
    if (!isObj(v)) continue;
    const labels = isObj(v.metadata) && isObj(v.metadata.labels) ? v.metadata.labels : undefined;
    if (v.kind === 'Secret' && labels && labels[SECRET_TYPE_LABEL] === 'cluster') {
      const sd = isObj(v.stringData) ? v.stringData : undefined;
      const data = isObj(v.data) ? v.data : undefined;
      const field = (k: string): [Json | undefined, JsonPath] =>
        sd && k in sd ? [sd[k], ['stringData', k]] : data && k in data ? [decode(data[k]), ['data', k]] : [undefined, []];
      const [name, namePath] = field('name');
      const [server, serverPath] = field('server');
      const p = clusterPlaceholder(name, server);
      if (!p) continue;
      const secret = isObj(v.metadata) && typeof v.metadata.name === 'string' ? `cluster Secret "${v.metadata.name}"` : 'cluster Secret';
      out.push(
        note(
          spanAt(d.doc, p.field === 'name' ? namePath : serverPath),
          `this ${secret} is a template, not a cluster: its ${p.field} is the placeholder ${p.what}. Cluster generators leave it out; they see it once it is filled in.`,
        ),
      );
    } else if (
      v.kind === 'ClusterInventory' &&
      typeof v.apiVersion === 'string' &&
      v.apiVersion.startsWith('appset-tools/') &&
      Array.isArray(v.clusters)
    ) {
      v.clusters.forEach((c, i) => {
        if (!isObj(c)) return;
        const p = clusterPlaceholder(c.name, c.server);
        if (p)
          out.push(
            note(
              spanAt(d.doc, ['clusters', i, p.field]),
              `this inventory entry is a template, not a cluster: its ${p.field} is the placeholder ${p.what}. Cluster generators leave it out.`,
            ),
          );
      });
    }
  }
  return out;
}

function decode(x: Json | undefined): string {
  return Buffer.from(String(x ?? ''), 'base64').toString('utf8');
}

function note(span: { start: number; end: number }, message: string): EngineDiagnostic {
  return finding('inventory/placeholder-cluster', message, span);
}

export const placeholderContributor: FeatureContributor = {
  name: 'inventory-placeholders',
  fileDiagnostics: placeholderDiagnostics,
};
