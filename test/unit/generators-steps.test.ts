/**
 * A whole expansion in steps (issue 16: the language server pauses between steps to answer other
 * documents), through the engine's door: two ApplicationSets prepared step by step, interleaved as the
 * server's scheduler runs them, give exactly the Applications of the expansion in one go, and the
 * findings of an analysis not prepared yet expand in steps too. The generators' own stepwise runs
 * (list, matrix, merge against a plain model) are test/unit/engine/generators/steps.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyHost, getLanguageService } from '@appset-tools/engine';
import { matrixAppSet } from '../../scripts/bench/responsiveness';
import { longListAppSet } from '../helpers/appsets';

test('a whole expansion in steps, interleaved with another, equals the expansion in one go', (t) => {
  const service = getLanguageService({ host: emptyHost() });
  t.after(() => service.reset());
  const texts = [matrixAppSet(30, 40), longListAppSet(500)];
  const analyses = texts.map((text, i) => service.analyze(`file:///${i}.yaml`, text));
  const runs = analyses.map((a) => service.prepare(a));
  const steps = [0, 0];
  const done = [false, false];
  while (done.some((d) => !d))
    runs.forEach((r, i) => {
      if (done[i]) return;
      if (r.next().done) done[i] = true;
      else steps[i]++;
    });
  // Both ran in many steps, alternately: one step per Application at least.
  assert.ok(steps[0] >= 1200 && steps[1] >= 500, `steps: ${steps.join(', ')}`);
  // The expansion in one go: a service of its own, asked without preparing.
  const oneGo = getLanguageService({ host: emptyHost() });
  t.after(() => oneGo.reset());
  analyses.forEach((a, i) => {
    assert.equal(JSON.stringify(service.applications(a)), JSON.stringify(oneGo.applications(oneGo.analyze(`file:///${i}.yaml`, texts[i]))));
  });
  assert.equal(service.applications(analyses[0])!.apps.length, 1200);
});

test("the findings of an analysis whose expansion was not prepared expand it in steps, not inside one feature module's step", (t) => {
  // As after the workspace changed between the server's `prepare` and its findings: a new analysis of
  // the same text, nothing expanded yet.
  const service = getLanguageService({ host: emptyHost() });
  t.after(() => service.reset());
  const a = service.analyze('file:///m.yaml', matrixAppSet(30, 40));
  const steps = service.prepareDiagnostics(a);
  let pauses = 0;
  while (!steps.next().done) pauses++;
  // One pause per Application at least (expand.ts yields after each), then the feature modules.
  assert.ok(pauses >= 1200, `${pauses} pauses`);
  assert.equal(service.applications(a)!.apps.length, 1200);
});
