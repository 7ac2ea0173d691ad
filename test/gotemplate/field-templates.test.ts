/**
 * A template of text and `{{ .key }}` actions over string values is executed without the tree walk
 * (exec.ts `executeFields`). Its answers must be the walk's: the same output, the same error (a missing
 * key under each missingkey option, nil, numbers, nested maps), the same work charged to the
 * ApplicationSet's total budget, and the same limit error at the same place. Appending `{{ "" }}` to a
 * template prints nothing and makes it one the walk executes: the two are compared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GoStringMap, renderFields, renderString, totalBudget, totalSpent, type RenderOptions } from '@appset-tools/gotemplate';
import { seededRandom } from '../helpers/random';

const WALKED = '{{ "" }}';

function run(template: string, params: Record<string, unknown>, opts: RenderOptions): { out?: string; error?: string; spent: number } {
  return totalBudget().run(() => {
    try {
      const out = renderString(template, params, opts);
      return { out, spent: totalSpent() };
    } catch (e) {
      // The message names the template: the walked copy's suffix is taken out.
      return { error: (e as Error).message.split(WALKED).join(''), spent: totalSpent() };
    }
  });
}

test('text and {{ .key }} templates: the same output, errors and work as the walk, over random templates and parameters', () => {
  const rand = seededRandom(3939);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const keys = ['service', 'env', 'team', 'a', 'b'];
  const values: unknown[] = ['web', '', 'a-b', 'ünïcode', 'x'.repeat(40), 7, 2.5, true, null, { nested: 'v' }, ['l'], 'tab\there'];
  const texts = ['', '-', 'apps/', '/overlays/', ' ', 'x\ny'];
  let fast = 0;
  for (let i = 0; i < 4000; i++) {
    let template = '';
    for (let j = 0, n = 1 + Math.floor(rand() * 4); j < n; j++)
      template += rand() < 0.6 ? `{{${pick(['', ' ', '- '])}.${pick(keys)}${pick(['', ' ', ' -'])}}}` : pick(texts);
    const params: Record<string, unknown> = {};
    for (const k of keys) if (rand() < 0.75) params[k] = rand() < 0.7 ? pick(values.slice(0, 5)) : pick(values);
    const opts: RenderOptions = {
      goTemplate: true,
      options: rand() < 0.5 ? ['missingkey=error'] : pick([[], ['missingkey=zero'], ['missingkey=default']]),
    };
    const a = run(template, params, opts);
    const b = run(template + WALKED, params, opts);
    assert.deepEqual(a, b, `${JSON.stringify(template)} over ${JSON.stringify(params)} with ${JSON.stringify(opts.options)}`);
    if (a.out !== undefined && Object.values(params).every((v) => typeof v === 'string')) fast++;
  }
  assert.ok(fast > 1000, `templates over string values: ${fast}`);
});

test('text and {{ .key }} templates: past the work budget, the same limit error at the same action', () => {
  // 4.2 million characters: over the 250,000 units (16 characters each) one execution may spend, under the output limit.
  const big = 'x'.repeat(4_200_000);
  const opts: RenderOptions = { goTemplate: true, options: ['missingkey=error'] };
  for (const template of ['{{ .big }}', 'a-{{ .small }}-{{ .big }}-b', 'pre\n{{ .small }}\n{{ .big }}']) {
    const a = run(template, { big, small: 's' }, opts);
    const b = run(template + WALKED, { big, small: 's' }, opts);
    assert.ok(a.error?.includes('units of work'), a.error);
    assert.deepEqual(a, b, template);
  }
});

/** renderFields (from the plain parameters, without their Go values): undefined, or renderString's answer. */
function runFields(
  template: string,
  params: Record<string, unknown>,
  opts: RenderOptions,
): { out?: string; error?: string; spent: number } | undefined {
  return totalBudget().run(() => {
    try {
      const out = renderFields(template, params, opts);
      return out === undefined ? undefined : { out, spent: totalSpent() };
    } catch (e) {
      return { error: (e as Error).message, spent: totalSpent() };
    }
  });
}

test('renderFields: renderString’s output, error and work, or no answer, over random templates, parameters and options', () => {
  const rand = seededRandom(5039);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  // Keys a plain object holds on its prototype too: the Go map of the parameters has only their own.
  const keys = ['service', 'env', 'team', 'constructor', 'toString', '__proto__', 'hasOwnProperty', 'tpl'];
  const values: unknown[] = [
    'web',
    '',
    'a-b',
    'ünïcode',
    'lone \ud800 surrogate',
    'raw \udc80 byte',
    7,
    2.5,
    true,
    null,
    { nested: 'v' },
    ['l'],
  ];
  const texts = ['', '-', 'apps/', ' ', 'x\ny', '{{ "q" }}', '{{ .service | upper }}', '{{ if .env }}y{{ end }}', '{{', '{{ tpl "x" . }}'];
  let answered = 0;
  for (let i = 0; i < 6000; i++) {
    let template = '';
    for (let j = 0, n = 1 + Math.floor(rand() * 4); j < n; j++)
      template += rand() < 0.7 ? `{{${pick(['', ' ', '- '])}.${pick(keys)}${pick(['', ' ', ' -'])}}}` : pick(texts);
    const params: Record<string, unknown> = {};
    for (const k of keys)
      if (rand() < 0.7)
        Object.defineProperty(params, k, {
          value: rand() < 0.7 ? pick(values.slice(0, 6)) : pick(values),
          enumerable: rand() < 0.95,
          writable: true,
          configurable: true,
        });
    const opts: RenderOptions = {
      goTemplate: rand() < 0.9,
      options: pick([['missingkey=error'], [], ['missingkey=zero'], ['missingkey=default'], ['missingkey=nonsense']]),
      ...(rand() < 0.3 ? { missingFunctions: ['tpl'] } : {}),
    };
    const fields = runFields(template, params, opts);
    if (fields === undefined) continue;
    answered++;
    assert.deepEqual(
      fields,
      run(template, params, opts),
      `${JSON.stringify(template)} over ${JSON.stringify(params)} with ${JSON.stringify(opts)}`,
    );
  }
  assert.ok(answered > 1000, `answered: ${answered}`);
  // The plain case answers: text and string fields.
  assert.deepEqual(
    runFields('{{ .service }}-{{ .env }}', { service: 'web', env: 'prod' }, { goTemplate: true, options: ['missingkey=error'] }),
    {
      out: 'web-prod',
      spent: run('{{ .service }}-{{ .env }}', { service: 'web', env: 'prod' }, { goTemplate: true, options: ['missingkey=error'] }).spent,
    },
  );
});

test('renderFields past the work budget: renderString’s limit error at the same action', () => {
  const big = 'x'.repeat(4_200_000);
  const opts: RenderOptions = { goTemplate: true, options: ['missingkey=error'] };
  for (const template of ['{{ .big }}', 'a-{{ .small }}-{{ .big }}-b', 'pre\n{{ .small }}\n{{ .big }}']) {
    const a = runFields(template, { big, small: 's' }, opts);
    assert.ok(a?.error?.includes('units of work'), a?.error);
    assert.deepEqual(a, run(template, { big, small: 's' }, opts), template);
  }
});

test('fields down maps ({{ .values.service }}): renderString’s output, error and work from plain parameters and from Go values', () => {
  const rand = seededRandom(7151);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const keys = ['values', 'service', 'x', 'constructor', '__proto__', 'toString'];
  const key = () => (rand() < 0.85 ? pick(keys.slice(0, 3)) : pick(keys));
  const leaves: unknown[] = ['web', '', 'ünïcode', 'lone \ud800 surrogate', 7, true, null, ['l']];
  // A value a field may pass through: a plain object (fromJSON makes a map of its own enumerable
  // properties, a null-prototype one too), a map[string]string, a Map that is no Go value, a date.
  const nested = (depth: number): unknown => {
    const r = rand();
    if (depth > 2 || (depth > 0 && r < 0.3)) return pick(leaves);
    const top = depth === 0;
    const entries = keys
      .filter((k, i) => rand() < (i < 3 ? 0.85 : 0.3))
      .map((k) => [k, rand() < 0.4 ? pick(leaves.slice(0, 4)) : nested(depth + 1)] as const);
    if (!top && r < 0.5) return new GoStringMap(entries.map(([k, v]) => [k, typeof v === 'string' ? v : 'mapped']));
    if (!top && r < 0.55) return new Map(entries);
    if (!top && r < 0.58) return new Date(0);
    const o: Record<string, unknown> = rand() < 0.2 ? (Object.create(null) as Record<string, unknown>) : {};
    for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: rand() < 0.9, writable: true, configurable: true });
    return o;
  };
  const texts = ['', '-', 'apps/', '{{ "q" }}', '{{ .values | print }}'];
  let answered = 0;
  let chains = 0;
  for (let i = 0; i < 6000; i++) {
    let template = '';
    let chain = false;
    for (let j = 0, n = 1 + Math.floor(rand() * 2); j < n; j++) {
      if (rand() < 0.2) {
        template += pick(texts);
        continue;
      }
      const path = Array.from({ length: 1 + Math.floor(rand() * 3) }, key);
      chain ||= path.length > 1;
      template += `{{${pick(['', ' ', '- '])}.${path.join('.')}${pick(['', ' ', ' -'])}}}`;
    }
    const plain = nested(0) as Record<string, unknown>;
    const opts: RenderOptions = {
      goTemplate: true,
      options: pick([['missingkey=error'], [], ['missingkey=zero'], ['missingkey=default']]),
    };
    const walked = run(template + WALKED, plain, opts);
    // From Go values (execute's own shortcut) and from the plain parameters (renderFields).
    assert.deepEqual(run(template, plain, opts), walked, `${JSON.stringify(template)} with ${JSON.stringify(opts.options)}`);
    const fields = runFields(template, plain, opts);
    if (fields === undefined) continue;
    answered++;
    if (chain && fields.out !== undefined) chains++;
    assert.deepEqual(fields, walked, `${JSON.stringify(template)} with ${JSON.stringify(opts.options)}`);
  }
  assert.ok(answered > 600 && chains > 120, `answered: ${answered}, through maps: ${chains}`);
  // The cluster generator's parameters: `values` is a map[string]string.
  const cluster = {
    name: 'prod-1',
    values: new GoStringMap([['service', 'web']]),
    metadata: { labels: new GoStringMap([['env', 'prod']]) },
  };
  const opts: RenderOptions = { goTemplate: true, options: ['missingkey=error'] };
  const template = '{{ .values.service }}-{{ .name }}-{{ .metadata.labels.env }}';
  assert.deepEqual(runFields(template, cluster, opts), { out: 'web-prod-1-prod', spent: run(template, cluster, opts).spent });
});
