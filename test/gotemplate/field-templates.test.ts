/**
 * A template of text and `{{ .key }}` actions over string values is executed without the tree walk
 * (exec.ts `executeFields`). Its answers must be the walk's: the same output, the same error (a missing
 * key under each missingkey option, nil, numbers, nested maps), the same work charged to the
 * ApplicationSet's total budget, and the same limit error at the same place. Appending `{{ "" }}` to a
 * template prints nothing and makes it one the walk executes: the two are compared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderFields, renderString, totalBudget, totalSpent, type RenderOptions } from '@appset-tools/gotemplate';
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
