/**
 * The install scan takes the spans of its evidence from the located trees of the documents the workspace
 * index already parsed (install/spans.ts over `IndexedFile.parsed`): no second parse of a file, and, for
 * a file the library read, a tree built only for the documents that hold evidence. A file the fast reader
 * read (yaml/parse.ts `readDocuments`) has every tree from its reading (read-documents.test.ts: and no
 * library node made).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { builtTree } from '../../../../server/src/engine/yaml';
import { scanWorkspace } from '../../../../server/src/engine/install/scan';
import { memHost } from '../../../helpers/memHost';

const configMap = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: argocd-other-${i}\ndata:\n  a: "${i}"\n`;
const controller = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: argocd-applicationset-controller',
  'spec:',
  '  template:',
  '    spec:',
  '      containers:',
  '        - name: controller',
  '          args:',
  '            - /usr/local/bin/argocd-applicationset-controller',
  '            - --enable-progressive-syncs=false',
  '',
].join('\n');
/** An install bundle: 40 other resources, the controller's Deployment as document 40, 9 more. */
const plainBundle = [
  ...Array.from({ length: 40 }, (_, i) => configMap(i)),
  controller,
  ...Array.from({ length: 9 }, (_, i) => configMap(40 + i)),
].join('---\n');
/** The same with an anchor and its alias in the last document: the fast reader leaves the file to the library. */
const bundle = `${plainBundle}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: &n argocd-aliased\ndata:\n  a: *n\n`;

test("the scan's spans come from the index's own parse: the flag is underlined, its line given, and no file is parsed again", () => {
  const ls = getLanguageService({ host: memHost(new Map([['/ws/argocd/install.yaml', bundle]])) });
  // The facade hands the index out as its state; the scan takes the index itself.
  const workspace = ls.workspace as unknown as Parameters<typeof scanWorkspace>[0];
  const scan = scanWorkspace(workspace, ['/ws']);
  const file = workspace.file('/ws/argocd/install.yaml')!;
  const flag = scan.evidence.find((e) => e.level === 'flag');
  assert.ok(flag?.span, JSON.stringify(scan.evidence));
  assert.equal(file.text.slice(flag.span.start, flag.span.end), '--enable-progressive-syncs=false');
  assert.equal(flag.where, `argocd/install.yaml:${file.text.slice(0, flag.span.start).split('\n').length}`);
  assert.equal(flag.effect, 'disables');
  // The located tree was built on the index's document that holds the flag, and on no other.
  assert.equal(file.parsed.length, 51);
  assert.ok(builtTree(file.parsed[40]), 'the tree of the document holding the evidence');
  assert.equal(builtTree(file.parsed[0]), undefined, 'no tree for a document without evidence');
  // A second scan parses nothing: the index parsed each file once, and the spans are the same.
  const parsed = workspace.counts.parsed;
  const again = scanWorkspace(workspace, ['/ws']);
  assert.equal(workspace.counts.parsed, parsed);
  assert.deepEqual(again.evidence, scan.evidence);
});

test('a file the fast reader read: the same spans, from the trees its reading built', () => {
  const ls = getLanguageService({ host: memHost(new Map([['/ws/argocd/install.yaml', plainBundle]])) });
  const workspace = ls.workspace as unknown as Parameters<typeof scanWorkspace>[0];
  const scan = scanWorkspace(workspace, ['/ws']);
  const file = workspace.file('/ws/argocd/install.yaml')!;
  const flag = scan.evidence.find((e) => e.level === 'flag');
  assert.ok(flag?.span, JSON.stringify(scan.evidence));
  assert.equal(file.text.slice(flag.span.start, flag.span.end), '--enable-progressive-syncs=false');
  assert.equal(flag.where, `argocd/install.yaml:${file.text.slice(0, flag.span.start).split('\n').length}`);
  assert.equal(file.parsed.length, 50);
  assert.ok(
    file.parsed.every((d) => builtTree(d)),
    'every tree built by the reading',
  );
});
