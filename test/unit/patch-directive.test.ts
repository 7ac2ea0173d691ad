/**
 * A `$patch` key makes an ApplicationSet document a kustomize patch (validate/partial.ts), however the
 * key is written: plainly, or through an escape of a double-quoted scalar. The text is looked at first,
 * so that a long list without one is not walked (issue 39); these forms must still be found.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../helpers/memHost';
import { longListAppSet } from '../helpers/appsets';

const PATCH_NOTE = /kustomize strategic-merge patch \(\$patch directive\)/;

function note(text: string): string {
  const ls = getLanguageService({ host: memHost(new Map()) });
  const a = ls.analyze('file:///ws/a.yaml', text, '/ws/a.yaml');
  return ls.preview(a, 0)!.yaml;
}

test('a $patch key is found written plainly, by a hex or unicode escape, or across an escaped line break', () => {
  const base = longListAppSet(3);
  for (const key of ['$patch', '"$patch"', '"\\x24patch"', '"\\u0024patch"', '"$pat\\\n    ch"'])
    assert.match(note(base.replace('  name: long\n', `  name: long\n  ${key}: delete\n`)), PATCH_NOTE, key);
});

test('a long list without a $patch key is no patch', () => {
  assert.doesNotMatch(note(longListAppSet(3000)), PATCH_NOTE);
  assert.doesNotMatch(note(longListAppSet(3).replace('  name: long\n', '  name: long\n  patch: "\\x24"\n')), PATCH_NOTE);
});
