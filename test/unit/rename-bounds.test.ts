/**
 * Rename changes every definition of a parameter or none (issue 38: it changed the first 200 list
 * elements and said nothing, so the others kept the old key and the ApplicationSet broke). Past
 * rename's own bound it refuses with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, emptyHost } from '@appset-tools/engine';
import { appsetHead, flowTemplate, LOCAL } from '../helpers/appsets';

const listAppSet = (n: number) =>
  `${appsetHead('many')}  generators:
    - list:
        elements:
${Array.from({ length: n }, (_, i) => `          - svc: s${i}\n`).join('')}${flowTemplate("'many-{{.svc}}'", 'repoURL: https://example.com/x.git, path: deploy', LOCAL)}`;

test('rename edits all 300 definitions and the use', () => {
  const text = listAppSet(300);
  const ls = getLanguageService({ host: emptyHost() });
  const a = ls.analyze('mem://many.yaml', text);
  const r = ls.rename(a, text.indexOf('{{.svc}}') + 4, 'service');
  assert.ok(r && 'edits' in r, JSON.stringify(r));
  assert.equal(r.edits.length, 301);
});

test('past 50,000 definitions rename refuses and says why; nothing is changed', () => {
  const text = listAppSet(50_001);
  const ls = getLanguageService({ host: emptyHost({ maxApplications: 10 }) });
  const a = ls.analyze('mem://many.yaml', text);
  const at = text.indexOf('{{.svc}}') + 4;
  const r = ls.rename(a, at, 'service');
  assert.ok(r && 'error' in r, JSON.stringify(r && 'edits' in r ? r.edits.length : r));
  assert.match(
    r.error,
    /^\.svc is defined in more than 50,000 places, more than rename changes at once \(ApplicationSet Tools' limit\): nothing was renamed$/,
  );
  const p = ls.prepareRename(a, at);
  assert.ok(p && 'error' in p);
});
