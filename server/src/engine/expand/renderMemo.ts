/**
 * Renders re-used between two expansions of the same ApplicationSet (a keystroke in one list element
 * re-renders one Application, not all of them).
 *
 * An Application's render depends only on the template (the generator's merged with `spec.template`),
 * `templatePatch`, whether the default finalizer is added, the ApplicationSet's namespace, the template
 * options of the target release, and its parameter set: that is the key. A render is kept only when it
 * succeeded and used no function whose result changes between calls (`now`, `randAlpha`, …); a re-used
 * render charges the expansion's total work budget what it cost the first time (gotemplate/budget.ts),
 * so that the budget runs out where a fresh expansion's would.
 */
import { chargeTotal, totalSpent, type RenderOptions } from '@appset-tools/gotemplate';
import type { JsonPath } from '../yaml';
import { isObj } from '../objects';
import { canonicalKey, memoKey } from './memoKeys';

/** One kept render: the Application (or one field of its metadata or spec) and what its render cost the work budget (a difference of `totalSpent`). */
export interface KeptRender {
  value: unknown;
  units: number;
  /** The last expansion that kept it (expand.ts `Run.id`): what it did not keep is dropped when a memo map grows (`pruneMemo`). */
  seen: number;
  /**
   * For a whole Application (or its whole `metadata` or `spec`): the kept renders of its parts, as
   * field key, render, field key, render, … (one array, no pair each). A re-used Application carries
   * them into the next expansion's memo, so that an edit of one template field after an edit elsewhere
   * (a list element) still re-uses the other fields.
   */
  fields?: (string | KeptRender)[];
  /** For a whole Application: its name, labels and displayed parameter set, made once (expand.ts pushApp). */
  shown?: Shown;
}

/** What a generated Application shows besides the Application itself (never modified once made). */
export interface Shown {
  name: string;
  labels: Record<string, string>;
  params: Record<string, unknown>;
}

/**
 * The renders of one expansion: by template key, then by parameter-set key. Besides whole
 * Applications, each field of a template's `metadata` and `spec` (`source`, `destination`, …) is kept
 * by its own key (its template, the template options): after an edit in one field of the template,
 * the others are re-used.
 */
export type RenderMemo = Map<string, Map<string, KeptRender>>;

/**
 * An expansion keeps its renders in the maps of the previous one (by the same keys), adding what it
 * rendered: a keystroke re-used hundreds of renders and copied each into new maps. Every entry is
 * right for its key whichever expansion made it, so the maps may hold renders the last expansion did
 * not use; a map that grew past twice the parameter sets (and 64) loses those.
 */
export function pruneMemo(memo: RenderMemo, paramSets: number, id: number): void {
  const cap = 2 * paramSets + 64;
  for (const map of memo.values()) if (map.size > cap) for (const [k, r] of map) if (r.seen !== id) map.delete(k);
}

/** What the memo of one expansion reads (expand.ts `Run`). */
export interface MemoRun {
  doc: { namespace: string | undefined };
  spec: Record<string, unknown>;
  target: { line: string };
  renderOpts: RenderOptions;
  renders: RenderMemo;
  previous: RenderMemo | undefined;
  id: number;
}

/**
 * A template whose text names none of these may not modify the parameters it renders with: sprig's
 * `set`, `unset` and `merge` family (`mergeOverwrite`, `mustMerge…`) change the map they are given, and
 * `tpl` runs a template read at run time. Every other function returns new values.
 */
export const MAY_MODIFY = /set|erge|tpl/;

/** The kept renders of one generator's template: of the whole Application, and of each field (renderMemo.ts). */
export interface TemplateMemo {
  before: Map<string, KeptRender> | undefined;
  kept: Map<string, KeptRender> | undefined;
  fieldMemo: FieldRenders['at'];
  stringMemo: FieldRenders['str'];
  carry: Carry;
  /**
   * The template may modify the parameters it renders with (MAY_MODIFY, anywhere in it or its patch):
   * then a field's render depends on the fields rendered before it, and only whole Applications are kept.
   */
  modifies: boolean;
}

/** Keeps a re-used part's render (field key, render) in this run's memo for the parameter set `pkey`. */
export type Carry = (pkey: string, fkey: string, field: KeptRender) => void;

export function templateMemo(run: MemoRun, template: Record<string, unknown>): TemplateMemo {
  const { doc, spec, target, renderOpts, renders, previous } = run;
  // What every render of this generator depends on besides its parameter set (renderMemo.ts).
  const sp = isObj(spec.syncPolicy) ? spec.syncPolicy : undefined;
  const tkey = canonicalKey(
    memoKey([template, spec.templatePatch ?? null, sp?.preserveResourcesOnDeletion === true, doc.namespace, target.line, renderOpts]),
  );
  const whole = tkey === undefined ? undefined : keptAt(renders, previous, tkey);
  const before = whole?.before;
  const kept = whole?.keep;
  // The same for each field of the template's metadata and spec (see renderApp).
  const byField = new Map<string, Map<string, { x: unknown; found: ReturnType<FieldRenders['at']> }>>();
  const fieldMemo = (top: string, k: string, x: unknown) => {
    let inTop = byField.get(top);
    if (!inTop) byField.set(top, (inTop = new Map()));
    const seen = inTop.get(k);
    if (seen && seen.x === x) return seen.found;
    const fkey = canonicalKey(memoKey([top, k, x, target.line, renderOpts]));
    const found = fkey === undefined ? undefined : keptAt(renders, previous, fkey);
    inTop.set(k, { x, found });
    return found;
  };
  // The same for each template string (an action's text), wherever it sits: after an edit in one
  // field, that field is walked again, but its other strings (and the name) re-use their renders.
  const byString = new Map<string, ReturnType<FieldRenders['str']>>();
  const stringMemo = (s: string) => {
    if (byString.has(s)) return byString.get(s);
    const skey = canonicalKey(memoKey([s, target.line, renderOpts]));
    const found = skey === undefined ? undefined : keptAt(renders, previous, skey);
    byString.set(s, found);
    return found;
  };
  const carry: Carry = (pkey, fkey, field) => {
    field.seen = run.id;
    runMap(renders, previous, fkey).set(pkey, field);
  };
  // Read from the template's and the patch's own text, not from the whole key: the key also names the
  // functions the target release lacks (`tpl` before Argo CD 3.6), which made every template of an
  // older release look as if it modified its parameters, so that none kept its field or string renders.
  // The first expansion of an ApplicationSet (nothing kept before: a document just opened) keeps whole
  // Applications only: keeping every field and string render of 540 Applications cost its first answer
  // about 25 ms of CPU in a fresh process, for a template keystroke that may never come. The first
  // expansion that renders after it (a template keystroke, an edited element) keeps them. (Then the
  // template is not written out to be tested either: once per generator of every ApplicationSet of a file.)
  const modifies = !previous || tkey === undefined || MAY_MODIFY.test(JSON.stringify([template, spec.templatePatch ?? null]));
  return { before, kept, fieldMemo, stringMemo, carry, modifies };
}

/** Where the renders of one field (or template string) are found (`before`) and kept, by parameter-set key. */
export interface Kept {
  key: string;
  before?: Map<string, KeptRender>;
  keep: Map<string, KeptRender>;
}

/** Kept renders of the template's fields for one parameter set (its key), found by field (see renderMemo.ts). */
export interface FieldRenders {
  key: string;
  at: (top: string, k: string, x: unknown) => Kept | undefined;
  /** The same for one template string that holds an action. */
  str: (s: string) => Kept | undefined;
  /** Keeps a re-used part's render in this run's memo (see TemplateMemo). */
  carry: Carry;
  /** The field renders kept for this parameter set: field key, render, … (carried with the whole Application; KeptRender.fields). */
  kept: (string | KeptRender)[];
  /** The run (`Run.id`). */
  id: number;
}

/**
 * This run's map of renders under `key`: the previous expansion's map, which it goes on filling (see
 * pruneMemo), or a new one.
 */
function runMap(renders: RenderMemo, previous: RenderMemo | undefined, key: string): Map<string, KeptRender> {
  let map = renders.get(key);
  if (!map) renders.set(key, (map = previous?.get(key) ?? new Map<string, KeptRender>()));
  return map;
}

/** Where the renders under `key` are found (the previous expansion's) and kept (this run's). */
function keptAt(renders: RenderMemo, previous: RenderMemo | undefined, key: string): Kept {
  return { key, before: previous?.get(key), keep: runMap(renders, previous, key) };
}

/**
 * The render kept from the previous version for this parameter set (`memo.before`), re-used: its cost
 * charged to the work budget and kept in this run's memo; undefined when there is none or the budget is
 * spent (then the caller renders). keptString, fieldValue and walkFields (which carries a whole's parts too).
 */
export function reused(memo: Kept, fields: FieldRenders): KeptRender | undefined {
  const again = memo.before?.get(fields.key);
  if (!again || !chargeTotal(again.units)) return undefined;
  again.seen = fields.id;
  keep(memo, fields, again);
  return again;
}

/**
 * The field renders kept with a re-used render (`KeptRender.fields`: key, render, …) carried into this
 * run's memo for parameter set `pkey`, and listed in `into` too (the enclosing render's list) when given:
 * a whole Application re-used (reuseParamSet) or a whole `metadata`/`spec` (walkFields).
 */
export function carryParts(again: KeptRender, carry: Carry, pkey: string, into?: (string | KeptRender)[]): void {
  const parts = again.fields;
  if (!parts) return;
  for (let i = 0; i < parts.length; i += 2) {
    carry(pkey, parts[i] as string, parts[i + 1] as KeptRender);
    into?.push(parts[i], parts[i + 1]);
  }
}

/** Keeps a render for this parameter set in this run's memo and in the parameter set's list (FieldRenders.kept). */
export function keep(memo: Kept, fields: FieldRenders, kept: KeptRender): void {
  memo.keep.set(fields.key, kept);
  fields.kept.push(memo.key, kept);
}

/**
 * One template string's render for this parameter set, re-used from the previous version when the
 * string, the template options and the parameter set are the same (renderMemo.ts): kept only when it
 * rendered without error and without a function whose result changes, and a re-used one charges the
 * work budget what it cost. After a template keystroke only the edited field is walked again, and of
 * its strings only the edited one is rendered (the Go values of the parameter set are not even made).
 */
export function keptString(
  fields: FieldRenders,
  s: string,
  path: JsonPath,
  render: (s: string, path: JsonPath) => string,
  report: { nonDeterministic: Set<string> },
): string {
  const memo = fields.str(s);
  if (!memo) return render(s, path);
  const again = reused(memo, fields);
  if (again) return again.value as string;
  const spent = totalSpent();
  const outer = report.nonDeterministic;
  // One set for every string's render (a render never renders another string), emptied before each.
  const used = (report.nonDeterministic = stringUsed);
  used.clear();
  let out: string;
  try {
    out = render(s, path);
  } finally {
    report.nonDeterministic = outer;
    for (const f of used) outer.add(f);
  }
  if (!used.size) keep(memo, fields, { value: out, units: totalSpent() - spent, seen: fields.id });
  return out;
}

/** The functions with changing results that one template string's render used (see keptString). */
const stringUsed = new Set<string>();
