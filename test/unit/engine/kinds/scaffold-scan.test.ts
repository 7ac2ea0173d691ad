/**
 * `scaffoldOf` (kinds/scaffolding.ts) walks an ApplicationSet's lines in place on every keystroke instead
 * of splitting the text: it must judge every text as the line-by-line version before it did (kept below
 * as the reference), over every YAML file of the repository (LF and CRLF) and random texts made of
 * names, namespaces and projects with placeholders and shell variables, block scalars, list items,
 * top-level `metadata:` and every kind of white space `trim()` takes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scaffoldOf } from '../../../../server/src/engine/kinds/scaffolding';
import { repoFiles } from '../../../helpers/memHost';
import { seededRandom } from '../../../helpers/random';

const PLACEHOLDER = /\{\{|\$\{|\$[A-Za-z_]|<%|%\{|\[\[/;
const GO_ACTION = /\{\{-?\s*[.$]/;
const LITERAL_KEYS = /^(\s*(?:-\s+)?)(name|namespace|project):[ \t]+(\S.*?)\s*(?:#.*)?$/;

/** The line-by-line scan before the in-place walk (the two regular expressions before it are unchanged). */
function scanLinesBefore(text: string): { name: string; snippet: string } | undefined {
  let blockIndent = -1;
  let ownMetadata = false;
  for (const raw of text.split('\n')) {
    const l = raw.replace(/\r$/, '');
    const indent = l.length - l.trimStart().length;
    if (blockIndent >= 0) {
      if (l.trim() === '' || indent > blockIndent) continue;
      blockIndent = -1;
    }
    if (/:[ \t]*[|>][-+0-9]*[ \t]*(?:#.*)?$/.test(l)) blockIndent = indent;
    if (indent === 0 && l.trim() !== '') ownMetadata = /^metadata:\s*$/.test(l);
    const m = LITERAL_KEYS.exec(l);
    if (!m) continue;
    const [, , key, value] = m;
    if (ownMetadata && (key === 'name' || key === 'namespace') && PLACEHOLDER.test(value) && !GO_ACTION.test(value))
      return { name: 'a scaffolding or substitution tool', snippet: l.trim() };
    const v = /^(["']?)\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))\1$/.exec(value);
    const name = v ? (v[2] ?? v[3]) : undefined;
    if (name && !name.startsWith('ARGOCD_')) return { name: 'a shell or envsubst step', snippet: l.trim() };
  }
  return undefined;
}

function before(text: string) {
  // The two whole-text patterns scaffoldOf tries first are unchanged: only texts they pass reach the scan.
  if (/\{\{-?\s*cookiecutter\.[A-Za-z_]/.test(text)) return scaffoldOf(text);
  if (/\{%-?\s*(?:if|elif|else|endif|for|endfor|raw|endraw|set|macro|endmacro|include|import|block|endblock)\b[^\n]{0,200}?%\}/.test(text))
    return scaffoldOf(text);
  return scanLinesBefore(text);
}

test('every YAML file of the repository is judged as before (LF and CRLF)', () => {
  const files = repoFiles((n) => /\.ya?ml$/i.test(n), 'examples', 'test', 'schemas', 'docs');
  assert.ok(files.size > 100);
  let found = 0;
  for (const [name, text] of files) {
    for (const t of [text, text.replace(/\n/g, '\r\n')]) {
      const want = before(t);
      assert.deepEqual(scaffoldOf(t), want, name);
      if (want) found++;
    }
  }
  assert.ok(found >= 2, `${found} texts found to be scaffolds`);
});

test('random texts are judged as before', () => {
  const rnd = seededRandom(3939);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const spaces = [' ', '  ', '\t', '\u00a0', '\u2028', '\ufeff', '\v', '\r', ''];
  const keys = ['name:', 'namespace:', 'project:', 'names:', 'metadata:', 'spec:', 'x:', '- name:', '-  project:', '-name:', '- -'];
  const values = [
    '$NAME',
    '${NS}',
    '"$HOME"',
    "'${A}'",
    '$ARGOCD_APP_NAME',
    '{{ .x }}',
    '{{x}}',
    '<%= a %>',
    'plain',
    'APP',
    '|',
    '>-',
    '|2 # c',
    '# c',
    '',
  ];
  let found = 0;
  for (let i = 0; i < 30000; i++) {
    const lines: string[] = [];
    const n = 1 + Math.floor(rnd() * 8);
    for (let j = 0; j < n; j++) {
      const indent = rnd() < 0.4 ? '' : pick(spaces) + pick(spaces);
      lines.push(
        rnd() < 0.1 ? pick(spaces) : `${indent}${pick(keys)}${pick([' ', '\t', '', '  '])}${pick(values)}${rnd() < 0.1 ? '\r' : ''}`,
      );
    }
    const text = lines.join(rnd() < 0.2 ? '\r\n' : '\n') + (rnd() < 0.3 ? '\n' : '');
    const want = before(text);
    assert.deepEqual(scaffoldOf(text), want, JSON.stringify(text));
    if (want) found++;
  }
  assert.ok(found > 1000, `${found} texts found to be scaffolds`);
});
