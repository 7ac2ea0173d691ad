/**
 * The work budget of one template execution, counted in the size of what is built or walked.
 *
 * Why: step and output limits count template actions, but one action can do unbounded work. Thirty
 * doublings of a shared `dict` are thirty steps and a few kilobytes of memory, yet `toJson`, `toYaml`,
 * `print` or `deepCopy` of it would expand 2^30 nodes (the sharing is invisible to them, as it is to
 * Go's encoders); an `append` loop copies its list on every iteration. So the functions that build
 * or walk values charge this budget per node and per byte they produce, shared structures counted
 * as expanded, and stop with a clear error when it runs out. Go has no such limit (Argo CD would use
 * the memory or time it takes); the message therefore says the limit is ours and how to lift it.
 */
import { ReasonedError } from './reason';

/**
 * Units one execution may spend: a node visited or built is one unit, sixteen bytes of string are one
 * unit (copying bytes is cheap, visiting nodes is not). 250,000 units take well under a second and
 * allow e.g. toYaml of a structure of 250,000 values or 4 MB of text.
 */
export const DEFAULT_WORK_LIMIT = 250_000;
/** Units all executions of one ApplicationSet's expansion may spend together (see withTotalBudget). */
export const DEFAULT_TOTAL_LIMIT = 1_000_000;

export class WorkLimitError extends ReasonedError {
  constructor(message: string) {
    super(message, { kind: 'limit' });
  }
}

/**
 * The budget is counted in sixteenths of a unit (a byte of string is one), so that every count is a whole
 * number: V8 keeps a small integer in a variable or a field as it is, but a fractional number as a heap
 * object, a new one for every sum and for every read of the field in code it has not optimised yet (the
 * whole first answer of a document), and `charge` runs for every piece a template writes.
 */
const SIXTEENTHS = 16;
/** The running execution's limit and the running total budget's, in sixteenths. */
let limit16 = DEFAULT_WORK_LIMIT * SIXTEENTHS;
let totalLimit16 = Infinity;
let bounded = true;
/**
 * Sixteenths spent by the running execution (`used`) and by the running total budget (`totalUsed`).
 * Fields of one object, not module variables, which V8 keeps as a cell of their own.
 */
const count = { used: 0, totalUsed: 0 };

/** Part of every limit error's text; `templateErrorCode` recognises it. */
export const LIMIT_TEXT = "ApplicationSet Tools' limit";

/** Counts `nodes` visited or built and `bytes` of strings produced; throws WorkLimitError when over. */
export function charge(nodes: number, bytes = 0): void {
  chargeSixteenths(nodes * SIXTEENTHS + bytes);
}

/** `charge` in sixteenths of a unit (the same sums and comparisons, each side times 16: exact in whole numbers). */
function chargeSixteenths(s: number): void {
  charged.units += s;
  count.used += s;
  count.totalUsed += s;
  if (count.used > limit16) {
    count.used = limit16; // one error, not a cascade of them while the stack unwinds
    throw new WorkLimitError(
      `the values this template builds or prints exceed ${(limit16 / SIXTEENTHS).toLocaleString('en-US')} units of work (${LIMIT_TEXT}; Argo CD has none, and appset --no-limits lifts it)`,
    );
  }
  if (count.totalUsed > totalLimit16) {
    count.totalUsed = totalLimit16;
    throw new WorkLimitError(
      `the templates of this ApplicationSet together exceed ${(totalLimit16 / SIXTEENTHS).toLocaleString('en-US')} units of work (${LIMIT_TEXT}; Argo CD has none, and appset --no-limits lifts it)`,
    );
  }
}

/**
 * The largest value one function may build (ApplicationSet Tools' limit; Argo CD has none). Why these
 * sizes: a value larger than this is twice the largest text a value can come from — a YAML file and a
 * file a git generator reads are at most 2 MB —, and more than can end up in an Application, which etcd
 * stores whole in at most 1.5 MiB; yet V8 aborts the whole process ("invalid size error") on a string of 512 Mi characters
 * or an array past its length limit, so a template that doubles a string forty times must stop long
 * before that. Real templates build values of a few kilobytes (docs/limits.md has the measurements).
 * Lifted limits (`setTemplateLimits(false)`) keep a ceiling still far below V8's, so that even then
 * no template can crash the process.
 */
export const DEFAULT_MAX_STRING = 4 * 1024 * 1024;
export const DEFAULT_MAX_ITEMS = 1024 * 1024;
const UNBOUNDED_MAX_STRING = 128 * 1024 * 1024;
const UNBOUNDED_MAX_ITEMS = 16 * 1024 * 1024;
export const valueLimits = { string: DEFAULT_MAX_STRING, items: DEFAULT_MAX_ITEMS };

/** What a built value is, for the value limit's message. */
export type BuiltKind = 'string' | 'list' | 'map';

/** The limit a value of `kind` may not exceed (characters of a string, elements of a list, entries of a map). */
function valueLimit(kind: BuiltKind): number {
  return kind === 'string' ? valueLimits.string : valueLimits.items;
}

const UNIT: Record<BuiltKind, string> = { string: 'characters', list: 'elements', map: 'entries' };

/**
 * The error for a value over the value limit: which limit, and how big the value would have been
 * (`atLeast` when it was stopped while being built, its whole size unknown).
 */
export function valueLimitError(kind: BuiltKind, size: number, atLeast = false): WorkLimitError {
  const limit = valueLimit(kind);
  const raised = limit === (kind === 'string' ? UNBOUNDED_MAX_STRING : UNBOUNDED_MAX_ITEMS);
  const n = Number.isFinite(size) && size < 1e21 ? Math.ceil(size).toLocaleString('en-US') : 'more than 10^21';
  return new WorkLimitError(
    `this would build a ${kind} of ${atLeast ? 'at least ' : ''}${n} ${UNIT[kind]}; one value may hold at most ${limit.toLocaleString('en-US')} (${LIMIT_TEXT}${
      raised ? ', kept under --no-limits so that the process cannot crash' : '; Argo CD has none, and appset --no-limits raises it'
    })`,
  );
}

/*
 * What a built value costs: a character, an element or an entry is 1/16 of a unit, as a byte printed (one
 * sixteenth: `size` itself, see SIXTEENTHS). An element costs no more than a character because `range
 * until N` builds its list only to walk it, and each iteration is a step already; its memory is bounded
 * all the same (1,000,000 units are at most 16 Mi elements made by one ApplicationSet's templates, each
 * list at most DEFAULT_MAX_ITEMS).
 */

/**
 * Charges a value of `size` (characters of a string, elements of a list, entries of a map) that a
 * function is about to build: throws before anything is allocated when it is over the value limit or
 * the work budget. Call it before building wherever the size is known or can be bounded from the
 * arguments (`repeat`, `replace`, `randAlphaNum`, …); the executor charges every other result after
 * the call for what its builder did not charge itself (`chargeResult`).
 */
export function chargeBuild(kind: BuiltKind, size: number): void {
  if (!(size <= valueLimit(kind))) throw valueLimitError(kind, size);
  chargeSixteenths(size);
}

/** Sixteenths of a unit charged so far (all executions, never reset): the executor reads it around a call. */
export const charged = { units: 0 };

/** The size of a value as the value limit counts it, or undefined for a value that is not built (scalars, times, …). */
export function sizeOf(v: unknown): { kind: BuiltKind; size: number } | undefined {
  if (typeof v === 'string') return { kind: 'string', size: v.length };
  if (Array.isArray(v)) return { kind: 'list', size: v.length };
  if (v instanceof Map) return { kind: 'map', size: v.size };
  return undefined;
}

/**
 * Charges a function's result for its size, less what the function charged while building it
 * (`unitsBefore` is `charged.units` at the call), and checks it against the value limit. A result that
 * is one of the arguments (`set`, `default`, `merge`) was not built by the call and costs nothing.
 */
export function chargeResult(result: unknown, args: readonly unknown[], unitsBefore: number): void {
  const s = sizeOf(result);
  if (!s || s.size === 0) return;
  if (!(s.size <= valueLimit(s.kind))) throw valueLimitError(s.kind, s.size);
  if (args.includes(result)) return;
  const rest = s.size - (charged.units - unitsBefore);
  if (rest > 0) chargeSixteenths(rest);
}

/**
 * What the running total budget has spent so far (see `totalBudget`), in sixteenths of a unit: what one
 * render cost is the difference, which `chargeTotal` takes back.
 */
export function totalSpent(): number {
  return count.totalUsed;
}

/**
 * Charges the running total budget what an identical earlier render cost (`units`: a difference of
 * `totalSpent`), for a render that
 * is re-used instead of run again (engine/expand/renderMemo.ts); false, with nothing charged, when
 * they do not fit (then the render runs, and fails where it would have).
 */
export function chargeTotal(units: number): boolean {
  if (count.totalUsed + units > totalLimit16) return false;
  count.totalUsed += units;
  return true;
}

/**
 * Runs `fn` (one ApplicationSet's expansion: every template of every Application, templatePatch
 * included) under a shared budget, so many cheap renders cannot add up to a frozen server.
 */
export function withTotalBudget<T>(fn: () => T): T {
  return totalBudget().run(fn);
}

/** One shared budget that several separate runs draw on (an expansion computed in slices, with other work in between). */
export interface TotalBudget {
  run<T>(fn: () => T): T;
}

export function totalBudget(): TotalBudget {
  const mine = bounded ? DEFAULT_TOTAL_LIMIT * SIXTEENTHS : Infinity;
  let spent = 0;
  return {
    run(fn) {
      const savedLimit = totalLimit16;
      const savedUsed = count.totalUsed;
      totalLimit16 = mine;
      count.totalUsed = spent;
      try {
        return fn();
      } finally {
        spent = count.totalUsed;
        totalLimit16 = savedLimit;
        count.totalUsed = savedUsed;
      }
    },
  };
}

/** Runs `fn` with a fresh budget (an execution inside another gets its own and gives it back). */
export function withWorkBudget<T>(fn: () => T): T {
  const saved = freshWork();
  try {
    return fn();
  } finally {
    restoreWork(saved);
  }
}

/** `withWorkBudget` in two halves, for a caller without a function to run: a fresh budget, and what to give back to `restoreWork`. */
export function freshWork(): number {
  const saved = count.used;
  count.used = 0;
  return saved;
}

export function restoreWork(saved: number): void {
  count.used = saved;
}

/**
 * How deep `fromJson` nests the values it reads. Go's encoding/json reads up to 10,000 levels on a
 * goroutine stack that grows to a gigabyte; a JavaScript stack holds far fewer levels of the walks
 * that follow (toJson, toYaml, print, deepCopy), so deeper JSON stops here with a clear error.
 */
export const MAX_JSON_DEPTH = 1000;

/** The error for values nested deeper than the JavaScript stack lets a walk go (Go's stacks grow to a gigabyte). */
export const TOO_DEEP_MESSAGE = `values nested too deeply to evaluate (${LIMIT_TEXT}: the JavaScript stack; Argo CD has none)`;

/** Steps (loop iterations, template and function calls) and output characters per execution. */
export const DEFAULT_STEP_LIMIT = 1_000_000;
export const DEFAULT_OUTPUT_LIMIT = 8 * 1024 * 1024;
export const execLimits = { steps: DEFAULT_STEP_LIMIT, output: DEFAULT_OUTPUT_LIMIT };

/**
 * Lifts every per-execution limit (work, steps, output) or restores the defaults: the CLI's
 * `--no-limits`, for a render that must match the controller whatever it costs. The value limit is
 * raised, not lifted: past V8's own limits the process would abort.
 */
export function setTemplateLimits(on: boolean): void {
  bounded = on;
  limit16 = bounded ? DEFAULT_WORK_LIMIT * SIXTEENTHS : Infinity;
  execLimits.steps = bounded ? DEFAULT_STEP_LIMIT : Infinity;
  execLimits.output = bounded ? DEFAULT_OUTPUT_LIMIT : Infinity;
  valueLimits.string = bounded ? DEFAULT_MAX_STRING : UNBOUNDED_MAX_STRING;
  valueLimits.items = bounded ? DEFAULT_MAX_ITEMS : UNBOUNDED_MAX_ITEMS;
}
