/**
 * The literal check in front of the unquoted-template pattern (issue 39: a pattern not run is not compiled)
 * never skips a text the pattern would match: over random texts of the pieces the patterns look for, a
 * text the check turns away has no match (`matchLinesWithBraces`, as the rule runs it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchLinesWithBraces } from '../../../../server/src/engine/yaml';
import { mayHoldUnquotedTemplate } from '../../../../server/src/engine/yaml/unquotedTemplate';

// The rule's pattern (yaml/unquotedTemplate.ts UNQUOTED_LINE).
const UNQUOTED_LINE = /^([ \t]*(?:- )?(?:[^\s#'"{][^:#\n]*:[ \t]+|- ))(\{\{[^\n]*?)[ \t]*(?:[ \t]#[^\n]*)?$/my;

const UNQUOTED_PIECES = ['key:', 'name: ', ' ', '\t', '{{', '{{ .x', 'x', '}}', '\n', '- ', '-', '#', "'", ':'];
const PIECES = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u2028',
  '\u2029',
  '{{',
  '}}',
  '{',
  '-',
  '- ',
  'if',
  'end',
  ' .x',
  'key:',
  'name: ',
  "'",
  '"',
  '#',
  'x',
];

function* texts(count: number, pieces: readonly string[]): Generator<string> {
  let seed = 39;
  const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let n = 1 + Math.floor(next() * 10); n > 0; n--) s += pieces[Math.floor(next() * pieces.length)];
    yield s;
  }
}

for (const [name, check, re, pieces] of [
  ['unquoted template', mayHoldUnquotedTemplate, UNQUOTED_LINE, UNQUOTED_PIECES],
  ['unquoted template (mixed pieces)', mayHoldUnquotedTemplate, UNQUOTED_LINE, PIECES],
] as const)
  test(`the ${name} check turns away only texts without a match`, () => {
    let matched = 0;
    let skipped = 0;
    for (const text of texts(100_000, pieces)) {
      const any = !matchLinesWithBraces(text, re).next().done;
      if (any) matched++;
      if (!check(text)) {
        skipped++;
        assert.equal(any, false, JSON.stringify(text));
      }
    }
    assert.ok(matched > 200 && skipped > 1000, `${matched} matched, ${skipped} skipped`);
  });
