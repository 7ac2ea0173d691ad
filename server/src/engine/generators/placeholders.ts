/**
 * Placeholder cluster Secrets. Repositories keep cluster Secrets (and inventory entries) as templates
 * that a script, Terraform, envsubst or Helm fills in before they reach Argo CD:
 *
 *     stringData:
 *       name: CLUSTER_NAME                 # sed / envsubst targets
 *       server: ${CLUSTER_SERVER}          # shell, envsubst, Terraform
 *       server: <<cluster_endpoint>>       # workshop-style markers, also <cluster-url>
 *       name: '{{ .Values.cluster.name }}' # Helm / gomplate
 *       name: changeme
 *
 * Such an entry is a template, not a cluster: the inventory leaves it out (it would otherwise become a
 * cluster named "CLUSTER_NAME" and every Application on it an invalid name), and the Secret's file gets
 * one `inventory/placeholder-cluster` note, where the placeholder is written
 * (features/inventory/contributor.ts).
 */

/** A text that may declare clusters (a cluster Secret or a ClusterInventory): a cheap pre-filter for folder walks. */
export function mayDeclareClusters(text: string): boolean {
  return /argocd\.argoproj\.io\/secret-type["']?\s*:\s*["']?cluster\b/.test(text) || /^kind:\s*["']?ClusterInventory\b/m.test(text);
}

/** The placeholder in a cluster's name or server value, described for a message; undefined for real values. */
export function placeholderIn(field: 'name' | 'server', v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object') return 'an unquoted {{ … }} (YAML reads it as a mapping)';
  const s = String(v).trim();
  let m: RegExpExecArray | null;
  if ((m = /\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*\b|%\{[^}]*\}/.exec(s))) return `"${m[0]}"`;
  if ((m = /\{\{[^]*?\}\}/.exec(s))) return `"${m[0]}"`;
  if ((m = /<<?[^<>\s]+>>?/.exec(s))) return `"${m[0]}"`;
  if ((m = /\b(?:change[-_]?me|replace[-_]?me|fix[-_]?me|todo|tbd)\b/i.exec(s))) return `"${m[0]}"`;
  if (/^x{3,}$/i.test(s)) return `"${s}"`;
  // An all-capitals word with an underscore: a name no one gives a cluster, and never a DNS host.
  if (field === 'name' ? /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(s) : (m = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/.exec(s)) !== null)
    return `"${field === 'name' ? s : m![0]}"`;
  return undefined;
}

/** The placeholder of a cluster entry (name first, then server), with the field it is in. */
export function clusterPlaceholder(name: unknown, server: unknown): { field: 'name' | 'server'; what: string } | undefined {
  const n = placeholderIn('name', name);
  if (n) return { field: 'name', what: n };
  const s = placeholderIn('server', server);
  if (s) return { field: 'server', what: s };
  return undefined;
}
