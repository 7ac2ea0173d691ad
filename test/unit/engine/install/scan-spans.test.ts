/**
 * The install scan takes the spans of its evidence from the located trees of the documents the workspace
 * index already parsed (install/spans.ts over `IndexedFile.parsed`): no second parse of a file, and, for a
 * file the library parsed, a tree built only for the documents that hold evidence; a file the fast reader
 * read (workspace/index.ts) has its trees from that reading, and the library's nodes are never made.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { builtTree } from '../../../../server/src/engine/yaml';
import { isUnmade } from '../../../../server/src/engine/yaml/lazyDocument';
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
/**
 * An install bundle: 40 other resources, the controller's Deployment as document 40, 9 more. `tagged`: its
 * first value carries a tag (`!!str`), which the fast reader leaves to the library: the file is parsed by it.
 */
const bundleOf = (tagged: boolean) =>
  [
    ...Array.from({ length: 40 }, (_, i) => (tagged && i === 0 ? configMap(i).replace('a: "0"', 'a: !!str "0"') : configMap(i))),
    controller,
    ...Array.from({ length: 9 }, (_, i) => configMap(40 + i)),
  ].join('---\n');
const bundle = bundleOf(true);

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
  assert.equal(file.parsed.length, 50);
  assert.ok(builtTree(file.parsed[40]), 'the tree of the document holding the evidence');
  assert.equal(builtTree(file.parsed[0]), undefined, 'no tree for a document without evidence');
  // A second scan parses nothing: the index parsed each file once, and the spans are the same.
  const parsed = workspace.counts.parsed;
  const again = scanWorkspace(workspace, ['/ws']);
  assert.equal(workspace.counts.parsed, parsed);
  assert.deepEqual(again.evidence, scan.evidence);
});

test("a file the fast reader read: the same spans from its trees, the library's nodes never made, nothing parsed again", () => {
  const spansOf = (text: string) => {
    const ls = getLanguageService({ host: memHost(new Map([['/ws/argocd/install.yaml', text]])) });
    const workspace = ls.workspace as unknown as Parameters<typeof scanWorkspace>[0];
    return { workspace, scan: scanWorkspace(workspace, ['/ws']) };
  };
  const fast = bundleOf(false);
  const { workspace, scan } = spansOf(fast);
  const file = workspace.file('/ws/argocd/install.yaml')!;
  assert.equal(file.parsed.length, 50);
  assert.ok(
    file.parsed.every((d) => isUnmade(d)),
    'read by the fast reader, no library nodes made',
  );
  const flag = scan.evidence.find((e) => e.level === 'flag');
  assert.equal(fast.slice(flag!.span!.start, flag!.span!.end), '--enable-progressive-syncs=false');
  // The same evidence and spans as the library's parse of the same text gives (the tagged bundle's tag is
  // in document 0, before every span, and the same length apart from the tag).
  const tagged = spansOf(bundle).scan.evidence;
  const shift = '!!str '.length;
  const shifted = JSON.parse(JSON.stringify(scan.evidence), (_k, v: unknown) =>
    v && typeof v === 'object' && 'start' in v && 'end' in v
      ? { ...v, start: (v.start as number) + shift, end: (v.end as number) + shift }
      : v,
  ) as unknown;
  assert.deepEqual(shifted, JSON.parse(JSON.stringify(tagged)));
  const parsed = workspace.counts.parsed;
  assert.deepEqual(scanWorkspace(workspace, ['/ws']).evidence, scan.evidence);
  assert.equal(workspace.counts.parsed, parsed);
});
