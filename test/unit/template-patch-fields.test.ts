/**
 * A templatePatch that gives the Application a field it does not have (validate/patchFields.ts),
 * a mistake the fifth held-out round's development half showed unsaid: the controller decodes the patched
 * Application into its Go type, which drops the field, so `spec.syncOptions` never applies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workspaceFor } from './generators-helpers';

const withPatch = (patch: string, templateSpecExtra = '') => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: team-apps, namespace: argocd}
spec:
  goTemplate: true
  generators:
    - list:
        elements: [{name: web, auto: true}, {name: api, auto: false}]
  template:
    metadata: {name: '{{ .name }}'}
    spec:
      project: default
      source: {repoURL: 'https://example.com/r.git', targetRevision: HEAD, path: 'apps/{{ .name }}'}
      destination: {server: 'https://kubernetes.default.svc', namespace: '{{ .name }}'}
${templateSpecExtra}  templatePatch: |
${patch.replace(/^/gm, '    ')}
`;

const patchFindings = <T extends { code: string; message: string }>(ds: T[]) =>
  ds.filter((d) => d.code === 'appset/unknown-field' && d.message.startsWith('templatePatch sets'));

test('a templatePatch field the Application does not have is an error on the patch, with the Applications it reaches', (t) => {
  const ws = workspaceFor(t);
  const text = withPatch(
    `spec:\n  {{- if .auto }}\n  syncPolicy:\n    automated: {prune: true}\n  {{- end }}\n  syncOptions:\n    - CreateNamespace=true`,
  );
  const found = patchFindings(ws.diagnostics(text));
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0].severity, 'error');
  assert.match(
    found[0].message,
    /templatePatch sets spec\.syncOptions, which an Application does not have \(expected one of: .*syncPolicy.*\): the controller drops it/,
  );
  assert.match(found[0].message, /in 2 of 2 Applications \(web, api\)|in 2 of 2 Applications \(api, web\)/);
  assert.equal(text.slice(found[0].start, found[0].end), 'templatePatch');
  // Nested: a key under a known field, only where the patch reaches it.
  const nested = patchFindings(
    ws.diagnostics(withPatch(`{{- if .auto }}\nspec:\n  syncPolicy:\n    automated: {prune: true, selfHael: true}\n{{- end }}`)),
  );
  assert.equal(nested.length, 1, JSON.stringify(nested));
  assert.match(nested[0].message, /spec\.syncPolicy\.automated\.selfHael.*in 1 of 2 Applications \(web\)/);
});

test('known fields, free-form values and fields the template itself writes are not claimed by the patch check', (t) => {
  const ws = workspaceFor(t);
  const ok = withPatch(
    `spec:\n  syncPolicy:\n    syncOptions: [CreateNamespace=true]\n  source:\n    helm:\n      valuesObject: {anything: {goes: here}}\n  info:\n    - {name: team, value: web}`,
  );
  assert.deepEqual(patchFindings(ws.diagnostics(ok)), []);
  // A field the template writes is the schema check's finding on the template, not the patch's.
  const inTemplate = ws.diagnostics(withPatch(`spec:\n  syncOptions: [CreateNamespace=true]`, `      syncOptions: [Validate=false]\n`));
  assert.deepEqual(patchFindings(inTemplate), []);
  assert.ok(
    inTemplate.some((d) => d.code === 'appset/unknown-field'),
    JSON.stringify(inTemplate),
  );
});
