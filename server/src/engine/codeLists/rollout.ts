/**
 * Diagnostic codes owned by the rollout (progressive syncs, RollingSync plans). Keep the summaries to one line.
 * (Unsupported step operators and malformed maxUpdate values are reported by validation as
 * `appset/step-operator` and `appset/max-update`; this area offers their quick fixes.)
 */
export const ROLLOUT_CODES = [
  {
    code: 'rollout/progressive-syncs-disabled',
    severity: 'warning',
    summary:
      'A RollingSync strategy while the configuration of the Argo CD that runs it disables progressive syncs: the controller ignores it and syncs every Application at once.',
  },
  {
    code: 'rollout/progressive-syncs-not-found',
    severity: 'warning',
    summary:
      'A RollingSync strategy but nothing configuring the Argo CD that runs it enables progressive syncs (off by default): the strategy is probably ignored.',
  },
  {
    code: 'rollout/blast-radius',
    severity: 'information',
    variant: { severity: 'warning', when: 'the destinations look like production' },
    summary:
      'No rollout strategy while the ApplicationSet fans out to many Applications on several clusters: one commit syncs them all at once (a warning when the destinations look like production).',
  },
  {
    code: 'rollout/large-wave',
    severity: 'information',
    summary:
      'A RollingSync wave syncs more Applications at once than appsetTools.maxWaveSize: a bad change reaches all of them before anything stops it.',
  },
  {
    code: 'rollout/no-steps',
    severity: 'warning',
    summary:
      'RollingSync with an empty steps list: up to Argo CD 3.5 everything syncs at once; from 3.6 on the ApplicationSet stops reconciling.',
  },
  {
    code: 'rollout/empty-step',
    severity: 'warning',
    summary: 'A RollingSync step selects no generated Application (often: the label lives on clusters, not in template.metadata.labels).',
  },
  {
    code: 'rollout/duplicate-selection',
    severity: 'warning',
    summary: 'Applications selected by several steps: they sync in the first one, and every later step waits for them again.',
  },
  {
    code: 'rollout/unselected-apps',
    severity: 'warning',
    summary: 'Applications selected by no step are never synced by the rollout, yet their auto-sync is turned off.',
  },
  {
    code: 'rollout/manual-step',
    severity: 'information',
    variant: { severity: 'warning', when: 'every step is a manual gate, so the rollout never syncs anything by itself' },
    summary: 'maxUpdate 0 (or negative): the step is a manual gate; its Applications must be synced by hand before the rollout goes on.',
  },
  {
    code: 'rollout/blocked-step',
    severity: 'warning',
    summary: 'A step contains Applications the controller refuses to create, so the step never completes and later steps never run.',
  },
  {
    code: 'rollout/sync-window',
    severity: 'warning',
    summary:
      "An AppProject sync window can keep a RollingSync step's Applications from syncing: each parked sync holds one of the step's maxUpdate slots, so the step stalls and later steps wait.",
  },
  {
    code: 'rollout/sync-window-no-match',
    severity: 'warning',
    summary:
      "A sync window entry names one of the ApplicationSet's clusters the way its Applications do not (a cluster name where they write the server, a cluster under applications), so the window never applies to them.",
  },
  {
    code: 'rollout/automated-disabled',
    severity: 'information',
    summary:
      'syncPolicy.automated in the template: under RollingSync the controller turns auto-sync off (prune is still used for its syncs).',
  },
  {
    code: 'rollout/sync-policy-blocks-rollout',
    severity: 'warning',
    summary: 'applicationsSync create-only/create-delete never updates Applications, so RollingSync can never trigger their syncs.',
  },
  {
    code: 'rollout/deletion-order-finalizer',
    severity: 'warning',
    summary:
      'Argo CD 3.2: deletionOrder: Reverse without the resources-finalizer.argocd.argoproj.io finalizer deletes the Applications all at once (3.3 adds the finalizer itself).',
  },
  {
    code: 'rollout/deletion-order-ignored',
    severity: 'warning',
    summary: 'deletionOrder: Reverse only applies with a RollingSync strategy that has steps.',
  },
  {
    code: 'rollout/ignored-setting',
    severity: 'warning',
    summary:
      'A progressive-sync setting the controller does not read (old "progressive rollouts" name, not true/false, operator cmdParams).',
  },
] as const;
