/**
 * "A limit reached or a file not read makes an answer Unknown, with the reason: never a different
 * answer." The configuration of an install that exists but was not read (a remote kustomize base, a
 * file the workspace index skipped, entries past the install model's bound: install/scan.ts marks them
 * `unread`) could set progressive syncs either way, at any level, so whatever the rest says, the
 * verdict on that install is unknown. One rule, for every front (rollout/enablement.ts, install/report.ts).
 */
import type { DetailedEvidence } from './scan';

/** What was not read, one line each (`argocd/kustomization.yaml:5: not read: remote base …`). */
export function unreadLines(evidence: readonly DetailedEvidence[], where: (e: DetailedEvidence) => string): string[] {
  return [...new Set(evidence.filter((e) => e.unread).map((e) => `${where(e)}: ${e.description.replace(/ \(kustomize fetches.*$/, '')}`))];
}
