/**
 * The held-out evaluation's comparison logic (scripts/eval/compare.mjs) on synthetic outcomes: which
 * findings count as false, per file, and what stays unclassified. The evaluation itself needs
 * fetched repositories and is not part of the suite (docs/evaluation.md).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EvalClassification, EvalOutcome } from '../../scripts/eval/compare.mjs' with { 'resolution-mode': 'import' };

// The harness is an ES module (it runs without tsx); this test file is CommonJS.
const load = () => import('../../scripts/eval/compare.mjs');

const classification: EvalClassification = {
  findings: [
    { repo: 'a/one', fingerprint: 'f-true', verdict: true, reason: 'real' },
    { repo: 'a/one', fingerprint: 'f-false-err', verdict: false, reason: 'not what the controller does' },
    { repo: 'a/one', fingerprint: 'f-false-warn', verdict: false, reason: 'noise' },
    // The same fingerprint in another repository is a different finding.
    { repo: 'b/two', fingerprint: 'f-true-b', verdict: true, reason: 'real' },
  ],
};

test('false errors and warnings are counted per file; information and hints are not judged', async () => {
  const { byCode, compare, percent } = await load();
  const outcomes: EvalOutcome[] = [
    {
      repo: 'a/one',
      file: 'x.yaml',
      status: 'ok',
      findings: [
        { severity: 'error', code: 'c/1', fingerprint: 'f-false-err' },
        { severity: 'warning', code: 'c/2', fingerprint: 'f-false-warn' },
        { severity: 'warning', code: 'c/2', fingerprint: 'f-false-warn' },
        { severity: 'information', code: 'c/3', fingerprint: 'never-classified' },
      ],
    },
    { repo: 'a/one', file: 'y.yaml', status: 'ok', findings: [{ severity: 'error', code: 'c/4', fingerprint: 'f-true' }] },
    { repo: 'a/one', file: 'z.yaml', status: 'ok', findings: [{ severity: 'hint', code: 'c/5', fingerprint: 'h' }] },
  ];
  const r = compare(outcomes, classification);
  assert.equal(r.files, 3);
  assert.equal(r.filesWithFalseError, 1);
  assert.equal(r.filesWithFalseWarning, 1);
  assert.equal(r.falseWarnings.length, 2);
  assert.equal(r.trueFindings.length, 1);
  assert.deepEqual(r.unclassified, []);
  assert.equal(byCode(r.falseWarnings), 'c/2 ×2');
  assert.equal(percent(r.filesWithFalseWarning, r.files), '33.3%');
});

test('a finding is matched by repository and fingerprint; unmatched ones and crashes are reported', async () => {
  const { compare } = await load();
  const outcomes: EvalOutcome[] = [
    { repo: 'b/two', file: 'x.yaml', status: 'ok', findings: [{ severity: 'error', code: 'c/1', fingerprint: 'f-true' }] },
    { repo: 'b/two', file: 'y.yaml', status: 'timeout', detail: 'killed', findings: [] },
  ];
  const r = compare(outcomes, classification);
  assert.equal(r.unclassified.length, 1, 'f-true is classified for a/one only');
  assert.equal(r.unclassified[0].file, 'x.yaml');
  assert.equal(r.crashes.length, 1);
  assert.equal(r.crashes[0].status, 'timeout');
  assert.equal(r.filesWithFalseError + r.filesWithFalseWarning, 0);
});

test('the half of a repository depends on its name only, case-insensitively, and both halves occur', async () => {
  const { halfOf } = await load();
  assert.equal(halfOf('Owner/Repo'), halfOf('owner/repo'));
  const halves = new Set(Array.from({ length: 20 }, (_, i) => halfOf(`owner/repo-${i}`)));
  assert.deepEqual([...halves].sort(), ['dev', 'held-out']);
});

test('changes between two runs: a true finding gone, a severity change, a new finding, a changed verdict message', async () => {
  const { changes } = await load();
  const before: EvalOutcome[] = [
    {
      repo: 'a/one',
      file: 'x.yaml',
      status: 'ok',
      findings: [
        { severity: 'error', code: 'c/1', fingerprint: 'f-true', message: 'real' },
        { severity: 'warning', code: 'c/2', fingerprint: 'f-false-warn', message: 'noise' },
        { severity: 'information', code: 'rollout/progressive-syncs-enabled', fingerprint: 'v', message: 'Enabled by a.yaml' },
        { severity: 'information', code: 'c/3', fingerprint: 'i', message: 'one' },
      ],
    },
  ];
  const after: EvalOutcome[] = [
    {
      repo: 'a/one',
      file: 'x.yaml',
      status: 'ok',
      findings: [
        { severity: 'information', code: 'c/2', fingerprint: 'f-false-warn', message: 'noise' },
        { severity: 'information', code: 'rollout/progressive-syncs-enabled', fingerprint: 'v', message: 'Unknown whether honoured' },
        { severity: 'information', code: 'c/3', fingerprint: 'i', message: 'two' },
        { severity: 'warning', code: 'c/4', fingerprint: 'f-new', message: 'new' },
      ],
    },
  ];
  const c = changes(before, after, classification);
  assert.deepEqual(
    c.map((x) => [x.kind, x.code, x.verdict]),
    [
      ['gone', 'c/1', true],
      ['severity', 'c/2', false],
      // A verdict code is judged at any severity; other information is not.
      ['message', 'rollout/progressive-syncs-enabled', undefined],
      ['new', 'c/4', undefined],
    ],
  );
  assert.deepEqual(changes(before, [], classification), []);
  assert.equal(changes([], before, classification)[0].kind, 'status');
});
