/**
 * `matchLinesWithBraces` (yaml/linesWith.ts) tries the template checks' line patterns only
 * on the lines that hold `{{`: it must give what `matchAll` over the whole text gives (every match, in
 * order, with its index and groups), over every YAML file of the repository and random texts made of
 * the pieces that matter to the patterns (`{{`, keys, `- `, comments, quotes and each line terminator).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchLinesWithBraces } from '../../../../server/src/engine/yaml/linesWith';
import { repoFiles } from '../../../helpers/memHost';

// The two patterns of validate/templateInStructure.ts and yaml/unquotedTemplate.ts, written out here as `matchAll` takes them.
const PATTERNS = [
  /^[ \t]*\{\{-?\s*(if|else|end|range|with|define|template|block)\b[^\n]*\}\}[ \t]*$/,
  /^([ \t]*(?:- )?(?:[^\s#'"{][^:#\n]*:[ \t]+|- ))(\{\{[^\n]*?)[ \t]*(?:[ \t]#[^\n]*)?$/,
];

function same(text: string) {
  for (const p of PATTERNS) {
    const whole = [...text.matchAll(new RegExp(p.source, 'gm'))].map((m) => ({ index: m.index, groups: [...m] }));
    const lines = [...matchLinesWithBraces(text, new RegExp(p.source, 'my'))].map((m) => ({ index: m.index, groups: [...m] }));
    assert.deepEqual(lines, whole, `${p.source} over ${JSON.stringify(text.slice(0, 300))}`);
  }
}

test('the same matches as matchAll over every YAML file of the repository', () => {
  const files = repoFiles((n) => /\.ya?ml$/i.test(n), 'examples', 'test', 'schemas', 'docs');
  assert.ok(files.size > 100, `${files.size} files`);
  let found = 0;
  for (const text of files.values()) {
    same(text);
    same(text.replace(/\n/g, '\r\n'));
    found += [...matchLinesWithBraces(text, new RegExp(PATTERNS[1].source, 'my'))].length;
  }
  assert.ok(found > 10, `unquoted templates found: ${found}`);
});

test('the same matches as matchAll over 20,000 random texts', () => {
  const pieces = [
    '{{',
    '}}',
    '{{ if .x }}',
    '{{- end }}',
    '{{.a}}',
    'name: ',
    'key:',
    '- ',
    '  ',
    '\t',
    '#',
    ' # c',
    "'",
    '"',
    ':',
    'a',
    'x-y',
    '\n',
    '\r\n',
    '\r',
    '\u2028',
    '\u2029',
    '{',
    'if',
    ' range',
    '---\n',
  ];
  let seed = 39;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  for (let i = 0; i < 20000; i++) {
    let text = '';
    for (let k = rand(40); k > 0; k--) text += pieces[rand(pieces.length)];
    same(text);
  }
});

test('refuses a pattern that would not be tried line by line', () => {
  assert.throws(() => [...matchLinesWithBraces('a: {{x}}', /^a/gm)]);
});
