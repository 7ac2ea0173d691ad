/**
 * Argo CD cluster Secrets as tests write them: a Secret labelled `argocd.argoproj.io/secret-type:
 * cluster` whose stringData holds the cluster's name and server (the shape the cluster generator reads;
 * Argo CD's docs, declarative-setup.md "Clusters"). One builder, so every test writes the same YAML.
 */

export interface ClusterSecretSpec {
  /** The cluster's name (`stringData.name`, the generator's `name` parameter). */
  name: string;
  /** Its API server URL (`stringData.server`); default `https://<name>.example.com`. */
  server?: string;
  /** Labels after `argocd.argoproj.io/secret-type: cluster`, in this order. */
  labels?: Record<string, string>;
  /** `metadata.name`; default `cluster-<name>`. */
  secretName?: string;
  /** `metadata.namespace`; default `argocd`, `null` leaves the line out. */
  namespace?: string | null;
  /** Writes `type: Opaque`, as `kubectl create secret generic` does. */
  opaque?: boolean;
}

/** One cluster Secret, block style. */
export function clusterSecret(c: ClusterSecretSpec): string {
  const lines = ['apiVersion: v1', 'kind: Secret', 'metadata:', `  name: ${c.secretName ?? `cluster-${c.name}`}`];
  const ns = c.namespace === undefined ? 'argocd' : c.namespace;
  if (ns !== null) lines.push(`  namespace: ${ns}`);
  lines.push('  labels:', '    argocd.argoproj.io/secret-type: cluster');
  for (const [k, v] of Object.entries(c.labels ?? {})) lines.push(`    ${k}: ${v}`);
  if (c.opaque) lines.push('type: Opaque');
  lines.push('stringData:', `  name: ${c.name}`, `  server: ${c.server ?? `https://${c.name}.example.com`}`);
  return lines.join('\n') + '\n';
}

/** Several cluster Secrets in one multi-document file. */
export function clusterSecrets(clusters: readonly ClusterSecretSpec[]): string {
  return clusters.map(clusterSecret).join('---\n');
}

/** The same Secret written terser, metadata and stringData as flow maps where they fit (no namespace, no type). */
export function flowClusterSecret(c: ClusterSecretSpec): string {
  const labels = ['argocd.argoproj.io/secret-type: cluster', ...Object.entries(c.labels ?? {}).map(([k, v]) => `${k}: ${v}`)];
  const server = c.server ?? `https://${c.name}.example.com`;
  return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${c.secretName ?? `cluster-${c.name}`}\n  labels: {${labels.join(', ')}}\nstringData: {name: ${c.name}, server: '${server}'}\n`;
}

/** argocd-cmd-params-cm with the progressive-syncs flag (`"true"`/`"false"`, or any raw value under test). */
export function cmdParamsCm(value: string, namespace: string | null = null): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-cmd-params-cm\n${namespace ? `  namespace: ${namespace}\n` : ''}data:\n  applicationsetcontroller.enable.progressive.syncs: "${value}"\n`;
}
