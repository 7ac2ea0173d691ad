/**
 * The language server's shared state (server/src/lsp/state.ts): one analysis run per document version,
 * shared by everyone who asks, and none shared across a reset of the engine (new settings): a run started
 * before new settings arrived would otherwise answer, after them, with the old settings' findings.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Connection } from 'vscode-languageserver/node';
import { ServerState } from '../../server/src/lsp/state';
import { nodePlatform } from '../../server/src/lsp/nodeMain';
import { onlyPlatform } from '../../server/src/lsp/platform';
import type { Analysis, LanguageService } from '@appset-tools/engine';

function stateWith(doc: TextDocument): { state: ServerState; started: () => number } {
  const state = new ServerState({ console: { error() {}, log() {} } } as unknown as Connection, onlyPlatform(nodePlatform));
  state.choosePlatform([]);
  Object.defineProperty(state, 'documents', { value: { get: (uri: string) => (uri === doc.uri ? doc : undefined) } });
  let started = 0;
  state.service = {
    // An analysis long enough to pause a few times (the scheduler runs a new run inline for 4 ms).
    *analyzeSteps() {
      const n = ++started;
      for (let i = 0; i < 4; i++) {
        const until = performance.now() + 6;
        while (performance.now() < until);
        yield;
      }
      return { n } as unknown as Analysis;
    },
  } as unknown as LanguageService;
  return { state, started: () => started };
}

test('one analysis run per document version is shared by everyone who asks', async () => {
  const doc = TextDocument.create('file:///w/a.yaml', 'yaml', 1, 'a: 1\n');
  const { state, started } = stateWith(doc);
  const [a, b] = await Promise.all([state.analyzed(doc), state.analyzed(doc)]);
  assert.equal(a, b);
  assert.equal(started(), 1);
});

test('after a reset, a run started before it is not shared and is dropped', async () => {
  const doc = TextDocument.create('file:///w/a.yaml', 'yaml', 1, 'a: 1\n');
  const { state, started } = stateWith(doc);
  const before = state.analyzed(doc);
  state.forgetRuns();
  const after = state.analyzed(doc);
  assert.equal(await before, undefined, 'the run started before the reset was dropped');
  // The dropped run's end does not take the newer run's place: a third caller shares the newer run.
  const third = state.analyzed(doc);
  assert.equal(((await after) as unknown as { n: number }).n, 2, 'the analysis asked for after the reset is a new run');
  assert.equal(await third, await after);
  assert.equal(started(), 2);
});
