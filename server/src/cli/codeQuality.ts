/**
 * `appset lint --format codequality`: GitLab's Code Quality report (a JSON array in the CodeClimate
 * issue subset GitLab reads: description, check_name, fingerprint, severity, location.path/lines), so
 * findings show in the merge request's Code Quality widget. Suppressed findings are left out.
 */
import type { Severity } from '@appset-tools/engine';
import type { LintReport } from './report';

const SEVERITY: Record<Severity, 'blocker' | 'critical' | 'major' | 'minor' | 'info'> = {
  error: 'major',
  warning: 'minor',
  information: 'info',
  hint: 'info',
};

export function toCodeQuality(r: LintReport): object[] {
  return r.files.flatMap((f) =>
    f.diagnostics
      .filter((d) => !d.suppressed)
      .map((d) => ({
        description: d.message,
        check_name: d.code,
        fingerprint: d.fingerprint,
        severity: SEVERITY[d.severity],
        location: { path: d.path, lines: { begin: d.line, end: d.endLine } },
      })),
  );
}
