/**
 * The held-out evaluation's pure logic (docs/evaluation.md): which half a repository belongs to, and
 * how one run's findings compare with the classification. No file system, no processes: tested by
 * test/unit/eval-compare.test.ts on synthetic data.
 */
import { createHash } from 'node:crypto';

/** The half of a repository, from its name alone (so it is fixed before anything is linted). */
export function halfOf(repo) {
  const byte = createHash('sha256').update(repo.toLowerCase()).digest()[0];
  return byte % 2 === 0 ? 'dev' : 'held-out';
}

/** The key a classification entry and a finding share: the repository and the finding's fingerprint. */
export const keyOf = (repo, fingerprint) => `${repo}\u0000${fingerprint}`;

/**
 * Compares the outcomes of one half with the classification.
 * outcomes: [{ repo, file, status: 'ok' | 'crash' | 'timeout', detail?, findings: [{ severity, code, fingerprint, line, message }] }]
 * classification: { findings: [{ repo, fingerprint, code, file, verdict: true | false, reason }] }
 * Only errors and warnings are judged; information and hints are not findings a gate acts on.
 */
export function compare(outcomes, classification) {
  const verdicts = new Map();
  for (const c of classification.findings ?? []) verdicts.set(keyOf(c.repo, c.fingerprint), c);
  const result = {
    files: outcomes.length,
    filesWithFalseError: 0,
    filesWithFalseWarning: 0,
    falseErrors: [],
    falseWarnings: [],
    trueFindings: [],
    unclassified: [],
    crashes: [],
  };
  for (const o of outcomes) {
    if (o.status !== 'ok') {
      result.crashes.push({ repo: o.repo, file: o.file, status: o.status, detail: o.detail ?? '' });
      continue;
    }
    let falseError = false;
    let falseWarning = false;
    for (const f of o.findings) {
      if (f.severity !== 'error' && f.severity !== 'warning') continue;
      const entry = { repo: o.repo, file: o.file, ...f };
      const c = verdicts.get(keyOf(o.repo, f.fingerprint));
      if (!c) result.unclassified.push(entry);
      else if (c.verdict === true) result.trueFindings.push(entry);
      else if (f.severity === 'error') {
        falseError = true;
        result.falseErrors.push({ ...entry, reason: c.reason });
      } else {
        falseWarning = true;
        result.falseWarnings.push({ ...entry, reason: c.reason });
      }
    }
    if (falseError) result.filesWithFalseError++;
    if (falseWarning) result.filesWithFalseWarning++;
  }
  return result;
}

/** Counts by diagnostic code, most frequent first: `code ×n, …`. */
export function byCode(findings) {
  const n = new Map();
  for (const f of findings) n.set(f.code, (n.get(f.code) ?? 0) + 1);
  return [...n]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([c, k]) => `${c} ×${k}`)
    .join(', ');
}

export const percent = (part, whole) => (whole === 0 ? '0.0%' : `${((100 * part) / whole).toFixed(1)}%`);

/**
 * What changed between two runs of one half (the same files, two builds), finding by finding, matched
 * by fingerprint (which ignores the message and the line number: fingerprint.ts). Judged are errors,
 * warnings and, at any severity, the verdict codes (`rollout/progressive-syncs-*`, `controller/*`):
 * a verdict users act on that changes is a change even at information.
 * Returns [{ kind: 'gone' | 'new' | 'severity' | 'message' | 'status', repo, file, code?, line?,
 * before?, after?, verdict: true | false | undefined }], verdict being the classification's.
 */
export function changes(before, after, classification) {
  const verdicts = new Map();
  for (const c of classification.findings ?? []) verdicts.set(keyOf(c.repo, c.fingerprint), c.verdict);
  const judged = (f) => f.severity === 'error' || f.severity === 'warning' || /^(rollout\/progressive-syncs|controller\/)/.test(f.code);
  const earlier = new Map(before.map((o) => [`${o.repo}\u0000${o.file}`, o]));
  const out = [];
  for (const o of after) {
    const p = earlier.get(`${o.repo}\u0000${o.file}`);
    const at = { repo: o.repo, file: o.file };
    if (!p || p.status !== o.status || p.exit !== o.exit) {
      out.push({
        kind: 'status',
        ...at,
        before: p ? `${p.status} ${p.exit ?? ''}`.trim() : 'not run',
        after: `${o.status} ${o.exit ?? ''}`.trim(),
      });
      if (!p) continue;
    }
    const was = new Map((p.findings ?? []).map((f) => [f.fingerprint, f]));
    const is = new Map((o.findings ?? []).map((f) => [f.fingerprint, f]));
    for (const [fp, f] of was) {
      const g = is.get(fp);
      const verdict = verdicts.get(keyOf(o.repo, fp));
      const one = { ...at, code: f.code, line: (g ?? f).line, verdict };
      if (!g) {
        if (judged(f)) out.push({ kind: 'gone', ...one, before: `${f.severity}: ${f.message ?? ''}` });
      } else if (g.severity !== f.severity) {
        if (judged(f) || judged(g)) out.push({ kind: 'severity', ...one, before: f.severity, after: `${g.severity}: ${g.message ?? ''}` });
      } else if (g.message !== f.message && judged(g)) out.push({ kind: 'message', ...one, before: f.message, after: g.message });
    }
    for (const [fp, g] of is)
      if (!was.has(fp) && judged(g))
        out.push({
          kind: 'new',
          ...at,
          code: g.code,
          line: g.line,
          verdict: verdicts.get(keyOf(o.repo, fp)),
          after: `${g.severity}: ${g.message ?? ''}`,
        });
  }
  return out;
}
