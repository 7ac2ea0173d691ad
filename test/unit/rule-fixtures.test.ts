// Rule fixtures (test/fixtures/rules/<prefix>/*.yaml): each file is linted through the engine's door
// (its annotation lines taken out) and must have exactly the findings of its prefix that its caret comments state — code, severity and
// range (and the quoted piece of the message, where one is quoted). The format is told in
// test/helpers/ruleFixtures.ts; adding a rule is told in docs/development.md.
// UPDATE_RULE_FIXTURES=1 rewrites the annotations from what the engine finds (then read the diff).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getLanguageService, emptyHost, type EngineDiagnostic } from '@appset-tools/engine';
import { annotationAt, annotationsOf, expectedOf, key, rewrite, strip, type Annotation } from '../helpers/ruleFixtures';

const dir = path.resolve(__dirname, '..', 'fixtures', 'rules');
const ls = getLanguageService({ host: emptyHost() });

function findings(file: string, text: string, prefix: string): { found: Annotation[]; messages: Map<string, string> } {
  const a = ls.analyze(`mem:///rules/${prefix}/${path.basename(file)}`, text);
  const ds: EngineDiagnostic[] = ls.diagnostics(a).filter((d) => d.code.startsWith(prefix + '/'));
  const found = ds.map((d) => annotationAt(text, d.span.start, d.span.end, d.severity, d.code));
  const messages = new Map(ds.map((d, i) => [key(found[i]), d.message]));
  return { found: found.sort((x, y) => x.line - y.line || x.col - y.col || key(x).localeCompare(key(y))), messages };
}

const prefixes = fs.readdirSync(dir).filter((p) => fs.statSync(path.join(dir, p)).isDirectory());

test('rule fixtures exist for the prefixes and each states some finding', () => {
  assert.ok(prefixes.includes('appset'), prefixes.join(', '));
  for (const p of prefixes)
    for (const f of fs.readdirSync(path.join(dir, p))) {
      const text = fs.readFileSync(path.join(dir, p, f), 'utf8');
      assert.ok(annotationsOf(text).length > 0 || /^# no findings/m.test(text), `${p}/${f} states no finding`);
    }
});

for (const prefix of prefixes)
  for (const f of fs.readdirSync(path.join(dir, prefix)).filter((n) => n.endsWith('.yaml'))) {
    test(`rule fixture ${prefix}/${f}`, () => {
      const file = path.join(dir, prefix, f);
      const text = fs.readFileSync(file, 'utf8');
      if (process.env.UPDATE_RULE_FIXTURES) {
        const { found, messages } = findings(file, strip(text), prefix);
        fs.writeFileSync(file, rewrite(text, found, messages));
        return;
      }
      const expected = expectedOf(text);
      const { found, messages } = findings(file, strip(text), prefix);
      assert.deepEqual(found.map(key), expected.map(key), `${prefix}/${f}: the findings (line:columns severity code)`);
      for (const e of expected)
        if (e.says !== undefined) assert.ok(messages.get(key(e))?.includes(e.says), `${key(e)} says "${e.says}": ${messages.get(key(e))}`);
    });
  }
