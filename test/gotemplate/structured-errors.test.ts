/**
 * The template library's errors carry what callers decide by, so none reads a message: fromYaml's
 * unclosed flow collections (go-yaml's words, decided from the YAML library's code and tokens), the
 * place Go's error names, and JavaScript's stack overflow told from other RangeErrors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isStackOverflow, renderString, TemplateError } from '@appset-tools/gotemplate';

const fromYamlError = (y: string): string => {
  try {
    renderString('{{ fromYaml .y }}', { y }, { goTemplate: true });
  } catch (e) {
    assert.ok(e instanceof TemplateError);
    return e.message.replace(/^[\s\S]*error calling fromYaml: /, '');
  }
  return 'no error';
};

test("fromYaml: a flow collection never closed is go-yaml's \"did not find expected ',' or ']'\" (or '}'), at the innermost", () => {
  const go = (line: number, close: string) => `error converting YAML to JSON: yaml: line ${line}: did not find expected ',' or '${close}'`;
  assert.equal(fromYamlError('a: [1, 2'), go(1, ']'));
  assert.equal(fromYamlError('[a, b'), go(1, ']'));
  assert.equal(fromYamlError('{a: b'), go(1, '}'));
  assert.equal(fromYamlError('k: {a: 1\n'), go(2, '}'));
  assert.equal(fromYamlError('key: [a, b\nother: c\n'), go(2, ']'));
  assert.equal(fromYamlError('[a, {b: c'), go(1, '}'));
  assert.equal(fromYamlError('{a: [1, 2}'), go(1, ']'));
  assert.equal(fromYamlError('- [a\n- b\n'), go(2, ']'));
  assert.equal(fromYamlError('a: [b, c]\nd: {e'), go(2, '}'));
});

test("fromYaml: another error at the same place is the library's own words (an unclosed quote, a missing comma)", () => {
  const lib = (line: number, words: string) => `error converting YAML to JSON: yaml: line ${line}: ${words}`;
  assert.equal(fromYamlError('["abc'), lib(1, 'Missing closing "quote'));
  assert.equal(fromYamlError("{a: 'b"), lib(1, "Missing closing 'quote"));
  assert.equal(fromYamlError('["a" "b"]'), lib(1, 'Missing , or : between flow sequence items'));
});

test("a template error carries the place Go's text names: its line and the words after it", () => {
  const place = (t: string) => {
    try {
      renderString(t, { a: { b: 1 } }, { goTemplate: true, options: ['missingkey=error'] });
    } catch (e) {
      assert.ok(e instanceof TemplateError);
      return e.place;
    }
    return undefined;
  };
  assert.deepEqual(place('x\n\n{{ include "y" }}'), { line: 3, detail: 'function "include" not defined' });
  assert.deepEqual(place('x\n{{ .a.c }}'), { line: 2, detail: 'executing "base" at <.a.c>: map has no entry for key "c"' });
});

test("stack overflow: the engine's own overflow is one; other RangeErrors are not", () => {
  const dive = (n: number): number => dive(n + 1) + 1;
  let overflow: unknown;
  try {
    dive(0);
  } catch (e) {
    overflow = e;
  }
  assert.equal(isStackOverflow(overflow), true);
  const thrown = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e;
    }
  };
  assert.equal(isStackOverflow(thrown(() => 'x'.repeat(-1))), false);
  assert.equal(isStackOverflow(thrown(() => new Array(-1))), false);
  assert.equal(isStackOverflow(thrown(() => (1).toFixed(101))), false);
  assert.equal(isStackOverflow(new Error('Maximum call stack size exceeded')), false);
});
