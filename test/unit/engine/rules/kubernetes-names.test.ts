/**
 * The Kubernetes naming rules (`rules/kubernetes.ts`) test names character by character; here they are held
 * to k8s.io/apimachinery's own patterns (pkg/util/validation/validation.go: qualifiedNameFmt, labelValueFmt,
 * dns1123SubdomainFmt), anchored as its `MatchString` calls use them, on every name generated from pieces that
 * sit at the rules' edges (dots, dashes, underscores, capitals, non-ASCII letters, white space, lengths).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDnsSubdomain, labelKeyProblems, labelValueProblems } from '../../../../server/src/engine/rules/kubernetes';
import { seededRandom } from '../../../helpers/random';

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const PIECES = ['a', 'z', 'A', 'Z', '0', '9', '-', '--', '.', '..', '_', '/', 'é', 'İ', 'K', ' ', '\n', 'ab', 'a-b', 'a.b', 'x_y', 'svc-1'];

/** Names of up to `max` pieces, from a seed (the same names on every run). */
function names(seed: number, count: number, max: number): string[] {
  const r = seededRandom(seed);
  const out = ['', 'a'.repeat(63), 'a'.repeat(64), 'a'.repeat(253), 'a'.repeat(254)];
  for (let i = 0; i < count; i++) {
    let s = '';
    for (let k = Math.floor(r() * (max + 1)); k > 0; k--) s += PIECES[Math.floor(r() * PIECES.length)];
    out.push(s);
  }
  return out;
}

test('a DNS-1123 subdomain is what apimachinery’s pattern accepts, within 253 characters', () => {
  for (const s of names(1, 20_000, 7)) assert.equal(isDnsSubdomain(s), s.length <= 253 && DNS1123_SUBDOMAIN.test(s), JSON.stringify(s));
});

test('a label key’s problems follow apimachinery’s patterns for its prefix and name', () => {
  for (const s of names(2, 20_000, 7)) {
    const parts = s.split('/');
    const found = labelKeyProblems(s).map((p) => p.kind);
    if (parts.length > 2) {
      assert.deepEqual(found, ['too-many-slashes']);
      continue;
    }
    const name = parts[parts.length - 1];
    const expected: string[] = [];
    if (parts.length === 2) {
      if (!parts[0]) expected.push('empty-prefix');
      else {
        if (parts[0].length > 253) expected.push('prefix-too-long');
        if (!DNS1123_SUBDOMAIN.test(parts[0])) expected.push('prefix-not-subdomain');
      }
    }
    if (!name) expected.push('empty-name');
    else {
      if (name.length > 63) expected.push('name-too-long');
      if (!QUALIFIED_NAME.test(name)) expected.push('name-characters');
    }
    assert.deepEqual(found, expected, JSON.stringify(s));
  }
});

test('a label value’s problems follow apimachinery’s pattern (empty is a valid value)', () => {
  for (const s of names(3, 20_000, 7)) {
    const expected: string[] = [];
    if (s.length > 63) expected.push('value-too-long');
    if (!LABEL_VALUE.test(s)) expected.push('value-characters');
    assert.deepEqual(
      labelValueProblems(s).map((p) => p.kind),
      expected,
      JSON.stringify(s),
    );
  }
});
