/**
 * Short lenses (issue 29): split editors cut a lens at about 40 characters, so every lens the server
 * writes holds its key fact there. Each kind of lens is produced by the real language service over the
 * story (540 Applications) in the states a user meets — no strategy, a strategy ignored, enabled,
 * steps that leave Applications out, no Application at all — and its first 40 characters must hold
 * the fact this test names for it, and be the only lens of its line (VS Code draws a line's lenses side by
 * side, so a second one starts past the cut). A lens of a kind the test does not know fails it (add it here).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../helpers/memHost';
import { cmdParamsCm } from '../helpers/clusters';
import { storyAppSet, storyRollout, storySecrets } from '../helpers/story';

const WIDTH = 40;

/** The key fact of each kind of lens, as a pattern its first 40 characters must match whole. */
const KINDS: [kind: string, key: RegExp][] = [
  ['preview count', /^\d+\+? Applications?( · approximate)?( · \S.*)?$/],
  ['per-generator count', /^\d+ Applications?$/],
  ['blast radius', /^All at once: \d+ apps on \d+ clusters/],
  ['plan', /^\d+ steps? · \d+ apps? · (\d+ waves?|[1-9]\d* unselected)/],
  ['plan if enabled', /^If enabled: \d+ steps? · \d+ apps?/],
  // Whether the controller honours the strategy, one kind per enablement state; the file that enables
  // it by name and line, whole (its path and the install are the tooltip).
  ['ignored', /^Ignored · all \d+ apps sync at once$/],
  ['enabled by', /^Enabled by [\w.-]+\.ya?ml:\d+$/],
  ['unknown', /^Unknown whether honoured · base unread$/],
  ['not deployed', /^Not deployed yet · \d+ apps at once$/],
  ['step', /^Step \d+ · \d+ apps? · (\d+ at a time|all at once|manual gate)/],
];

/** The lenses' titles; fails when two lenses share a line (the second would start past the cut). */
function lensesOf(appset: string, enabled: 'true' | 'false' | Record<string, string>): string[] {
  const files = new Map([
    ['/ws/clusters/secrets.yaml', storySecrets()],
    ...Object.entries(typeof enabled === 'string' ? { '/ws/argocd/argocd-cmd-params-cm.yaml': cmdParamsCm(enabled) } : enabled),
    ['/ws/apps/services.yaml', appset],
  ]);
  const ls = getLanguageService({ host: memHost(files) });
  const a = ls.analyze('file:///ws/apps/services.yaml', appset, '/ws/apps/services.yaml');
  const lenses = ls.codeLenses(a);
  const lines = new Map<number, string[]>();
  for (const l of lenses) {
    const line = appset.slice(0, l.span.start).split('\n').length;
    lines.set(line, [...(lines.get(line) ?? []), l.title]);
  }
  // VS Code draws the lenses of a line side by side (`a | b`): only the first starts within the cut.
  for (const [line, titles] of lines)
    assert.equal(titles.length, 1, `lenses sharing line ${line} ("${appset.split('\n')[line - 1]}"): ${titles.join(' | ')}`);
  return lenses.map((l) => l.title);
}

test('every lens holds its key fact in its first 40 characters', () => {
  const plain = storyAppSet('go');
  const withSteps = storyRollout([{ values: ['canary'] }, { values: ['low-traffic'], maxUpdate: '25%' }], { block: true });
  const none = plain.replace('env: prod', 'env: production');
  const titles = [
    ...lensesOf(plain, 'false'),
    ...lensesOf(withSteps, 'false'),
    ...lensesOf(withSteps, 'true'),
    // Not deployed yet: the enabling ConfigMap beside the ApplicationSets, which nothing deploys.
    ...lensesOf(withSteps, { '/ws/apps/argocd-cmd-params-cm.yaml': cmdParamsCm('true') }),
    // Unknown: the install is a remote base of another repository, not read offline.
    ...lensesOf(withSteps, {
      '/ws/argocd/kustomization.yaml': 'namespace: argocd\nresources:\n  - github.com/acme/platform-base//argocd?ref=v1.4.0\n',
    }),
    ...lensesOf(none, 'true'),
    ...lensesOf(
      plain.replace('  generators:\n', '  generators:\n  - list:\n      elements: [{name: x, service: y, server: https://x}]\n'),
      'true',
    ),
  ];
  const seen = new Set<string>();
  for (const t of titles) {
    const kinds = KINDS.filter(([, key]) => key.test(t.slice(0, WIDTH)));
    assert.ok(kinds.length, `a lens whose first ${WIDTH} characters hold no known key fact: "${t}" → "${t.slice(0, WIDTH)}"`);
    for (const [k] of kinds) seen.add(k);
  }
  // Every kind was met (the scenarios above produce each), and the 0-Application lens says why within 40.
  assert.deepEqual([...seen].sort(), KINDS.map(([k]) => k).sort(), titles.join('\n'));
  const zero = titles.find((t) => t.startsWith('0 Applications'));
  assert.ok(zero && /^0 Applications · \S/.test(zero.slice(0, WIDTH)) && zero.slice(0, WIDTH).includes('selector'), zero);
  // Applications no step selects are said before the waves.
  const partial = titles.find((t) => /^\d+ steps/.test(t) && t.includes('unselected'));
  assert.ok(partial && partial.slice(0, WIDTH).includes('315 unselected'), titles.join('\n'));
});
