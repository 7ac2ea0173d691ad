// Quick fixes of validation diagnostics: applying them removes the diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { emptyHost } from '@appset-tools/engine';
import { validationContributor } from '../../../../../server/src/engine/features/validation/contributor';
import type { CodeAction } from '@appset-tools/engine';
import { appset } from '../../../../helpers/appsets';

const ls = getLanguageService({ host: emptyHost(), contributors: [validationContributor] });

function apply(text: string, a: CodeAction): string {
  const edits = [...(a.edits ?? [])].sort((x, y) => y.span.start - x.span.start);
  for (const e of edits) text = text.slice(0, e.span.start) + e.newText + text.slice(e.span.end);
  return text;
}

function fixFirst(text: string, code: string): { fixed: string; action: CodeAction } {
  const a = ls.analyze(`mem://${Math.random()}.yaml`, text);
  const d = ls.diagnostics(a).find((x) => x.code === code);
  assert.ok(d, `no ${code}`);
  const actions = ls.codeActions(a, d!.span, [d!]);
  assert.equal(actions.length, 1, JSON.stringify(actions.map((x) => x.title)));
  return { fixed: apply(text, actions[0]), action: actions[0] };
}

const remaining = (text: string) => ls.diagnostics(ls.analyze(`mem://${Math.random()}.yaml`, text)).map((d) => d.code);

test('did-you-mean fixes: misspelt field, strategy type (keeping quotes), enum value, selector operator', () => {
  const cases: [string, string, string][] = [
    [
      appset('  strategy:\n    type: RollingSync\n    rollingSync:\n      steps:\n      - maxUpdates: 1\n'),
      'appset/unknown-field',
      'maxUpdate: 1',
    ],
    [appset('  strategy:\n    type: "rollingsync"\n    rollingSync:\n      steps: []\n'), 'appset/strategy-type', 'type: "RollingSync"'],
    [appset('  syncPolicy:\n    applicationsSync: create-updat\n'), 'appset/invalid-value', 'applicationsSync: create-update'],
    [
      appset('', {
        generators: '  - list:\n      elements: []\n    selector:\n      matchExpressions:\n      - {key: a, operator: notin, values: [b]}',
      }),
      'appset/selector-operator',
      'operator: NotIn',
    ],
    [appset('  strategy:\n    deletionOrder: revers\n'), 'appset/deletion-order', 'deletionOrder: Reverse'],
    [appset('  goTemplate: yes\n'), 'appset/yaml11-boolean', 'goTemplate: true'],
    [appset('').replace('targetRevision: HEAD', 'targetRevision: on'), 'appset/yaml11-boolean', 'targetRevision: "on"'],
  ];
  for (const [text, code, expect] of cases) {
    const { fixed, action } = fixFirst(text, code);
    assert.equal(action.isPreferred, true);
    assert.ok(fixed.includes(expect), `${code}: ${fixed}`);
    assert.deepEqual(remaining(fixed), [], code);
  }
});

test('remove the deprecated applyNestedSelectors line', () => {
  const { fixed } = fixFirst(appset('  applyNestedSelectors: true  # old\n'), 'appset/deprecated-field');
  assert.equal(fixed, appset(''));
});
