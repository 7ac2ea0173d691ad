// The readers of the controller settings (install/argoEnv.ts, install/kustomizeKv.ts,
// install/controllerArgs.ts) against the cases of the upstream test tables: Argo CD v3.5.1
// util/env/env_test.go, Go's strconv.ParseBool, kustomize api/kv/kv_test.go,
// api/internal/generators/utils_test.go and api/krusty/configmaps_test.go (cases rewritten, not copied).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envBool, envStrings, flagBool, flagStrings } from '../../../../server/src/engine/install/argoEnv';
import { envFilePairs, fileSource, literalPair } from '../../../../server/src/engine/install/kustomizeKv';
import { parseControllerArgs } from '../../../../server/src/engine/install/controllerArgs';

test('ParseBoolFromEnv (util/env/env_test.go Test_ParseBoolFromEnv): only true/false by strings.EqualFold, untrimmed; else the default', () => {
  // The upstream table: "true" → true, "false" → false, "somevalue" → the default, "" → the default.
  assert.equal(envBool('true'), true);
  assert.equal(envBool('false'), false);
  assert.equal(envBool('somevalue'), undefined);
  assert.equal(envBool(''), undefined);
  // EqualFold: any case, and the Unicode characters that fold to an ASCII letter (ſ folds to s).
  assert.equal(envBool('TRUE'), true);
  assert.equal(envBool('fAlSe'), false);
  assert.equal(envBool('fal\u017fe'), false);
  // Nothing trimmed: a file's newline, a space, an envs line's quotes.
  assert.equal(envBool('true\n'), undefined);
  assert.equal(envBool(' false'), undefined);
  assert.equal(envBool('"true"'), undefined);
  // Not strconv: 1 and t are not booleans for the env reader.
  assert.equal(envBool('1'), undefined);
});

test('StringsFromEnv (TestStringsFromEnv) and pflag string slices', () => {
  assert.deepEqual(envStrings('one,two,three'), ['one', 'two', 'three']);
  assert.deepEqual(envStrings('one, two   ,    three'), ['one', 'two', 'three']);
  assert.equal(envStrings(''), undefined);
  // A flag's value is one CSV record, parts as written.
  assert.deepEqual(flagStrings('a, b'), ['a', ' b']);
  assert.deepEqual(flagStrings('"a,b",c'), ['a,b', 'c']);
});

test("strconv.ParseBool (a bool flag's =value)", () => {
  for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) assert.equal(flagBool(t), true, t);
  for (const f of ['0', 'f', 'F', 'FALSE', 'false', 'False']) assert.equal(flagBool(f), false, f);
  for (const x of ['', 'x', 'yes', 'tRuE', ' true']) assert.equal(flagBool(x), undefined, x);
});

test('kustomize envs lines (kv_test.go TestKeyValuesFromLines): quotes and trailing text kept', () => {
  assert.deepEqual(
    envFilePairs('\n\t\tk1=v1\n\t\tk2=v2\n\t\t').map(({ key, value }) => ({ key, value })),
    [
      { key: 'k1', value: 'v1' },
      { key: 'k2', value: 'v2' },
    ],
  );
  assert.deepEqual(
    envFilePairs('\n\t\tk1=v1\n\t\t#k2=v2\n').map((p) => p.key),
    ['k1'],
  );
  assert.deepEqual(
    envFilePairs('\nk1=\n').map(({ key, value }) => ({ key, value })),
    [{ key: 'k1', value: '' }],
  );
  assert.deepEqual(
    envFilePairs('\nk1\n').map(({ key, value }) => ({ key, value })),
    [{ key: 'k1', value: '' }],
  );
  // The value is everything after the first "=": quotes, "=" and trailing blanks are the value's.
  assert.deepEqual(
    envFilePairs('a="true"\nb=x=y\nc=on \r\n').map((p) => p.value),
    ['"true"', 'x=y', 'on '],
  );
  // A byte-order mark only on the first line; the line numbers count every line.
  assert.deepEqual(
    envFilePairs('\ufeffa=1\n\n# c\nb=2').map((p) => [p.key, p.line]),
    [
      ['a', 0],
      ['b', 3],
    ],
  );
});

test('kustomize literals (removeQuotes, krusty configmaps_test.go) and files sources (TestParseFileSource)', () => {
  assert.deepEqual(literalPair('ANOTHER_ENV_VARIABLE="bar"'), { key: 'ANOTHER_ENV_VARIABLE', value: 'bar' });
  assert.deepEqual(literalPair("TEST=this is a 'test'"), { key: 'TEST', value: "this is a 'test'" });
  assert.deepEqual(literalPair("TEST='"), { key: 'TEST', value: "'" });
  assert.deepEqual(literalPair('k="true\''), { key: 'k', value: '"true\'' });
  assert.equal(literalPair('=v'), undefined);
  assert.equal(literalPair('novalue'), undefined);
  assert.deepEqual(fileSource('./path/myfile'), { key: 'myfile', path: './path/myfile' });
  assert.deepEqual(fileSource('newName.ini=oldName'), { key: 'newName.ini', path: 'oldName' });
  assert.equal(fileSource('newName.ini==oldName'), undefined);
  assert.equal(fileSource('=myfile'), undefined);
});

test('arguments as pflag reads them: --x=v, --x v over two items, a bool flag alone, --', () => {
  const known = new Map([
    ['--policy', false],
    ['--enable-scm-providers', true],
  ]);
  const read = (items: string[]) => parseControllerArgs(items, known).map((p) => [p.flag, p.value, p.item]);
  assert.deepEqual(read(['--policy', 'create-only']), [['--policy', 'create-only', 1]]);
  assert.deepEqual(read(['--policy=create-only']), [['--policy', 'create-only', 0]]);
  // A bool flag never takes the next argument: `--enable-scm-providers false` leaves them on.
  assert.deepEqual(read(['--enable-scm-providers', 'false']), [['--enable-scm-providers', 'true', 0]]);
  // A value flag takes the next argument whatever it holds; a flag without one is pflag's error.
  assert.deepEqual(read(['--policy', '--enable-scm-providers']), [['--policy', '--enable-scm-providers', 1]]);
  assert.deepEqual(read(['--policy']), []);
  // After `--` nothing is a flag; an unknown flag's value is skipped, the next known flag still read.
  assert.deepEqual(read(['--loglevel', 'debug', '--policy', 'sync', '--', '--policy=create-only']), [['--policy', 'sync', 3]]);
});
