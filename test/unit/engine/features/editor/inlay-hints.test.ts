/**
 * Inlay hints (issue 29): a template string's value in the first Application, readable while typing (a
 * whole map shows its keys, not Go's `map[…]`), and how many of the other Applications differ.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { readableValue } from '../../../../../server/src/engine/features/editor/decorations';
import { memHost } from '../../../../helpers/memHost';
import { storyAppSet, storySecrets } from '../../../../helpers/story';

test('readable values: Go map prints become their keys, nested maps too; other text is kept', () => {
  assert.equal(readableValue('map[labels:map[env:prod tier:canary] name:prod-01]'), '{labels, name}');
  assert.equal(readableValue('x-map[a:1]-y'), 'x-{a}-y');
  assert.equal(readableValue('map[]'), '{}');
  assert.equal(readableValue('plain'), 'plain');
  assert.equal(readableValue('map[unclosed'), 'map[unclosed', 'not a map print: as it is');
});

test('the 540-Application story: the first value, how many differ, and a map while a key is being typed', () => {
  const p = '/ws/apps/services.yaml';
  let text = storyAppSet('go');
  const files = new Map([
    ['/ws/clusters/secrets.yaml', storySecrets()],
    [p, text],
  ]);
  const ls = getLanguageService({ host: memHost(files) });
  const hints = (t: string) => {
    const a = ls.analyze('file://' + p, t, p);
    return ls
      .inlayHints(a)
      .map((h) => ({ at: t.slice(t.lastIndexOf('\n', h.offset - 1) + 1, h.offset).trim(), label: h.label, tooltip: h.tooltip }));
  };
  const h = hints(text);
  const name = h.find((x) => x.at.startsWith('name:'));
  assert.equal(name?.label, '= prod-01-svc-01 · 539 of 540 differ');
  assert.match(name!.tooltip, /^In prod-01-svc-01 \(the first of 540\); 539 render it differently, e\.g\. prod-01-svc-02, /);
  // 12 clusters share each service's path.
  const repo = h.find((x) => x.at.startsWith('path:'));
  assert.equal(repo?.label, '= services/svc-01 · 528 of 540 differ');
  // While `.metadata.labels.tier` is being typed, `.metadata` names the whole map.
  text = text.replace("namespace: '{{.service}}'", "namespace: '{{ .metadata }}'");
  files.set(p, text);
  const typed = hints(text).find((x) => x.at.startsWith('namespace:'));
  assert.ok(typed, JSON.stringify(hints(text)));
  // The labels map differs between the canary cluster's 45 Applications and the others.
  assert.equal(typed.label, '= {labels} · 495 of 540 differ');
  assert.match(typed.tooltip, /495 render it differently.*\. It prints a whole map \(Go writes map\[…\]\): name one of its keys\.$/);
});
