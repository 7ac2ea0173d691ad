// The whole-document template-mode fixes (features/templates/modeSwitch.ts): "turn on goTemplate" for Go
// syntax written without it, rewriting the fasttemplate tags that would break; "write all {{name}} tags
// as Go actions" under goTemplate. Each fix is applied and the result analysed again: no mode finding
// is left and the Applications render.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, emptyHost } from '@appset-tools/engine';
import type { CodeAction } from '@appset-tools/engine';
import { goExpressionFor } from '../../../../../server/src/engine/features/templates/modeSwitch';

const ls = getLanguageService({ host: emptyHost() });
let n = 0;

function apply(text: string, action: CodeAction): string {
  const edits = [...(action.edits ?? [])].sort((x, y) => y.span.start - x.span.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

function fixes(text: string, code: string) {
  const a = ls.analyze(`mem://m${n++}.yaml`, text);
  const ds = ls.diagnostics(a).filter((d) => d.code === code);
  assert.ok(ds.length, `expected ${code}`);
  return { ds, actions: ls.codeActions(a, ds[0].span, ds) };
}

function check(text: string) {
  const a = ls.analyze(`mem://m${n++}.yaml`, text);
  return {
    codes: ls.diagnostics(a).map((d) => d.code),
    names: [...(ls.preview(a)?.yaml ?? '').matchAll(/^  name: (\S+)$/gm)].map((m) => m[1]),
  };
}

const list = (goTemplate: string, name: string, extra = '') => `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: s
  namespace: argocd
spec:
${goTemplate}  generators:
  - list:
      elements:
      - cluster: dev
        team-name: a
        url: https://dev.example.com
      - cluster: prod
        team-name: b
        url: https://prod.example.com
  template:
    metadata:
      name: '${name}'
    spec:
      project: default
      source:
        repoURL: https://example.com/r.git
        path: 'apps/{{team-name}}'${extra}
      destination:
        server: '{{url}}'
        namespace: x
`;

test('Go syntax without goTemplate: turn it on, with missingkey=error, and rewrite the {{name}} tags', () => {
  const text = list('', '{{ .cluster }}-web');
  const { actions } = fixes(text, 'template/gotemplate-syntax');
  const on = actions.find((x) => x.title.startsWith('Turn on goTemplate'));
  assert.ok(on, actions.map((x) => x.title).join(' | '));
  assert.match(on!.title, /goTemplateOptions: \["missingkey=error"\]\) and write the 2 \{\{name\}\} tags as Go actions/);
  const fixed = apply(text, on!);
  assert.match(fixed, /^spec:\n {2}goTemplate: true\n {2}goTemplateOptions: \["missingkey=error"\]\n {2}generators:/m);
  assert.match(fixed, /path: 'apps\/\{\{ index \. "team-name" \}\}'/);
  assert.match(fixed, /server: '\{\{ \.url \}\}'/);
  const after = check(fixed);
  assert.deepEqual(
    after.codes.filter((c) => c.startsWith('template/')),
    [],
  );
  assert.deepEqual(after.names, ['dev-web', 'prod-web']);
});

test('goTemplate: false is switched to true in place', () => {
  const text = list('  goTemplate: false\n', '{{ .cluster }}');
  const on = fixes(text, 'template/gotemplate-syntax').actions.find((x) => x.title.startsWith('Turn on goTemplate'))!;
  const fixed = apply(text, on);
  assert.match(fixed, /^ {2}goTemplateOptions: \["missingkey=error"\]\n {2}goTemplate: true\n/m);
  assert.equal(fixed.match(/goTemplate:/g)!.length, 1);
  assert.deepEqual(check(fixed).names, ['dev', 'prod']);
});

test('fasttemplate tags under goTemplate: one fix writes all of them as Go actions', () => {
  const text = list('  goTemplate: true\n', '{{cluster}}-web');
  const { actions } = fixes(text, 'template/fasttemplate-syntax');
  const all = actions.find((x) => x.title.startsWith('Write all'));
  assert.ok(all, actions.map((x) => x.title).join(' | '));
  assert.equal(all!.title, 'Write all 3 {{name}} tags as Go template actions ({{ .name }})');
  const fixed = apply(text, all!);
  const after = check(fixed);
  assert.deepEqual(
    after.codes.filter((c) => c.startsWith('template/')),
    [],
  );
  assert.deepEqual(after.names, ['dev-web', 'prod-web']);
  // The one-place fix uses index for a key that is not a Go identifier.
  const one = fixes(text, 'template/fasttemplate-syntax').ds.find((d) => text.slice(d.span.start, d.span.end) === '{{team-name}}');
  assert.match(one!.message, /write \{\{ index \. "team-name" \}\}/);
});

test('fasttemplate keys and their Go template expressions', () => {
  assert.equal(goExpressionFor('path.basename', ['']), '.path.basename');
  assert.equal(goExpressionFor('path', ['']), '.path.path');
  assert.equal(goExpressionFor('path[1]', ['']), 'index .path.segments 1');
  assert.equal(goExpressionFor('app.path[0]', ['app']), 'index .app.path.segments 0');
  assert.equal(goExpressionFor('metadata.labels.app.kubernetes.io/name', []), 'index .metadata.labels "app.kubernetes.io/name"');
  assert.equal(goExpressionFor('values.env', []), '.values.env');
  assert.equal(goExpressionFor('name', []), '.name');
  assert.equal(goExpressionFor('path[0]', []), undefined, 'no git generator: path[0] has no Go form');
});
