/** Diagnostic codes of the cluster inventory (generators/placeholders.ts decides what is a placeholder). Keep the summaries to one line. */
export const INVENTORY_CODES = [
  {
    code: 'inventory/placeholder-cluster',
    severity: 'information',
    summary:
      'A cluster Secret or inventory entry whose name or server is a placeholder (CLUSTER_NAME, ${…}, <…>, {{ … }}, changeme): a template, not a cluster, so generators leave it out.',
  },
] as const;
