/**
 * Renders re-used between keystrokes (engine/expand/renderMemo.ts through the language service): after
 * seeded random edits of list elements, templates, options and templatePatch, one language service that
 * saw every version must answer exactly as a fresh one that sees only the last text (Applications,
 * problems, notes, findings), and an edit in one list element must render one Application again. Tests of
 * the service's own re-use (analyses.ts, expansions.ts): they read the contexts, so they use the service's
 * internal facade.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '../../../../server/src/engine/service/languageService';
import { emptyHost } from '@appset-tools/engine';
import type { Expansion } from '@appset-tools/engine';
import { appsetHead, flowTemplate, listOf, LOCAL, MINIMAL_TEMPLATE_SPEC } from '../../../helpers/appsets';
import { seededRandom } from '../../../helpers/random';
import { memHost } from '../../../helpers/memHost';

const elements = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ service: `svc-${i}`, env: ['dev', 'prod', 'staging'][i % 3], replicas: `"${1 + (i % 4)}"` }));

/** Go templates (with a missing-key option, a patch, a function with a changing result) and fasttemplate. */
const BASES = [
  `${appsetHead('go', { options: '["missingkey=error"]' })}  generators:
${listOf(elements(14))}  template:
    metadata:
      name: '{{ .service }}-{{ .env }}'
      labels:
        env: '{{ .env | upper }}'
${MINIMAL_TEMPLATE_SPEC.replace('namespace: default', "namespace: '{{ .service }}'")}  templatePatch: |
    spec:
      source:
        helm:
          parameters:
            - name: replicas
              value: '{{ .replicas }}'
`,
  `${appsetHead('fast', { goTemplate: false })}  generators:
${listOf(elements(10))}  template:
    metadata:
      name: '{{service}}-{{env}}'
${MINIMAL_TEMPLATE_SPEC.replace('path: apps', "path: 'apps/{{service}}'")}`,
  `${appsetHead('clock')}  generators:
${listOf(elements(6))}  template:
    metadata:
      name: '{{ .service }}'
      annotations:
        at: '{{ now | date "2006" }}'
${MINIMAL_TEMPLATE_SPEC}`,
];

const PIECES = ['a', 'b', '-', '0', '9', '{{ .env }}', '{{ .nope }}', '}}', '{{', ' | lower', '"', "'", ' ', ''];

function edit(text: string, rnd: () => number): string {
  // Mostly inside values (after `: `), where people edit an ApplicationSet.
  const values = [...text.matchAll(/: (\S[^\n]*)/g)];
  const m = values[Math.floor(rnd() * values.length)];
  const start = (m.index ?? 0) + 2;
  const at = start + Math.floor(rnd() * (m[1].length + 1));
  const piece = PIECES[Math.floor(rnd() * PIECES.length)];
  const del = rnd() < 0.3 ? 1 + Math.floor(rnd() * 3) : 0;
  return text.slice(0, at) + piece + text.slice(at + del);
}

/** Where two JSON values first differ, for the failure message. */
function firstDifference(a: unknown, b: unknown, path = ''): string {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  if (x === y) return '';
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`);
      if (d) return d;
    }
  }
  return `${path}: ${x?.slice(0, 300)} ≠ ${y?.slice(0, 300)}`;
}

function shape(e: Expansion) {
  const { renders: _, ...rest } = e;
  return rest;
}

/** The newest release, and one before Argo CD 3.6 (its template options name `tpl`, a function it lacks). */
const RELEASES = [
  ['the newest release', emptyHost],
  ['Argo CD 3.1', () => memHost(new Map(), { argocdVersion: '3.1' })],
] as const;

for (const [release, host] of RELEASES)
  test(`re-used renders: after every edit, the same answers as a fresh language service (seeded random edits, ${release})`, () => {
    sameAsFresh(host);
  });

function sameAsFresh(host: () => ReturnType<typeof emptyHost>): void {
  let edits = 0;
  for (const [b, base] of BASES.entries()) {
    const s = getLanguageService({ host: host() });
    const uri = `file:///work/appset-${b}.yaml`;
    const rnd = seededRandom(4242 + b);
    let text = base;
    for (let i = 0; i < 120; i++) {
      text = rnd() < 0.08 ? base : edit(text, rnd);
      const a = s.analyze(uri, text);
      const fresh = getLanguageService({ host: host() });
      const f = fresh.analyze(uri, text);
      edits++;
      assert.equal(a.appsets.length, f.appsets.length, `base ${b} edit ${i}`);
      a.appsets.forEach((c, j) => {
        // Dates in the 'clock' base change between the two calls only at a new year: compare the rest.
        assert.deepEqual(
          JSON.parse(JSON.stringify(shape(c.expansion()))),
          JSON.parse(JSON.stringify(shape(f.appsets[j].expansion()))),
          `base ${b} edit ${i}: ${firstDifference(shape(c.expansion()), shape(f.appsets[j].expansion()))}`,
        );
      });
      assert.deepEqual(s.diagnostics(a), fresh.diagnostics(f), `base ${b} edit ${i} findings`);
    }
  }
  assert.ok(edits >= 360);
}

test('an edit in one list element renders one Application again; an edit in the template renders all', () => {
  const s = getLanguageService({ host: emptyHost() });
  const uri = 'file:///work/list.yaml';
  const base = BASES[0];
  const first = s.analyze(uri, base).appsets[0].expansion();
  const apps = (e: Expansion) => e.apps.map((x) => x.app);
  // svc-4's env changes: its Application is new, every other one is the same object as before
  const one = s
    .analyze(uri, base.replace('service: svc-4\n            env: prod', 'service: svc-4\n            env: prodX'))
    .appsets[0].expansion();
  const changed = apps(one).filter((x, i) => x !== apps(first)[i]);
  assert.equal(changed.length, 1);
  assert.equal((changed[0].metadata as { name: string }).name, 'svc-4-prodX');
  // a template edit: every Application rendered again
  const all = s.analyze(uri, base.replace("env: '{{ .env | upper }}'", "env: '{{ .env | lower }}'")).appsets[0].expansion();
  assert.equal(apps(all).filter((x, i) => x === apps(one)[i]).length, 0);
  // ... but each of their template fields that did not change is re-used: here the labels, not the destination
  const field = (x: Record<string, unknown>, top: string, k: string) => (x[top] as Record<string, unknown>)[k];
  const ns = s
    .analyze(
      uri,
      base
        .replace("env: '{{ .env | upper }}'", "env: '{{ .env | lower }}'")
        .replace("namespace: '{{ .service }}'", "namespace: 'x-{{ .service }}'"),
    )
    .appsets[0].expansion();
  assert.equal(
    apps(ns).filter((x, i) => field(x, 'metadata', 'labels') === field(apps(all)[i], 'metadata', 'labels')).length,
    apps(ns).length,
  );
  assert.equal(apps(ns).filter((x, i) => field(x, 'spec', 'destination') === field(apps(all)[i], 'spec', 'destination')).length, 0);
  assert.equal((field(apps(ns)[0], 'spec', 'destination') as { namespace: string }).namespace, 'x-svc-0');
  // a render with a function whose result changes is never re-used
  const clock = BASES[2];
  const c1 = s.analyze('file:///work/clock.yaml', clock).appsets[0].expansion();
  const c2 = s.analyze('file:///work/clock.yaml', clock.replace('service: svc-2', 'service: svc-2b')).appsets[0].expansion();
  assert.equal(apps(c2).filter((x, i) => x === apps(c1)[i]).length, 0);
  assert.equal(c2.exact, false);
});

// Before Argo CD 3.6 the template options name `tpl` (a function the release lacks): the template must
// still not count as one that modifies its parameters (expand.ts templateMemo `modifies`).
for (const [release, host] of RELEASES)
  test(`a template edit renders again only the template strings it changed, per parameter set (${release})`, () => {
    stringsReRendered(getLanguageService({ host: host() }));
  });

function stringsReRendered(s: ReturnType<typeof getLanguageService>): void {
  const uri = 'file:///work/strings.yaml';
  const base = BASES[0];
  // The kept renders of one template string, by parameter set (renderMemo.ts keys them by the string first).
  const rendersOf = (e: Expansion, template: string) => {
    const found = [...(e.renders ?? new Map())].find(([k]) => (JSON.parse(k) as unknown[])[0] === template);
    return new Map(found?.[1] ?? []);
  };
  // A document's first expansion keeps whole Applications only (expand.ts templateMemo: a first answer
  // does not pay for a template keystroke that may never come); the next one that renders keeps every string.
  const opened = s.analyze(uri, base.replace("namespace: '{{ .service }}'", "namespace: 'y-{{ .service }}'")).appsets[0].expansion();
  assert.equal(rendersOf(opened, '{{ .service }}-{{ .env }}').size, 0);
  const first = s.analyze(uri, base).appsets[0].expansion();
  const names = rendersOf(first, '{{ .service }}-{{ .env }}');
  assert.equal(names.size, 14);
  // the destination's namespace edited: the Applications are rendered again, but not their names
  const next = s.analyze(uri, base.replace("namespace: '{{ .service }}'", "namespace: 'x-{{ .service }}'")).appsets[0].expansion();
  assert.equal(next.apps.filter((x, i) => x.app === first.apps[i].app).length, 0);
  const namesAfter = rendersOf(next, '{{ .service }}-{{ .env }}');
  assert.equal([...namesAfter].filter(([k, r]) => names.get(k) === r).length, 14, 'every name render re-used');
  assert.equal(rendersOf(next, 'x-{{ .service }}').size, 14);
  assert.deepEqual(
    next.apps.map((x) => [x.name, (x.app.spec as { destination: { namespace: string } }).destination.namespace]).slice(0, 2),
    [
      ['svc-0-dev', 'x-svc-0'],
      ['svc-1-prod', 'x-svc-1'],
    ],
  );
  // a string whose function gives a different result on every call is never kept
  s.analyze('file:///work/clock.yaml', BASES[2].replace('service: svc-2', 'service: svc-2b')).appsets[0].expansion();
  const clock = s.analyze('file:///work/clock.yaml', BASES[2]).appsets[0].expansion();
  assert.equal(rendersOf(clock, '{{ now | date "2006" }}').size, 0);
  assert.equal(rendersOf(clock, '{{ .service }}').size, 6);
}

test('a template that modifies its parameters (sprig set) keeps no field renders: a later field sees the change', () => {
  // Like the controller's single params map, a field rendered after one that calls `set` sees the new
  // value; a kept render of the first field would skip that change when only the second is edited.
  const base = `${appsetHead('setter', { options: '["missingkey=error"]' })}  generators:
${listOf([
  { service: 'a', env: 'dev' },
  { service: 'b', env: 'prod' },
])}  template:
    metadata:
      name: '{{ .service }}'
      annotations:
        a: '{{ $_ := set . "env" "changed" }}{{ .env }}'
    spec:
      project: default
      source: {repoURL: 'https://git.example.com/r.git', path: apps}
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{ .env }}'
`;
  const namespaces = (e: Expansion) => e.apps.map((a) => (a.app.spec as { destination: { namespace: string } }).destination.namespace);
  const s = getLanguageService({ host: emptyHost() });
  const uri = 'file:///work/setter.yaml';
  assert.deepEqual(namespaces(s.analyze(uri, base).appsets[0].expansion()), ['changed', 'changed']);
  const edited = base.replace("namespace: '{{ .env }}'", "namespace: 'x-{{ .env }}'");
  assert.deepEqual(namespaces(s.analyze(uri, edited).appsets[0].expansion()), ['x-changed', 'x-changed']);
});

test('a template edit after a list-element edit still re-uses the template fields that did not change', () => {
  // As a user types: an element, then the template, then an element again. The Applications re-used
  // whole by the element edit carry their field renders to the template edit.
  const s = getLanguageService({ host: emptyHost() });
  const uri = 'file:///work/alternate.yaml';
  const apps = (e: Expansion) => e.apps.map((x) => x.app);
  const labels = (x: Record<string, unknown>) => (x.metadata as Record<string, unknown>).labels;
  const destination = (x: Record<string, unknown>) => (x.spec as Record<string, unknown>).destination;
  let text = BASES[0];
  // The first expansion keeps whole Applications only; a template edit after it keeps every field.
  s.analyze(uri, text.replace("namespace: '", "namespace: 'y")).appsets[0].expansion();
  let prev = apps(s.analyze(uri, text).appsets[0].expansion());
  for (let i = 0; i < 3; i++) {
    text = text.replace(/service: svc-4\w*\n/, `service: svc-4x${i}\n`);
    const afterElement = apps(s.analyze(uri, text).appsets[0].expansion());
    assert.equal(afterElement.filter((x, j) => x !== prev[j]).length, 1, `round ${i}: one Application rendered again`);
    text = text.replace("namespace: '", `namespace: '${i}`);
    const afterTemplate = apps(s.analyze(uri, text).appsets[0].expansion());
    // every Application is new, yet only the changed element's labels were rendered again
    assert.equal(afterTemplate.filter((x, j) => x === afterElement[j]).length, 0);
    assert.equal(afterTemplate.filter((x, j) => labels(x) !== labels(afterElement[j])).length, 0, `round ${i}: labels re-used`);
    assert.equal(afterTemplate.filter((x, j) => destination(x) === destination(afterElement[j])).length, 0);
    prev = afterTemplate;
  }
});

const listAppSet = (name: string) => `${appsetHead(name, { namespace: null })}  generators:
    - list:
        elements:
          - {svc: a}
          - {svc: b}
${flowTemplate(`'${name}-{{ .svc | badfunc }}'`, "repoURL: https://git.example.com/r.git, path: 'apps/{{ .svc }}'", `${LOCAL}, namespace: web`)}`;

test('the language service re-uses the parse and the expansion of unchanged ApplicationSets', () => {
  const s = getLanguageService({ host: emptyHost() });
  const docs = [listAppSet('one'), listAppSet('two'), listAppSet('three')];
  const uri = 'file:///work/sets.yaml';
  const a1 = s.analyze(uri, docs.join('---\n'));
  const exps1 = a1.appsets.map((c) => c.expansion());
  const d1 = s.diagnostics(a1);
  // type in the first document's template (same length: the others stay where they were)
  const a2 = s.analyze(uri, docs.join('---\n').replace("'one-{{", "'onX-{{"));
  assert.equal(a2.appsets[1].doc.doc, a1.appsets[1].doc.doc, 'the second document was not parsed again');
  assert.equal(a2.appsets[1].expansion(), exps1[1], 'nor expanded again');
  assert.equal(a2.appsets[2].expansion(), exps1[2]);
  assert.notEqual(a2.appsets[0].expansion(), exps1[0]);
  // the findings of the untouched documents are the same, at the same places
  const d2 = s.diagnostics(a2);
  const later = (ds: typeof d1) => ds.filter((d) => d.span.start >= a1.appsets[1].doc.span.start).map((d) => [d.code, d.span]);
  assert.deepEqual(later(d2), later(d1));
});

test('the kept renders stay bounded while one list element takes hundreds of different values', () => {
  // Each expansion adds its renders to the previous one's maps (renderMemo.ts pruneMemo): the renders of
  // values typed and gone are dropped once a map holds more than twice the parameter sets (and 64).
  const s = getLanguageService({ host: emptyHost() });
  const uri = 'file:///work/bounded.yaml';
  const base = BASES[0];
  let largest = 0;
  let e: Expansion | undefined;
  for (let i = 0; i < 300; i++) {
    e = s.analyze(uri, base.replace('service: svc-4\n', `service: svc-4-${i}\n`)).appsets[0].expansion();
    for (const m of e.renders?.values() ?? []) largest = Math.max(largest, m.size);
  }
  assert.ok(e && e.apps.length === 14);
  assert.ok(largest <= 2 * 14 + 64 + 1, `a map of the memo held ${largest} renders`);
  // ... and what is kept is still re-used: the next edit of the element renders one Application again.
  const apps = (x: Expansion) => x.apps.map((a) => a.app);
  const next = s.analyze(uri, base.replace('service: svc-4\n', 'service: svc-4-last\n')).appsets[0].expansion();
  assert.equal(apps(next).filter((x, i) => x !== apps(e!)[i]).length, 1);
});

test('the kept renders do not keep the texts of earlier keystrokes alive', () => {
  // A string read from the document is, in V8, a slice that holds the whole text; a template field
  // without a template action renders to that very string (engine/expand/ownStrings.ts), and the
  // renders are kept across keystrokes. Typed as the bench types, a list element and the template in
  // turn, 160 keystrokes in a 96 KiB text: the renders kept held one text per template keystroke
  // (7.5 MiB). What the expansion cache holds by design (about 2000 Applications) is the same either way.
  const v8 = require('node:v8') as typeof import('node:v8');
  const vm = require('node:vm') as typeof import('node:vm');
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const heap = () => {
    gc();
    return process.memoryUsage().heapUsed / 1048576;
  };
  const s = getLanguageService({ host: emptyHost() });
  const uri = 'file:///work/held.yaml';
  const owned = elements(540).map((e, i) => ({
    ...e,
    image: `registry.example.com/platform/${e.service}:1.${i % 30}.0`,
    owner: `owner-${i}@example.io`,
  }));
  let text = `${appsetHead('held')}  generators:
${listOf(owned)}  template:
    metadata:
      name: '{{ .service }}-{{ .env }}'
    spec:
      project: default
      source:
        repoURL: https://git.example.com/platform/deploy.git
        targetRevision: main
        path: 'apps/{{ .service }}'
      destination:
        server: https://kubernetes.default.svc
        namespace: '{{ .service }}-{{ .env }}'
      syncPolicy:
        syncOptions: [CreateNamespace=true]
`;
  const type = (after: string, ch: string) => {
    const at = text.indexOf(after) + after.length;
    text = text.slice(0, at) + ch + text.slice(at);
    return s.analyze(uri, text).appsets[0].expansion();
  };
  const keystrokes = (n: number) => {
    for (let i = 0; i < n; i++) {
      assert.equal(type('owner-4', String(i % 10)).apps.length, 540);
      type("namespace: '{{ .service }}-{{ .env }}", String(i % 10));
    }
  };
  keystrokes(5);
  const before = heap();
  keystrokes(80);
  const grown = heap() - before;
  assert.ok(
    grown < 6,
    `the heap grew by ${grown.toFixed(1)} MiB over 160 more keystrokes in a ${(text.length / 1024).toFixed(0)} KiB text`,
  );
});
