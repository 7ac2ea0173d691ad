/** Policy gates configured under `policy:` in .appset-tools.yaml. Keep the summaries to one line. */
export const POLICY_CODES = [
  {
    code: 'policy/max-sync-at-once',
    severity: 'error',
    summary:
      'One commit can sync more Applications at the same time than policy.maxSyncAtOnce allows (AllAtOnce: all of them; RollingSync: the largest wave).',
  },
  {
    code: 'policy/rolling-sync-required',
    severity: 'error',
    summary:
      'Applications matching a policy.requireRollingSync selector (e.g. env: production) do not roll out with an effective RollingSync strategy.',
  },
  {
    code: 'policy/strategy-ignored',
    severity: 'error',
    summary:
      'A RollingSync strategy while progressive syncs are not enabled (policy.requireProgressiveSyncs): the controller ignores it and syncs everything at once.',
  },
  {
    code: 'policy/change-at-once',
    severity: 'error',
    summary:
      'The uncommitted change makes more Applications (policy.maxChangeAtOnce) or clusters (policy.maxChangeClustersAtOnce) sync at the same time than the policy allows; `appset diff` exits 1 for it.',
  },
] as const;
