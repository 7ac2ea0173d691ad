/**
 * Generators in steps (issue 16: the language server pauses between steps to answer other documents):
 * run to the end, or interleaved step by step with another expansion as the server's scheduler does,
 * they give exactly the parameter sets, origins, errors, caps and notes of the one-go run, and those
 * are the ones a plain model of the list, matrix and merge generators gives (fixed and seeded random
 * inputs). The generators module's own test: it runs `runWithSelector`/`runWithSelectorSteps` on a
 * generator context of its own; a whole expansion in steps is test/unit/generators-steps.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWithSelector, runWithSelectorSteps } from '../../../../server/src/engine/generators/index';
import { deepMergeOverride, type ParamSet } from '../../../../server/src/engine/generators/params';
import type { GenContext } from '../../../../server/src/engine/generators/types';
import { SUPPORTED_ARGOCD_VERSIONS } from '@appset-tools/engine';

/** The newest published release line (the engine's default target), from the door's list of supported lines. */
const NEWEST = SUPPORTED_ARGOCD_VERSIONS.filter((v) => v !== 'master').at(-1)!;

const PATH = ['spec', 'generators', 0];

function context(goTemplate: boolean, maxParams = 10000): GenContext {
  return {
    file: undefined as never, // list, matrix and merge read no files
    goTemplate,
    options: [],
    version: NEWEST,
    // The template library's defaults are the newest release's (gotemplate RenderOptions.libraries).
    renderOpts: { goTemplate, options: [] },
    dropNestedSelectors: false,
    namespace: 'argocd',
    notes: new Set(),
    inexact: { value: false },
    findings: [],
    maxParams,
    counts: new Map(),
    capped: { value: false },
    origins: new Map(),
    originFiles: new Map(),
    empties: [],
  };
}

type Case = { entry: Record<string, unknown>; kind: string; goTemplate: boolean; maxParams: number };

/** Everything a generator run gives or leaves in its context, as one comparable value. */
function outcome(c: Case, run: (ctx: GenContext) => ParamSet[]): unknown {
  const ctx = context(c.goTemplate, c.maxParams);
  let result: unknown;
  try {
    const ps = run(ctx);
    result = { ps, origins: ps.map((p) => ctx.origins!.get(p)) };
  } catch (e) {
    result = { error: (e as Error).message, path: (e as { path?: unknown }).path };
  }
  return { result, notes: [...ctx.notes], findings: ctx.findings, counts: [...ctx.counts], capped: ctx.capped.value, empties: ctx.empties };
}

const oneGo = (c: Case) => outcome(c, (ctx) => runWithSelector(c.entry, c.kind, ctx, PATH));

/** Two runs stepped alternately, one step each, to their ends (what the scheduler does with two documents). */
function interleaved(a: Case, b: Case): [unknown, unknown] {
  const results: unknown[] = [];
  const runs = [a, b].map((c) => {
    const ctx = context(c.goTemplate, c.maxParams);
    return { c, ctx, steps: runWithSelectorSteps(c.entry, c.kind, ctx, PATH), done: false, out: undefined as unknown };
  });
  while (runs.some((r) => !r.done))
    for (const r of runs) {
      if (r.done) continue;
      try {
        const n = r.steps.next();
        if (!n.done) continue;
        r.out = { ps: n.value, origins: n.value.map((p) => r.ctx.origins!.get(p)) };
      } catch (e) {
        r.out = { error: (e as Error).message, path: (e as { path?: unknown }).path };
      }
      r.done = true;
    }
  for (const r of runs)
    results.push({
      result: r.out,
      notes: [...r.ctx.notes],
      findings: r.ctx.findings,
      counts: [...r.ctx.counts],
      capped: r.ctx.capped.value,
      empties: r.ctx.empties,
    });
  return [results[0], results[1]];
}

/**
 * The list, matrix and merge generators as plain loops (Argo CD list.go, matrix.go, merge.go) over
 * inputs without templates; undefined where the generator must fail (a fasttemplate conflict, a
 * duplicate merge key).
 */
function model(entry: Record<string, unknown>, kind: string, goTemplate: boolean, max: number): ParamSet[] | undefined {
  const spec = entry[kind] as Record<string, unknown>;
  let out: ParamSet[] | undefined;
  if (kind === 'list') {
    out = (spec.elements as Record<string, unknown>[]).map((el) => ({ ...el }) as ParamSet);
    if (out.length > max) out = out.slice(0, max);
  } else if (kind === 'matrix') {
    const [c0, c1] = spec.generators as Record<string, unknown>[];
    const first = model(
      c0,
      Object.keys(c0).find((k) => k !== 'selector')!,
      goTemplate,
      max,
    );
    if (!first) return undefined;
    out = [];
    outer: for (const a of first) {
      const second = model(
        c1,
        Object.keys(c1).find((k) => k !== 'selector')!,
        goTemplate,
        max,
      );
      if (!second) return undefined;
      for (const b of second) {
        if (out.length >= max) break outer;
        if (goTemplate) out.push(deepMergeOverride(b, a));
        else {
          if (Object.keys(b).some((k) => k in a && a[k] !== b[k])) return undefined;
          out.push({ ...a, ...b });
        }
      }
    }
  } else {
    const keys = spec.mergeKeys as string[];
    const sets: ParamSet[][] = [];
    for (const c of spec.generators as Record<string, unknown>[]) {
      const s = model(
        c,
        Object.keys(c).find((k) => k !== 'selector')!,
        goTemplate,
        max,
      );
      if (!s) return undefined;
      sets.push(s);
    }
    const keyOf = (p: ParamSet) => JSON.stringify(keys.map((k) => (k in p ? p[k] : null)));
    const index = (list: ParamSet[]) => {
      const m = new Map<string, ParamSet>();
      for (const p of list) {
        if (m.has(keyOf(p))) return undefined;
        m.set(keyOf(p), p);
      }
      return m;
    };
    const base = index(sets[0]);
    if (!base) return undefined;
    for (const later of sets.slice(1)) {
      const m = index(later);
      if (!m) return undefined;
      for (const [k, p] of m) {
        const b = base.get(k);
        if (b) base.set(k, goTemplate ? deepMergeOverride(b, p) : { ...b, ...p });
      }
    }
    out = [...base.values()];
  }
  const sel = (entry.selector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels;
  return sel ? out.filter((p) => Object.entries(sel).every(([k, v]) => p[k] === v)) : out;
}

/** A seeded xorshift, so that a failure names the seed that reproduces it. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

/** A random list, matrix (of lists, or of a nested matrix/merge) or merge entry, with selectors, caps and failures. */
function randomCase(seed: number): Case {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const goTemplate = r() < 0.5;
  // goTemplate keeps element types: numbers and nested maps exercise the deep merge.
  const val = (): unknown =>
    goTemplate && r() < 0.2
      ? r() < 0.5
        ? Math.floor(r() * 5)
        : { x: { y: pick(['p', 'q']) }, z: pick(['1', '2']) }
      : pick(['x', 'y', 'z']);
  const sel = () => (r() < 0.25 ? { selector: { matchLabels: { s: pick(['x', 'y']) } } } : {});
  const list = (keys: string[], uniqueBy?: string) => {
    const n = Math.floor(r() * (r() < 0.1 ? 40 : 7));
    const elements = Array.from({ length: n }, (_, i) => {
      const el: Record<string, unknown> = {};
      for (const k of [...keys, 's']) if (r() < 0.85) el[k] = k === 's' ? pick(['x', 'y']) : val();
      if (uniqueBy) el[uniqueBy] = `${uniqueBy}${i}`;
      return el;
    });
    return { list: { elements }, ...sel() };
  };
  const merge = () => {
    // Now and then not unique by the merge key: the merge fails as the controller's does.
    const unique = r() < 0.85;
    return {
      merge: {
        generators: Array.from({ length: 2 + Math.floor(r() * 2) }, () => list(['a', 'b'], unique ? 'm' : undefined)),
        mergeKeys: ['m'],
      },
    };
  };
  const matrix = (depth: number): Record<string, unknown> => {
    // fasttemplate: disjoint keys, except now and then (a conflict fails the matrix).
    const left = goTemplate ? ['a', 'b'] : ['a'];
    const right = goTemplate || r() < 0.15 ? ['b', 'c'] : ['c'];
    const child = (keys: string[]) => (depth === 0 && r() < 0.3 ? { ...(r() < 0.5 ? matrix(1) : merge()), ...sel() } : list(keys));
    return { matrix: { generators: [child(left), child(right)] } };
  };
  const kind = pick(['list', 'matrix', 'merge'] as const);
  const entry = kind === 'list' ? list(['a', 'b', 'c']) : { ...(kind === 'matrix' ? matrix(0) : merge()), ...sel() };
  return { entry, kind, goTemplate, maxParams: r() < 0.2 ? 1 + Math.floor(r() * 20) : 10000 };
}

const lists = (a: number, b: number, goTemplate = true): Case => ({
  entry: {
    matrix: {
      generators: [
        { list: { elements: Array.from({ length: a }, (_, i) => ({ a: `a${i}`, shared: 'first' })) } },
        { list: { elements: Array.from({ length: b }, (_, i) => ({ b: `b${i}`, ...(goTemplate ? { shared: 'second' } : {}) })) } },
      ],
    },
  },
  kind: 'matrix',
  goTemplate,
  maxParams: 10000,
});

test('fixed inputs: the stepwise matrix, merge and list give the sets the generators are specified to give', () => {
  const m = lists(3, 2);
  const { result } = oneGo(m) as { result: { ps: ParamSet[] } };
  // The first child wins in a goTemplate matrix (mergo WithOverride of the second by the first).
  assert.deepEqual(result.ps, [
    { b: 'b0', shared: 'first', a: 'a0' },
    { b: 'b1', shared: 'first', a: 'a0' },
    { b: 'b0', shared: 'first', a: 'a1' },
    { b: 'b1', shared: 'first', a: 'a1' },
    { b: 'b0', shared: 'first', a: 'a2' },
    { b: 'b1', shared: 'first', a: 'a2' },
  ]);
  const merge: Case = {
    entry: {
      merge: {
        mergeKeys: ['server'],
        generators: [
          {
            list: {
              elements: [
                { server: 'a', env: 'dev' },
                { server: 'b', env: 'dev' },
              ],
            },
          },
          {
            list: {
              elements: [
                { server: 'b', env: 'prod' },
                { server: 'c', env: 'prod' },
              ],
            },
          },
        ],
      },
    },
    kind: 'merge',
    goTemplate: false,
    maxParams: 10000,
  };
  assert.deepEqual((oneGo(merge) as { result: { ps: ParamSet[] } }).result.ps, [
    { server: 'a', env: 'dev' },
    { server: 'b', env: 'prod' },
  ]);
  // Capped at 4: the first four sets and one finding.
  const capped = oneGo({ ...lists(3, 2), maxParams: 4 }) as { result: { ps: ParamSet[] }; capped: boolean; findings: { code: string }[] };
  assert.equal(capped.result.ps.length, 4);
  assert.equal(capped.capped, true);
  assert.deepEqual(
    capped.findings.map((f) => f.code),
    ['generator/too-many-applications'],
  );
});

test('a 100 × 100 matrix and a 3,000-element list pause many times, and give the one-go sets', () => {
  for (const c of [lists(100, 100), lists(100, 100, false)]) {
    const ctx = context(c.goTemplate);
    const steps = runWithSelectorSteps(c.entry, c.kind, ctx, PATH);
    let pauses = 0;
    let r = steps.next();
    while (!r.done) {
      pauses++;
      r = steps.next();
    }
    assert.ok(pauses >= 100, `${pauses} pauses`);
    assert.equal(r.value.length, 10000);
    assert.deepEqual(r.value, (oneGo(c) as { result: { ps: ParamSet[] } }).result.ps);
    assert.deepEqual(r.value, model(c.entry, c.kind, c.goTemplate, c.maxParams));
  }
  const list: Case = {
    entry: { list: { elements: Array.from({ length: 3000 }, (_, i) => ({ n: `e${i}` })) } },
    kind: 'list',
    goTemplate: false,
    maxParams: 10000,
  };
  let pauses = 0;
  const steps = runWithSelectorSteps(list.entry, list.kind, context(false), PATH);
  while (!steps.next().done) pauses++;
  assert.ok(pauses >= 20, `${pauses} pauses`);
});

test('randomized: one go, stepped and interleaved with another run give the same outcome, the model’s sets where it has them', () => {
  const n = 1500;
  let compared = 0;
  let failures = 0;
  for (let seed = 1; seed <= n; seed++) {
    const c = randomCase(seed);
    const other = randomCase(seed + 100000);
    const expected = oneGo(c);
    const [mine, theirs] = interleaved(c, other);
    assert.deepEqual(mine, expected, `seed ${seed}: interleaved ≠ one go`);
    assert.deepEqual(theirs, oneGo(other), `seed ${seed + 100000}: interleaved ≠ one go`);
    const want = model(c.entry, c.kind, c.goTemplate, c.maxParams);
    const got = (expected as { result: { ps?: ParamSet[]; error?: string } }).result;
    if (want === undefined) {
      assert.ok(got.error, `seed ${seed}: the model fails, the generator gave ${JSON.stringify(got.ps)}`);
      failures++;
    } else {
      assert.deepEqual(got.ps, want, `seed ${seed}: ≠ model`);
      compared++;
    }
  }
  // The random inputs reach both sides: sets to compare and failures.
  assert.ok(compared > n / 2 && failures > 20, `${compared} compared, ${failures} failures`);
});
