/**
 * The growth cases of value-bound.test.ts, made from the function table: for every function and every
 * parameter that can take a grown value, a loop that feeds the function's result back into that
 * parameter forty times, with the other arguments drawn from large and small values of their types
 * (a count of 100,000,000, a format with a width of a million, a list of the grown value, …).
 * Run as a child process (`node --import tsx valueGrowth.ts NAMES…`): it wraps every function of the
 * table to record the largest string, list or map any call returns, renders each case and prints one
 * JSON line per case, so that the parent sees which case was running if the child dies.
 */
import { builtinsMap, templateFuncs } from '../../server/src/gotemplate/funcmap';
import { renderString, TemplateError, limitExpensiveFunctions } from '@appset-tools/gotemplate';
import { sizeOf } from '../../server/src/gotemplate/budget';
import type { GoFunc, GoParamType } from '../../server/src/gotemplate/funcs';
import type { Builtin, ValueFunc } from '../../server/src/gotemplate/builtins';
import { seededRandom } from '../helpers/random';

/** Functions the executor evaluates itself (they build nothing): and, or, call. */
export function isSpecial(f: Builtin): boolean {
  return 'kind' in f && f.kind === 'special';
}

/** Every function name a template can call: Argo CD's map, then Go's builtins it does not shadow. */
export function allFunctions(): string[] {
  const names = new Set<string>(templateFuncs().keys());
  for (const [k, f] of builtinsMap()) if (!isSpecial(f)) names.add(k);
  return [...names].sort();
}

function signature(name: string): { params: (GoParamType | 'value')[]; variadic?: GoParamType | 'value' } {
  const f = (templateFuncs().get(name) ?? builtinsMap().get(name)) as Builtin;
  if ('kind' in f && f.kind === 'value') {
    const v = f as ValueFunc;
    return { params: new Array<'value'>(v.params).fill('value'), variadic: v.variadic ? 'value' : undefined };
  }
  const g = f as GoFunc;
  return { params: g.params, variadic: g.variadic };
}

/** Arguments of each type that are not the grown one: large ones first (they amplify), then small ones. */
const OTHERS: Record<string, string[]> = {
  string: ['"x"', '"xx"', '"{{ . }}{{ . }}"', '""', '"%1000000d"', '"\\n"', '$s', '"."'],
  int: ['100000000', '2', '0', '-1'],
  int64: ['(int64 100000000)', '(int64 2)'],
  float64: ['1e8', '2.5'],
  bool: ['true', 'false'],
  list: ['$l', '(list)'],
  strings: ['$l'],
  map: ['$m', '(dict)'],
  time: ['(now)'],
  any: ['$l', '$s', '100000000', '$m', '"x"', 'nil'],
  value: ['$l', '$s', '100000000', '$m', '"x"', '2'],
};
const others = (t: string): string[] => OTHERS[t] ?? ['$s'];

/** Types a grown value can be passed as, with the value the loop starts from. */
const SEEDS: Record<string, string[]> = {
  string: ['"ab<\\n %x"'],
  list: ['(list "ab" "c<d")'],
  strings: ['(list "ab" "c<d")'],
  map: ['(dict "a" "b<")'],
  any: ['"ab<\\n %x"', '(list "ab" "c<d")'],
  value: ['"ab<\\n %x"', '(list "ab" "c<d")'],
};

export interface GrowthCase {
  fn: string;
  template: string;
}

/** The growth cases of function `name` (seeded: the same cases on every run). */
export function growthCases(name: string, perPosition = 3): GrowthCase[] {
  const { params, variadic } = signature(name);
  const random = seededRandom([...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
  const out: GrowthCase[] = [];
  const shapes: (GoParamType | 'value')[][] = [params];
  if (variadic !== undefined) shapes.push([...params, variadic], [...params, variadic, variadic]);
  for (const shape of shapes) {
    // A function without parameters grows nothing, but is still called in the loop.
    const positions: (number | 'all')[] = shape.map((t, i) => (SEEDS[t] ? i : -1)).filter((i) => i >= 0);
    if (positions.length === 0) positions.push(-1);
    // And the grown value in every position that takes it at once (`cat $v $v` doubles).
    if (positions.length > 1) positions.push('all');
    for (const grown of positions) {
      for (let k = 0; k < perPosition; k++) {
        const args = shape.map((t, i) => {
          if (i === grown || (grown === 'all' && SEEDS[t])) return '$v';
          const c = others(t);
          // The first candidate everywhere, then the i-th (`replace "x" "xx" $v`), then the (i+2)-th
          // (`tpl "{{ . }}{{ . }}" $v`) of each type, then drawn.
          if (k < 3) return c[(k === 0 ? 0 : k === 1 ? i : i + 2) % c.length];
          return c[Math.floor(random() * c.length)];
        });
        const seeds = grown === 'all' ? SEEDS.any : grown >= 0 ? SEEDS[shape[grown]] : ['""'];
        for (const seed of seeds) {
          const call = `${name}${args.length ? ' ' + args.join(' ') : ''}`;
          out.push({
            fn: name,
            template:
              `{{ $s := "ab<\\n %x" }}{{ $l := list $s $s $s }}{{ $m := dict "a" $s "b" $l }}{{ $v := ${seed} }}` +
              `{{ range until 40 }}{{ $v = ${call} }}{{ end }}ok`,
          });
        }
      }
    }
  }
  return out;
}

/** The largest value of each kind any function call returned while this process ran. */
const largest = { string: 0, list: 0, map: 0 };

function record(v: unknown): void {
  const s = sizeOf(v);
  if (s && s.size > largest[s.kind]) largest[s.kind] = s.size;
}

/** Wraps every function of the shared tables (this process only) so that each result is measured. */
function instrument(): void {
  for (const table of [templateFuncs(), builtinsMap()] as Map<string, Builtin>[]) {
    for (const [k, f] of table) {
      if (isSpecial(f)) continue;
      if ('kind' in f && f.kind === 'value') {
        const impl = f.impl;
        table.set(k, { ...f, impl: (args: Parameters<ValueFunc['impl']>[0]) => ((r) => (record(r), r))(impl(args)) });
      } else {
        const g = f as GoFunc;
        table.set(k, { ...g, impl: (...a: unknown[]) => ((r) => (record(r), r))(g.impl(...(a as never[]))) });
      }
    }
  }
}

function main(names: string[]): void {
  limitExpensiveFunctions({ budgetMs: 1000, windowMs: 10 * 60_000 });
  instrument();
  for (const name of names) {
    for (const c of growthCases(name)) {
      process.stdout.write(JSON.stringify({ start: c.fn, template: c.template }) + '\n');
      largest.string = largest.list = largest.map = 0;
      const t0 = Date.now();
      let outcome: string;
      try {
        renderString(c.template, {}, { goTemplate: true });
        outcome = 'rendered';
      } catch (e) {
        outcome = e instanceof TemplateError ? `template error: ${e.reason?.kind ?? e.kind}` : `crash: ${String(e).slice(0, 300)}`;
      }
      const rss = process.memoryUsage().rss;
      process.stdout.write(JSON.stringify({ fn: c.fn, template: c.template, outcome, ms: Date.now() - t0, largest, rss }) + '\n');
    }
  }
}

if (require.main === module) main(process.argv.slice(2));
