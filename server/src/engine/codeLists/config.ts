/** Diagnostic codes of the repository configuration and inline suppressions. Keep the summaries to one line. */
export const CONFIG_CODES = [
  {
    code: 'config/invalid',
    severity: 'error',
    summary: 'A setting in .appset-tools.yaml the tool cannot use (unknown key, wrong type or value); that setting is ignored.',
  },
  {
    code: 'config/suppression',
    severity: 'warning',
    variant: { severity: 'information', when: 'the comment no longer suppresses anything' },
    summary:
      'An "# appset-tools: ignore" comment with no code, an unknown code or no reason (then it suppresses nothing), or one that no longer suppresses anything.',
  },
] as const;
