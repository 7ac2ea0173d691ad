/**
 * `splitDocuments` (yaml/document.ts) looks at each line's ends and asks about the last content line
 * only at a `---`: it must split every text as the line-by-line version before it did (kept below as
 * the reference), over every YAML file of the repository (LF and CRLF) and random texts made of
 * markers, comments, empty values, directives, explicit keys and every kind of white space `trim()` takes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitDocuments } from '../../../../server/src/engine/yaml/document';
import { repoFiles } from '../../../helpers/memHost';

function splitDocumentsBefore(text: string): { start: number; end: number }[] | undefined {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  let content = false;
  // The last content line ends in an empty value (`key:`, `-`), and a comment line came after it: the
  // library ends that document's range before the comment's line break when a `---` follows, after it
  // when the part is read alone; such texts are read whole.
  let emptyLast = false;
  let commentAfter = false;
  for (let i = 0; i < text.length;) {
    const nl = text.indexOf('\n', i);
    const lineEnd = nl < 0 ? text.length : nl;
    const c = text.charCodeAt(i);
    const trimmed = text.slice(i, lineEnd).trim();
    if (trimmed.startsWith('#')) commentAfter = true;
    else if (trimmed && !/^---(?:[ \t]|$)/.test(trimmed)) {
      // A comment on the line itself (`key:  # note`) counts as one after it. (Inside a quoted
      // string this reads too much as a comment, which only makes the text read whole.)
      const hash = trimmed.search(/[ \t]#/);
      emptyLast = /(?:^|[ \t])-$|:$/.test(hash < 0 ? trimmed : trimmed.slice(0, hash).trimEnd());
      commentAfter = hash >= 0;
    }
    // A directive carries over to later documents; a tab at a line's start is an error only the
    // whole text may show (a tab-indented line before `---`).
    if (c === 0x25 /* % */ || c === 0x09 /* tab */) return undefined;
    if ((c === 0x2d /* - */ || c === 0x2e) /* . */ && text.startsWith(c === 0x2d ? '---' : '...', i)) {
      const after = text.charCodeAt(i + 3);
      if (i + 3 >= lineEnd || after === 0x20 || after === 0x09 || after === 0x0d) {
        if (c === 0x2e) return undefined;
        if (emptyLast && commentAfter) return undefined;
        if (content) {
          out.push({ start, end: i });
          start = i;
          content = false;
        }
      }
    }
    // An explicit key (`? k`): where the library ends a document after one depends on what follows
    // the `---` (ranges one character apart); such texts (never an ApplicationSet's style) are read whole.
    let q = i;
    while (q < lineEnd && text.charCodeAt(q) === 0x20) q++;
    if (text.charCodeAt(q) === 0x3f /* ? */ && (q + 1 >= lineEnd || /[ \t\r]/.test(text[q + 1]))) return undefined;
    if (!content) {
      const line = text.slice(i, lineEnd).trim();
      if (line && !line.startsWith('#') && !/^---(?:[ \t]|$)/.test(line)) content = true;
      // `--- value` (content on the marker line) is content
      else if (/^---[ \t]+[^\s#]/.test(line)) content = true;
    }
    i = lineEnd + 1;
  }
  out.push({ start, end: text.length });
  return out;
}

test('every YAML file of the repository splits as before', () => {
  const files = repoFiles((n) => /\.ya?ml$/i.test(n), 'examples', 'test', 'schemas', 'docs');
  assert.ok(files.size > 100);
  let split = 0;
  for (const text of files.values()) {
    for (const t of [text, text.replace(/\n/g, '\r\n')]) {
      const got = splitDocuments(t);
      assert.deepEqual(got, splitDocumentsBefore(t));
      if (got && got.length > 1) split++;
    }
  }
  assert.ok(split > 10, `${split} texts split in parts`);
});

test('random texts split as before', () => {
  const pieces = [
    '---',
    '--- ',
    '---\t',
    '--- a',
    '--- #c',
    '...',
    '\n',
    '\r\n',
    'k:',
    'k: v',
    ' - ',
    '-',
    '# c',
    ' #c',
    '\t',
    '  ',
    '%YAML',
    '? ',
    '?',
    '\u00a0',
    '\u2028',
    '\ufeff',
    '\u3000',
    '\v',
    'x',
    ':',
    '"',
    '#',
    // A lone carriage return (`---\rx` is a marker at column 0 that `trim()` does not leave a marker) and
    // whole lines around markers (the new split looks back from each `---` to the last content line).
    '\r',
    '\n---\n',
    '\n---\r',
    '\n#c\n',
    'k:\n',
  ];
  let seed = 39;
  const rand = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  let split = 0;
  for (let i = 0; i < 30000; i++) {
    let text = '';
    for (let k = rand(30); k > 0; k--) text += pieces[rand(pieces.length)];
    const got = splitDocuments(text);
    assert.deepEqual(got, splitDocumentsBefore(text), JSON.stringify(text));
    if (got && got.length > 1) split++;
  }
  assert.ok(split > 1000, `${split} texts split in parts`);
});

test('a marker at column 0 that trim() does not leave a marker (`---\\rx`) is a content line, the first line too', () => {
  const texts = [
    '---\rk: # c\nb: 1\n---\nc: 2\n',
    '---\rk:\n# c\n---\nb: 1\n',
    '---\rk: v\n---\nb: 1\n',
    'a: 1\n---\rk: # c\n---\nb: 1\n',
    'a: 1\n---\rk: v\n---\nb: 1\n',
    '# c\n---\rx\n---\n--- y\n---\nz\n',
  ];
  for (const text of texts) assert.deepEqual(splitDocuments(text), splitDocumentsBefore(text), JSON.stringify(text));
  assert.equal(splitDocuments(texts[0]), undefined);
});
