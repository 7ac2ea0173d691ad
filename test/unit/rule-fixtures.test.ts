// Rule fixtures (test/fixtures/rules/<prefix>/*.yaml): each file is linted through the engine's door
// (its annotation lines taken out) and must have exactly the findings of its prefix that its caret comments state — code, severity and
// range (and the quoted piece of the message, where one is quoted). A fixture may also be a folder
// (test/fixtures/rules/<prefix>/<name>/): a small workspace (the ApplicationSet, cluster Secrets,
// AppProjects, an argocd-cmd-params-cm, …) linted as the CLI lints a workspace, every file of it read
// by the engine with its annotation lines taken out, and every YAML file of it held to its own caret
// comments (a file with none must have no finding of the prefix). The format is told in
// test/helpers/ruleFixtures.ts; adding a rule is told in docs/development.md.
// UPDATE_RULE_FIXTURES=1 rewrites the annotations from what the engine finds (then read the diff).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getLanguageService, emptyHost, type EngineDiagnostic, type LanguageService } from '@appset-tools/engine';
import { annotationAt, annotationsOf, expectedOf, key, rewrite, strip, workspaceOf, type Annotation } from '../helpers/ruleFixtures';
import { memHost } from '../helpers/memHost';

const dir = path.resolve(__dirname, '..', 'fixtures', 'rules');
const ls = getLanguageService({ host: emptyHost() });

function findings(
  file: string,
  text: string,
  prefix: string,
  service: LanguageService = ls,
  at?: string,
): { found: Annotation[]; messages: Map<string, string> } {
  const a = at ? service.analyze(`file://${at}`, text, at) : service.analyze(`mem:///rules/${prefix}/${path.basename(file)}`, text);
  const ds: EngineDiagnostic[] = ls.diagnostics(a).filter((d) => d.code.startsWith(prefix + '/'));
  const found = ds.map((d) => annotationAt(text, d.span.start, d.span.end, d.severity, d.code));
  // Findings with the same place, severity and code (two windows on one strategy): a quoted piece may come from either.
  const messages = new Map<string, string>();
  ds.forEach((d, i) => messages.set(key(found[i]), [messages.get(key(found[i])), d.message].filter((m) => m !== undefined).join('\n')));
  return { found: found.sort((x, y) => x.line - y.line || x.col - y.col || key(x).localeCompare(key(y))), messages };
}

const prefixes = fs.readdirSync(dir).filter((p) => fs.statSync(path.join(dir, p)).isDirectory());

test('rule fixtures exist for the prefixes and each states some finding', () => {
  assert.ok(prefixes.includes('appset'), prefixes.join(', '));
  for (const p of prefixes)
    for (const f of fs.readdirSync(path.join(dir, p))) {
      const files = fs.statSync(path.join(dir, p, f)).isDirectory()
        ? [...workspaceOf(path.join(dir, p, f)).values()]
        : [path.join(dir, p, f)];
      const texts = files.map((x) => fs.readFileSync(x, 'utf8'));
      assert.ok(
        texts.some((text) => annotationsOf(text).length > 0 || /^# no findings/m.test(text)),
        `${p}/${f} states no finding`,
      );
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

/**
 * A workspace fixture: the folder's files (annotation lines taken out) at /ws, read by the language
 * service as the CLI's `appset lint <folder>` reads a workspace, and each YAML file linted in it.
 */
for (const prefix of prefixes)
  for (const name of fs.readdirSync(path.join(dir, prefix)).filter((n) => fs.statSync(path.join(dir, prefix, n)).isDirectory())) {
    test(`rule fixture ${prefix}/${name}/ (a workspace)`, () => {
      const files = workspaceOf(path.join(dir, prefix, name));
      const texts = new Map([...files].map(([ws, abs]) => [ws, fs.readFileSync(abs, 'utf8')]));
      const service = getLanguageService({ host: memHost(new Map([...texts].map(([ws, text]) => [ws, strip(text)]))) });
      for (const [ws, text] of texts) {
        if (!/\.ya?ml$/.test(ws)) continue;
        const rel = `${prefix}/${name}/${ws.slice('/ws/'.length)}`;
        const { found, messages } = findings(files.get(ws)!, strip(text), prefix, service, ws);
        if (process.env.UPDATE_RULE_FIXTURES) {
          fs.writeFileSync(files.get(ws)!, rewrite(text, found, messages));
          continue;
        }
        const expected = expectedOf(text);
        assert.deepEqual(found.map(key), expected.map(key), `${rel}: the findings (line:columns severity code)`);
        for (const e of expected)
          if (e.says !== undefined)
            assert.ok(messages.get(key(e))?.includes(e.says), `${rel} ${key(e)} says "${e.says}": ${messages.get(key(e))}`);
      }
    });
  }
