/**
 * What a change does, as `appset diff --format sarif` reports it (results located in the
 * ApplicationSet file at the head revision). Keep the summaries to one line.
 */
export const DIFF_CODES = [
  {
    code: 'diff/deletes-resources',
    severity: 'warning',
    summary:
      'The change removes generated Applications whose deployed resources the controllers delete with them (the resources finalizer, a policy that deletes).',
  },
  {
    code: 'diff/generates-nothing',
    severity: 'warning',
    summary:
      'The generators produced Applications before the change and produce none after it (a selector or path that matches nothing): the controller deletes every one of them.',
  },
  {
    code: 'diff/step-emptied',
    severity: 'warning',
    summary: 'A RollingSync step selected Applications before the change and selects none after it: that stage of the rollout disappears.',
  },
  {
    code: 'diff/wave-grows',
    severity: 'information',
    summary: 'A RollingSync step syncs more Applications at once after the change than before.',
  },
  {
    code: 'diff/rollout-stops',
    severity: 'information',
    summary:
      'After the change the rollout can stop at a step where it did not before: a manual gate, a sync window, or an invalid Application (the rollout timeline).',
  },
] as const;
