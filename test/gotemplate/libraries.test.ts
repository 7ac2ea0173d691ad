/**
 * Templates follow the Go toolchain and libraries of the Argo CD release being modelled
 * (RenderOptions.libraries, from schemas/argocd-versions.json):
 * - test/fixtures/golden/semver-libraries.json: every semver call sprig makes, with the answers of
 *   the real Masterminds/semver v3.2.1, v3.3.0, v3.3.1 and v3.4.0 (built from each tag's source);
 * - test/fixtures/golden/argocd-2.12-libraries.json: templates rendered by the golden renderer
 *   (sprig v3.2.3, xstrings v1.3.3, Go before 1.23), compared with the 2.12 profile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderString, NEWEST_LIBRARIES, type TemplateLibraries } from '@appset-tools/gotemplate';
import {
  parseVersion,
  parseConstraints,
  satisfies,
  versionString,
  versionValue,
  type SemverVersion,
} from '../../server/src/gotemplate/sprig/semver';
import type { GoOther } from '../../server/src/gotemplate/values';

const dir = path.resolve(__dirname, '..', 'fixtures', 'golden');
const read = (f: string) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));

/** One semver call as sprig makes it, printed as the Go probe prints it. */
function semverCall(lib: SemverVersion, call: string[]): string {
  try {
    if (call[0] === 'parse') return versionString(parseVersion(call[1], lib));
    if (call[0] === 'check') return String(satisfies(parseConstraints(call[1], lib), parseVersion(call[2], lib), lib));
    const v = versionValue(parseVersion(call[1], lib), true);
    const m = v.member(call[0] === 'setpre' ? 'SetPrerelease' : 'SetMetadata') as { method: { impl: (s: string) => GoOther } };
    return versionString(m.method.impl(call[2]).payload as ReturnType<typeof parseVersion>);
  } catch (e) {
    return `ERR ${(e as Error).message}`;
  }
}

test('semver v3.2.1, v3.3.0, v3.3.1 and v3.4.0 answer every case as the real library does', () => {
  const fx = read('semver-libraries.json') as { cases: string[][]; expected: Record<SemverVersion, string[]> };
  let differing = 0;
  for (const [lib, expected] of Object.entries(fx.expected) as [SemverVersion, string[]][]) {
    fx.cases.forEach((call, i) => assert.equal(semverCall(lib, call), expected[i], `semver ${lib} ${JSON.stringify(call)}`));
    differing += fx.cases.filter((_, i) => expected[i] !== fx.expected['3.4.0'][i]).length;
  }
  assert.ok(fx.cases.length >= 40 && differing >= 20, 'the cases tell the library versions apart');
});

test('the Argo CD 2.8–2.12 profile renders as sprig v3.2.3 / xstrings v1.3.3 / Go < 1.23 do (golden renderer)', () => {
  const fx = read('argocd-2.12-libraries.json') as { cases: { template: string; result?: string; error?: string }[] };
  const old: TemplateLibraries = { goMinor: 22, semver: '3.2.1', xstrings: '1.3.3' };
  for (const c of fx.cases) {
    let got: { result?: string; error?: string };
    try {
      got = { result: renderString(c.template, { name: 'x' }, { goTemplate: true, templateName: '', libraries: old }) };
    } catch (e) {
      got = { error: (e as Error).message };
    }
    assert.deepEqual(got, c.error !== undefined ? { error: c.error } : { result: c.result }, c.template);
  }
});

test('Go features by toolchain: else with from Go 1.23, range over an integer from Go 1.24', () => {
  const at = (goMinor: number, t: string) => {
    try {
      return renderString(t, { name: 'x' }, { goTemplate: true, libraries: { ...NEWEST_LIBRARIES, goMinor } });
    } catch (e) {
      return (e as Error).message;
    }
  };
  const elseWith = '{{ with .nope }}a{{ else with .name }}{{ . }}{{ end }}';
  assert.match(at(22, elseWith), /template: base:1: unexpected <with> in else$/);
  assert.equal(at(23, elseWith), 'x');
  assert.match(at(23, '{{ range 3 }}.{{ end }}'), /executing "base" at <3>: range can't iterate over 3$/);
  assert.equal(at(24, '{{ range $i := 3 }}{{ $i }}{{ end }}'), '012');
  // A nested define is parsed by the same rules.
  assert.match(at(22, '{{ define "t" }}{{ with 1 }}{{ else with 2 }}{{ end }}{{ end }}'), /unexpected <with> in else/);
});

test('camelcase: xstrings v1.3.3 ToCamelCase vs v1.5.0 ToPascalCase', () => {
  const cc = (xstrings: TemplateLibraries['xstrings'], s: string) =>
    renderString(`{{ camelcase ${JSON.stringify(s)} }}`, {}, { goTemplate: true, libraries: { ...NEWEST_LIBRARIES, xstrings } });
  assert.equal(cc('1.3.3', 'fooBar'), 'Foobar');
  assert.equal(cc('1.5.0', 'fooBar'), 'FooBar');
  assert.equal(cc('1.3.3', 'HTTP_SERVER'), 'HttpServer');
  assert.equal(cc('1.5.0', 'HTTP_SERVER'), 'HttpServer');
  assert.equal(cc('1.3.3', '_a__b'), '_A_B');
});

test('semver methods by library version: LessThanEqual/GreaterThanEqual from v3.3.0', () => {
  const t = '{{ $a := semver "1.2.3" }}{{ $b := semver "1.2.3" }}{{ $a.LessThanEqual $b }} {{ $a.GreaterThanEqual $b }}';
  const at = (semver: SemverVersion) => {
    try {
      return renderString(t, {}, { goTemplate: true, libraries: { ...NEWEST_LIBRARIES, semver } });
    } catch (e) {
      return (e as Error).message;
    }
  };
  assert.match(at('3.2.1'), /can't evaluate field LessThanEqual in type \*semver\.Version/);
  assert.equal(at('3.3.0'), 'true true');
  assert.equal(at('3.4.0'), 'true true');
});
