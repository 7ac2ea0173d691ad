/**
 * Issue 39: a keystroke re-uses what the edit did not change (the parse of the entries before it, the
 * renders of unchanged parameter sets and template fields, the scans that resume). Through the built
 * server: one server takes seeded random edits of a list ApplicationSet as an editor sends them (in
 * list elements and in the template, breaking and repairing templates and quotes), and after every one
 * its publish, code lenses and preview must equal those a second server gives when it opens the same
 * text as a new document (nothing to re-use), byte for byte once the document's name is taken out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CodeLensRequest } from 'vscode-languageserver-protocol';
import { Requests } from '@appset-tools/protocol';
import { startServer, type TestServer } from './client';
import { appsetHead, listOf, MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';
import { seededRandom } from '../helpers/random';

const elements = Array.from({ length: 60 }, (_, i) => ({
  service: `svc-${i}`,
  env: ['dev', 'prod', 'staging'][i % 3],
  replicas: `"${1 + (i % 4)}"`,
}));

const BASE = `${appsetHead('keys', { options: '["missingkey=error"]' })}  generators:
${listOf(elements)}  template:
    metadata:
      name: '{{ .service }}-{{ .env }}'
      labels:
        env: '{{ .env | upper }}'
${MINIMAL_TEMPLATE_SPEC.replace('path: apps', "path: 'apps/{{ .service }}'")}  templatePatch: |
    spec:
      source:
        helm:
          parameters:
            - name: replicas
              value: '{{ .replicas }}'
`;

const PIECES = ['a', '-', '0', '{{ .env }}', '{{ .nope }}', '}}', '{{', ' | lower', '"', "'", ' ', 'X', ''];

/** An edit inside a value (after `: `), where people type in an ApplicationSet; some delete characters. */
function edit(text: string, rnd: () => number): string {
  const values = [...text.matchAll(/: (\S[^\n]*)/g)];
  const m = values[Math.floor(rnd() * values.length)];
  const start = (m.index ?? 0) + 2;
  const at = start + Math.floor(rnd() * (m[1].length + 1));
  const del = rnd() < 0.3 ? 1 + Math.floor(rnd() * 3) : 0;
  return text.slice(0, at) + PIECES[Math.floor(rnd() * PIECES.length)] + text.slice(at + del);
}

/** What the server answers about a document: its findings, lenses and preview, its own name replaced. */
async function answers(s: TestServer, rel: string, diagnostics: unknown): Promise<string> {
  const uri = s.uriOf(rel);
  const lenses = await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
  const preview = await s.conn.sendRequest(Requests.preview, { uri });
  return JSON.stringify({ diagnostics, lenses, preview }).split(uri).join('<doc>').split(rel).join('<name>');
}

test('after every random keystroke, the same findings, lenses and preview as a fresh analysis of the text', async (t) => {
  const typed = await startServer();
  const fresh = await startServer();
  t.after(() => Promise.all([typed.shutdown(), fresh.shutdown()]));
  const rnd = seededRandom(3939);
  let text = BASE;
  let ds = await typed.open('appset.yaml', text);
  const kinds = new Set<string>();
  let previews = 0;
  for (let i = 0; i <= 60; i++) {
    if (i) {
      text = rnd() < 0.05 ? BASE : edit(text, rnd);
      ds = await typed.change('appset.yaml', text);
    }
    const rel = `fresh-${i}.yaml`;
    const want = await answers(fresh, rel, await fresh.open(rel, text));
    if (want.includes('"yaml":')) previews++;
    await fresh.close(rel);
    assert.equal(await answers(typed, 'appset.yaml', ds), want, `edit ${i}: ${JSON.stringify(text)}`);
    for (const d of ds) kinds.add(String(d.code));
  }
  // The edits broke the templates in more than one way (the comparison covered findings, not only clean texts).
  assert.ok(kinds.size >= 2, `finding codes seen: ${[...kinds].join(', ')}`);
  assert.ok(previews > 50, `${previews} previews`);
});
