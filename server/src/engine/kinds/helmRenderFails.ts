/**
 * The rule `helm/render-fails`: a chart template Helm itself fails on with the chart's values.yaml.
 * `helm template`, and Argo CD's sync of the chart (the repo-server runs `helm template`), stop at the
 * same place. Only a failure of text/template on the data (a nil pointer) is said, never one of this
 * port's own limits. Rendering needs the host and the template library, which sit above `kinds/`:
 * service/helmRenderFindings.ts renders and hands over what Helm failed on (`HelmFailure`); the
 * decision and the words live here, in the `helm/` prefix's home (codeLists/homes.ts).
 */
import type { EngineDiagnostic } from '../types';
import { finding } from '../diagnostics/codes';

/** Where and why Helm fails on a chart template (1-based line), and whether another values file sits beside values.yaml. */
export interface HelmFailure {
  line: number;
  detail: string;
  /** Values files beside values.yaml may set what it lacks: then the finding is information. */
  otherValues: boolean;
}

export function helmRenderFails(text: string, fails: HelmFailure): EngineDiagnostic[] {
  // The failing line, its text without the indentation.
  let start = 0;
  for (let l = 1; l < fails.line; l++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    start = nl + 1;
  }
  const eol = text.indexOf('\n', start);
  const line = text.slice(start, eol < 0 ? text.length : eol);
  const lead = line.length - line.trimStart().length;
  return [
    finding(
      'helm/render-fails',
      `helm template fails on this chart template with the chart's values.yaml: ${fails.detail}; Argo CD's sync of the chart fails the same way${fails.otherValues ? ' unless another values file sets it' : ''} (set the value in values.yaml, or guard it with "default" or "if")`,
      { start: start + lead, end: start + line.trimEnd().length },
      { variant: fails.otherValues },
    ),
  ];
}
