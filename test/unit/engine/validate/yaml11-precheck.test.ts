/**
 * The YAML 1.1 boolean check skips a document whose text cannot hold such a scalar (checks/yaml11.ts,
 * `mayHoldYaml11Boolean`: one native search instead of a walk of every node). The search must be a
 * superset of what the walk finds: every plain scalar that reads as a YAML 1.1 boolean, in every
 * document of the repository's YAML and of random texts that put the words in every place a scalar
 * can stand (block and flow values, keys, sequence items, after anchors and tags, before comments).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { astOf, parseYamlFile, walk } from '../../../../server/src/engine/yaml';
import { isYaml11BooleanScalar, mayHoldYaml11Boolean } from '../../../../server/src/engine/validate/checks/yaml11';
import { repositoryYaml } from '../../../helpers/yamlCorpus';
import { seededRandom } from '../../../helpers/random';

/** Every document of `text` holding a YAML 1.1 boolean plain scalar passes the text search. */
function checkText(text: string, where: string): number {
  let found = 0;
  for (const d of parseYamlFile(text).docs) {
    let holds = false;
    walk(astOf(d.doc), (n) => {
      if (isYaml11BooleanScalar(n)) holds = true;
    });
    if (!holds) continue;
    found++;
    assert.ok(mayHoldYaml11Boolean(text.slice(d.span.start, d.span.end)), `${where}: document ${d.index} holds one, the search says none`);
  }
  return found;
}

test('the text search finds every document that holds a YAML 1.1 boolean scalar (repository YAML)', () => {
  let found = 0;
  for (const file of repositoryYaml()) found += checkText(readFileSync(file, 'utf8'), file);
  assert.ok(found > 0, 'the corpus holds YAML 1.1 booleans');
});

test('the text search finds every document that holds a YAML 1.1 boolean scalar (random texts)', () => {
  const rand = seededRandom(39);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const words = ['y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'yEs', 'true', 'x'];
  const shapes = [
    (w: string) => `key: ${w}`,
    (w: string) => `key: ${w} # note`,
    (w: string) => `key:   ${w}   `,
    (w: string) => `- ${w}`,
    (w: string) => `- key: ${w}`,
    (w: string) => `key: [${w}, a]`,
    (w: string) => `key: [a,${w}]`,
    (w: string) => `key: {a: ${w}}`,
    (w: string) => `key: {"a":${w}}`,
    (w: string) => `${w}: value`,
    (w: string) => `key: &anchor ${w}`,
    (w: string) => `key: !!str ${w}`,
    (w: string) => `key:\n  ${w}`,
    (w: string) => `key: '${w}'`,
    (w: string) => `key: a${w}`,
    (w: string) => `key: ${w}-a`,
  ];
  let found = 0;
  for (let i = 0; i < 3000; i++) {
    const lines = ['apiVersion: v1', 'kind: ConfigMap'];
    const n = 1 + Math.floor(rand() * 4);
    for (let j = 0; j < n; j++) lines.push(pick(shapes)(pick(words)).replace(/^key/, `k${j}`));
    const text = lines.join(rand() < 0.2 ? '\r\n' : '\n') + (rand() < 0.5 ? '\n' : '');
    found += checkText(text, JSON.stringify(text));
  }
  assert.ok(found > 500, `random texts with YAML 1.1 booleans: ${found}`);
});
