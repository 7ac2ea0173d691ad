/**
 * Implementation of the public API in index.ts: Argo CD's `Render.Replace` for one string
 * (goTemplate or fasttemplate mode), the RenderTemplateParams walk, static analysis of param
 * references, and option checks. Parsed templates are cached (LRU keyed by the template text:
 * options only affect execution).
 */
import { GoMap, fromJSON, toValidUTF8, type Params, type GoValue, type GoFunc } from './values';
import type { RenderOptions, RenderReport } from './types';
import { TemplateError } from './errors';
import { parseTemplate, GoParseError, GO_MINOR_DEFAULT, type Tree } from './parse';
import { execute, executePlain, GoExecError, type ExecOptions, type MissingKey, type PlainParams } from './exec';
import { withTpl } from './tpl';
import { builtinsMap, hasFunction, templateFuncs } from './funcmap';
import { renderFast, parseFast, goTrimSpace } from './fasttemplate';
import { walkTemplate } from './walk';
import { analyzeRefs, fallbackRefs, type ParamRef } from './refs';
import { TOO_DEEP_MESSAGE } from './budget';
import { isStackOverflow } from './stackOverflow';

/** Functions whose results differ from run to run (a preview using them is not exact). */
export const NON_DETERMINISTIC_FUNCTIONS: ReadonlySet<string> = new Set(
  [...templateFuncs()].filter(([, f]) => f.nonDeterministic).map(([k]) => k),
);

/** Name of the root template Argo CD v3.3+ parses every string into. */
const ROOT_NAME = 'base';

type Parsed = { trees: Map<string, Tree> } | { error: GoParseError };

const CACHE_SIZE = 2000;
/**
 * Each entry keeps the key it was stored with (see `ownCopy`): a hit moves it to the end under that key,
 * unless it was stored or moved within the last CACHE_SIZE / 2 stores and moves (`at`, a tick of `ticks`):
 * such an entry is in the newer half and cannot be the next one dropped. A template keystroke in a
 * 540-element ApplicationSet renders the same few templates 540 times each; moving every hit (a
 * delete and a set of the map) was most of what a cache hit cost.
 */
interface CacheEntry {
  key: string;
  text: string;
  parsed: Parsed;
  at: number;
}
const cache = new Map<string, CacheEntry>();
let ticks = 0;
/** How often a parse was needed (a cache miss); tests read it to see that parses are reused. */
let parses = 0;
export function parseCount(): number {
  return parses;
}

/**
 * Parses with the root template `name` and without the functions in `missing` (an older Argo CD
 * release's function map); the defaults are Argo CD v3.3+'s. Cached by all three.
 */
function parseCached(text: string, name = ROOT_NAME, missing: readonly string[] = [], goMinor = GO_MINOR_DEFAULT): Parsed {
  // The templates parsed last under the same name, function map and Go version, found by their text
  // alone: an expansion renders each of a few strings for every Application in turn, and the cache's
  // key of an older release's function map (`tpl` is missing before Argo CD 3.6) was a string made and
  // hashed per call (2,160 in a first answer on the bench's 540 Applications), and the last call's
  // record an object per call. The text is the template's own string, whose hash V8 keeps.
  let r = recent;
  if (!r || name !== r.name || goMinor !== r.goMinor || !sameOptions(missing, r.missing))
    recent = r = { name, missing: missing.slice(), goMinor, byText: new Map() };
  const seen = r.byText.get(text);
  if (seen) {
    // What parseKeyed does on a hit, so that the cache keeps the same entries as if it had been asked.
    touch(seen);
    return seen.parsed;
  }
  const entry = parseKeyed(text, name, missing, goMinor);
  if (r.byText.size >= RECENT_SIZE) r.byText.clear();
  r.byText.set(entry.text, entry);
  return entry.parsed;
}

/**
 * The entries of the last options parseCached was asked with, by their own copy of the text (never a
 * slice of a document, which it would keep alive); at most RECENT_SIZE, each in `cache` too unless
 * dropped from it since.
 */
let recent: { name: string; missing: readonly string[]; goMinor: number; byText: Map<string, CacheEntry> } | undefined;
const RECENT_SIZE = 64;

/**
 * A hit: moved to the newest end unless it is in the newer half already (see CacheEntry), where it cannot
 * have been dropped; an older one held by `recent` may have been, and is stored again.
 */
function touch(hit: CacheEntry): void {
  if (ticks - hit.at < CACHE_SIZE / 2) return;
  cache.delete(hit.key);
  cache.set(hit.key, hit);
  hit.at = ++ticks;
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/** The cache's entry for the template (found or stored): its parse and its own copy of the text. */
function parseKeyed(text: string, name: string, missing: readonly string[], goMinor: number): CacheEntry {
  const key =
    name === ROOT_NAME && !missing.length && goMinor === GO_MINOR_DEFAULT
      ? text
      : `${name}\u0000${missing.join(',')}\u0000${goMinor}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) {
    touch(hit);
    return hit;
  }
  let p: Parsed;
  parses++;
  // The cache outlives the text a template came from: a template string read from a YAML document is
  // a slice of the whole document's text, and V8 keeps the whole text alive for as long as the slice
  // (or the parse tree's slices of it) is. A key and a tree of their own hold only the template
  // (typing in the template of a 111 KiB document kept every version of the document: 2,000 at most).
  text = ownCopy(text);
  const ownKey = key === text ? text : ownCopy(key);
  try {
    const defined = missing.length ? (f: string) => hasFunction(f) && !missing.includes(f) : hasFunction;
    p = { trees: parseTemplate(text, name, defined, goMinor) };
  } catch (e) {
    if (e instanceof GoParseError) p = { error: e };
    else if (e instanceof RangeError) {
      const detail = 'max expression depth exceeded';
      p = { error: new GoParseError(`template: ${name}:1: ${detail}`, 0, text.length, undefined, { line: 1, detail }) };
    } else throw e;
  }
  const entry = { key: ownKey, text, parsed: p, at: ++ticks };
  cache.set(ownKey, entry);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return entry;
}

/** A copy of `s` that shares no memory with the string it was sliced from (every code unit kept, lone surrogates too). */
export function ownCopy(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

/**
 * Applies goTemplateOptions the way text/template's Option does (last one wins; bad ones panic). The
 * last valid options' answer is kept (compared by content): every string of an expansion asks it again.
 */
function missingKeyOption(template: string, options: readonly string[] | undefined): MissingKey {
  if (options && sameOptions(options, lastOptions)) return lastMissingKey;
  const mk = readMissingKey(template, options);
  if (options) {
    lastOptions = options.slice();
    lastMissingKey = mk;
  }
  return mk;
}

let lastOptions: readonly string[] | undefined;
let lastMissingKey: MissingKey = 'invalid';

function sameOptions(a: readonly string[], b: readonly string[] | undefined): boolean {
  if (!b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function readMissingKey(template: string, options: readonly string[] | undefined): MissingKey {
  let mk: MissingKey = 'invalid';
  for (const opt of options ?? []) {
    const m = /^missingkey=(.*)$/.exec(opt);
    const v = m?.[1];
    if (v === 'default' || v === 'invalid') mk = 'invalid';
    else if (v === 'zero' || v === 'error') mk = v;
    else throw new TemplateError(opt === '' ? 'empty option string' : `unrecognized option: ${opt}`, 'option', template);
  }
  return mk;
}

/** Params as Go's map[string]interface{} (converted per call: callers may mutate their objects). */
function toGoParams(params: Params): GoMap {
  return params instanceof GoMap ? params : (fromJSON(params) as GoMap);
}

function renderGo(template: string, params: GoMap, opts: RenderOptions, report?: RenderReport): string {
  const missingKey = missingKeyOption(template, opts.options);
  const name = opts.templateName ?? ROOT_NAME;
  const parsed = parseCached(template, name, opts.missingFunctions, opts.libraries?.goMinor);
  if ('error' in parsed) {
    const e = parsed.error;
    throw new TemplateError(`failed to parse template ${template}: ${e.message}`, 'parse', template, e.offset, e.length, e.reason, e.place);
  }
  let exec: ExecOptions;
  // `tpl` renders with the calling template (Argo CD 3.6): bound to this execution, only when it can be called.
  if (template.includes('tpl') && !opts.missingFunctions?.includes('tpl')) {
    exec = execOptions(template, name, parsed.trees, opts, missingKey);
    exec.shared = { steps: 0 };
    exec.funcs = withTpl(exec, (text) => parseCached(text, name, opts.missingFunctions, opts.libraries?.goMinor));
  } else exec = keptExecOptions(template, name, parsed, opts, missingKey);
  const outer = reporting;
  reporting = report;
  try {
    return execute(exec, name, params);
  } catch (e) {
    throw execFailure(e, template);
  } finally {
    reporting = outer;
  }
}

/** An execution's error as renderString throws it. */
function execFailure(e: unknown, template: string): unknown {
  if (e instanceof GoExecError)
    return new TemplateError(
      `failed to execute go template ${template}: ${e.message}`,
      'exec',
      template,
      e.offset,
      e.length,
      e.reason,
      e.place,
    );
  return stackOverflow(e, template);
}

/**
 * renderString of a Go template of text and `{{ .key }}` (or `{{ .key.sub }}`) actions whose named fields
 * all hold strings in `params`, the parameters as plain JSON values (a generator's parameter set), without the Go values
 * renderString makes of them: the same string, or the same error (a limit); undefined for any other
 * template, mode or parameters, and for a template or options that do not parse (then renderString
 * answers, with its error). Nearly every string of an expansion is such a template
 * (`'{{ .service }}-{{ .env }}'`), and the Go values of each parameter set were made for them in a
 * document's first answer (540 maps on the bench's 111 KiB document).
 */
export function renderFields(template: string, params: PlainParams, opts: RenderOptions): string | undefined {
  // `tpl` binds the execution (renderGo); a template that names it is left to renderString.
  if (!opts.goTemplate || template.includes('tpl')) return undefined;
  let missingKey: MissingKey;
  try {
    missingKey = missingKeyOption(template, opts.options);
  } catch (e) {
    if (e instanceof TemplateError) return undefined;
    throw e;
  }
  const name = opts.templateName ?? ROOT_NAME;
  const parsed = parseCached(template, name, opts.missingFunctions, opts.libraries?.goMinor);
  if ('error' in parsed) return undefined;
  let out: string | undefined;
  try {
    out = executePlain(keptExecOptions(template, name, parsed, opts, missingKey), name, params);
  } catch (e) {
    throw execFailure(e, template);
  }
  return out === undefined ? undefined : toValidUTF8(out);
}

/**
 * The report of the render under way (renderGo): the functions an execution calls are noted in it
 * (`noteCall`, every execution's `onCall`, those that `tpl` runs inside it too), so that the options of
 * an execution need no closure of their own.
 */
let reporting: RenderReport | undefined;
const noteCall = (name: string, fn: GoFunc): void => void (fn.nonDeterministic && reporting?.nonDeterministic.add(name));

function execOptions(template: string, name: string, trees: Map<string, Tree>, opts: RenderOptions, missingKey: MissingKey): ExecOptions {
  return {
    text: template,
    parseName: name,
    trees,
    funcs: templateFuncs(opts.libraries),
    builtins: builtinsMap(),
    missingKey,
    goMinor: opts.libraries?.goMinor,
    onCall: noteCall,
  };
}

/**
 * The options of executing a parsed template, kept with it while the template name, the missing-key
 * option and the release's libraries are the same: every string of an expansion's 540 Applications
 * executes one of a few templates, and an options object per render (with the function map looked up
 * again) was most of what a render allocated in a document's first answer. Never for a template that
 * binds `tpl` (its options are its own). The text kept is a copy of its own: a template string read
 * from a document is a slice that would keep the document's whole text alive (see `ownCopy`).
 */
const keptExec = new WeakMap<object, { name: string; missingKey: MissingKey; libraries: RenderOptions['libraries']; exec: ExecOptions }>();
function keptExecOptions(
  template: string,
  name: string,
  parsed: { trees: Map<string, Tree> },
  opts: RenderOptions,
  missingKey: MissingKey,
): ExecOptions {
  const kept = keptExec.get(parsed);
  if (kept && kept.name === name && kept.missingKey === missingKey && kept.libraries === opts.libraries) return kept.exec;
  const exec = execOptions(ownCopy(template), name, parsed.trees, opts, missingKey);
  keptExec.set(parsed, { name, missingKey, libraries: opts.libraries, exec });
  return exec;
}

/**
 * Go's goroutine stacks grow to a gigabyte; ours do not. Values nested thousands of levels deep
 * (params from a generated file, fromYaml output) end in a clear template error, not a crash.
 */
function stackOverflow(e: unknown, template: string): unknown {
  if (isStackOverflow(e)) {
    return new TemplateError(`failed to execute go template ${template}: ${TOO_DEEP_MESSAGE}`, 'exec', template, undefined, undefined, {
      kind: 'limit',
    });
  }
  return e;
}

function renderWith(template: string, params: GoMap, opts: RenderOptions, report?: RenderReport): string {
  if (opts.goTemplate) return toValidUTF8(renderGo(template, params, opts, report));
  return renderFastWith(template, params);
}

/** fasttemplate mode (a function of its own: its closure's context is not made for every Go template render). */
function renderFastWith(template: string, params: GoMap): string {
  const r = renderFast(template, (name) => params.get(name));
  if ('error' in r) throw new TemplateError(r.error, 'fast', template, r.offset, 2);
  return r.out;
}

/** Renders one string as Argo CD's `Render.Replace` does. Throws TemplateError. */
export function renderString(template: string, params: Params, opts: RenderOptions, report?: RenderReport): string {
  try {
    return renderWith(template, toGoParams(params), opts, report);
  } catch (e) {
    throw stackOverflow(e, template);
  }
}

function isEmptyParams(params: Params): boolean {
  if (params instanceof Map) return params.size === 0;
  for (const k in params) if (Object.prototype.hasOwnProperty.call(params, k)) return false;
  return true;
}

/**
 * Renders every string and object key of a JSON-like value (Argo CD's RenderTemplateParams walk):
 * entries whose value is null are dropped, null array items kept, numbers/bools copied. Empty params
 * return the value untouched. Throws TemplateError (first error).
 */
export function renderValue(value: unknown, params: Params, opts: RenderOptions, report?: RenderReport): unknown {
  if (isEmptyParams(params)) return value;
  try {
    const p = toGoParams(params);
    return walkTemplate(value, (s) => renderWith(s, p, opts, report));
  } catch (e) {
    throw stackOverflow(e, typeof value === 'string' ? value : '');
  }
}

/** Params referenced by a template string. Never throws: unparsable templates yield what was found. */
export function referencedParams(template: string, goTemplate: boolean): ParamRef[] {
  if (!goTemplate) {
    const p = parseFast(template);
    if (!p || 'error' in p) return [];
    const refs: ParamRef[] = [];
    for (const tag of p.tags) {
      const [name, lead] = goTrimSpace(tag.raw);
      if (name) refs.push({ path: [name], offset: tag.offset + lead, length: name.length });
    }
    return refs;
  }
  const parsed = parseCached(template);
  if ('error' in parsed) return fallbackRefs(template);
  return analyzeRefs(parsed.trees, ROOT_NAME);
}

/**
 * Parses a template string in its mode without rendering it (the check that needs no parameter
 * set): the TemplateError rendering would throw at parse time, or undefined when it parses.
 */
export function parseError(template: string, goTemplate: boolean): TemplateError | undefined {
  if (!goTemplate) {
    const p = parseFast(template);
    return p && 'error' in p ? new TemplateError(p.error, 'fast', template, p.offset, 2) : undefined;
  }
  const parsed = parseCached(template);
  if (!('error' in parsed)) return undefined;
  const e = parsed.error;
  return new TemplateError(`failed to parse template ${template}: ${e.message}`, 'parse', template, e.offset, e.length, e.reason, e.place);
}

/**
 * Parses as another program built on text/template would, with its own function map (`defined`
 * says which names it has: Helm's, for a chart template). Not cached: callers parse short actions.
 */
export function parseErrorWith(template: string, defined: (name: string) => boolean): TemplateError | undefined {
  try {
    parseTemplate(template, ROOT_NAME, (f) => defined(f) || builtinsMap().has(f));
    return undefined;
  } catch (e) {
    if (e instanceof GoParseError) return new TemplateError(e.message, 'parse', template, e.offset, e.length, e.reason, e.place);
    if (e instanceof RangeError) return new TemplateError(`template: ${ROOT_NAME}:1: max expression depth exceeded`, 'parse', template);
    throw e;
  }
}

/** Whether `name` is a function of Argo CD's template function map (Sprig + Argo CD's own). */
export { hasFunction as isTemplateFunction };

/** Checks goTemplateOptions; returns the invalid entries (each would panic the controller). */
export function validateOptions(options: readonly string[]): string[] {
  return options.filter((o) => !/^missingkey=(default|invalid|zero|error)$/.test(o));
}

export type { GoValue };
