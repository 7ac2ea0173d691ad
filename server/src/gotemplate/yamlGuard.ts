/**
 * A cheap, linear pre-scan of YAML text that runs before the `yaml` library sees it.
 *
 * Why: the `yaml` library composes nodes recursively. Text nested a thousand levels deep (a 2 KB
 * line of `- - - …`, two thousand nested block mappings, 100,000 `[`) exhausts the JS stack inside
 * it; worse, when V8 has to compile one of the library's regular expressions to machine code at
 * that moment (regexp tier-up), the compilation itself runs out of stack and V8 aborts the whole
 * process ("RegExpCompiler Allocation failed"), which no try/catch can stop. So nesting, document
 * size and line length are measured here, without recursion, and text over a limit never reaches
 * the parser.
 *
 * The depth is an estimate that never under-counts what the parser will recurse through: every
 * indentation level, every `- `/`? `/`: ` indicator and implicit key on a line, and every open
 * flow bracket outside quotes and comments. It may over-count by a little (a mapping nested in a
 * sequence item on the same line counts twice), which the limits leave room for.
 *
 * Go's go-yaml v2 (which Argo CD parses with) stops at a depth of 10000; JS stacks are smaller,
 * so our limit is lower and the finding says it is ours.
 */

export interface YamlLimits {
  /** Characters per file/document text. */
  maxChars: number;
  /** Characters per line. */
  maxLineChars: number;
  /** Estimated nesting depth (see above). */
  maxDepth: number;
}

export const YAML_LIMITS: YamlLimits = {
  maxChars: 2 * 1024 * 1024,
  maxLineChars: 256 * 1024,
  maxDepth: 100,
};

export type YamlLimitKind = 'size' | 'line' | 'depth';

export interface YamlLimitHit {
  kind: YamlLimitKind;
  /** Offset of the place the limit was reached (the start of the long line, the deepest point). */
  offset: number;
  /** The measured value when it was stopped (characters, or depth reached). */
  value: number;
  limit: number;
}

/**
 * The first limit `text` exceeds, or undefined when the parser may safely read it. Runs in one pass
 * over the text, with no recursion and no regular expressions over unbounded input.
 */
export function checkYamlLimits(text: string, limits: YamlLimits = YAML_LIMITS, base = 0): YamlLimitHit | undefined {
  const steps = checkYamlLimitsSteps(text, limits, base);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Lines measured between two steps of `checkYamlLimitsSteps`. */
const LINES_PER_STEP = 2000;

/** Lines between two kept states of the scan (see `Resume`). */
const LINES_PER_STATE = 64;

/**
 * The states of the last scan that passed every limit, every LINES_PER_STATE lines: the next scan of
 * an edited copy of the same text (a keystroke re-checks the whole document) starts from the last
 * state before the edit and stops at the first state after it that equals the one the last scan had
 * at the same place, the text from there on being the same: the rest would pass as it did. The scan
 * of a line depends only on the state before it and its text, so the answer is the same; the states
 * compared are all the scanner keeps from one line to the next (`LimitScan.state`). Only a scan that
 * found no hit is kept (a hit ends the scan, so no state follows it). One text at a time.
 */
interface Resume {
  text: string;
  limits: YamlLimits;
  /** Line start offset → the scanner's state before that line, ascending. */
  states: { at: number; state: string }[];
}
let lastScan: Resume | undefined;

/** The length of the common prefix of `a` and `b` (compared a block at a time). */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  for (let step = 4096; step >= 1; step >>= 4) while (i + step <= n && a.slice(i, i + step) === b.slice(i, i + step)) i += step;
  return i;
}

/** The length of the common suffix of `a` and `b`, at most `max`. */
function commonSuffix(a: string, b: string, max: number): number {
  let i = 0;
  for (let step = 4096; step >= 1; step >>= 4)
    while (i + step <= max && a.slice(a.length - i - step, a.length - i) === b.slice(b.length - i - step, b.length - i)) i += step;
  return i;
}

/** `checkYamlLimits` in steps of a few thousand lines (the language server answers other requests between them). */
export function* checkYamlLimitsSteps(text: string, limits: YamlLimits = YAML_LIMITS, base = 0): Generator<void, YamlLimitHit | undefined> {
  if (text.length > limits.maxChars) return { kind: 'size', offset: base, value: text.length, limit: limits.maxChars };
  if (withinLimits(text, limits)) return undefined;
  return yield* scanYamlLimitsSteps(text, limits, base);
}

/** The scan alone, line by line, without `withinLimits`'s bound first (its tests compare both). */
export function scanYamlLimits(text: string, limits: YamlLimits = YAML_LIMITS, base = 0): YamlLimitHit | undefined {
  if (text.length > limits.maxChars) return { kind: 'size', offset: base, value: text.length, limit: limits.maxChars };
  const steps = scanYamlLimitsSteps(text, limits, base);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * An indicator the scan counts as a nesting level: `-`, `?` or `:` before a space, a tab, a line break
 * or the text's end (`LimitScan.blockNode`, `flowNode`, `measureShadow` count no other).
 */
const INDICATOR = '[-?:](?=[ \\t\\r\\n]|$)';
/** A run of a line's characters holding no INDICATOR; each character matches one way (no backtracking blow-up). */
const NO_INDICATOR = '[^-?:\\n]*(?:[-?:](?![ \\t\\r\\n]|$)[^-?:\\n]*)*';
/** `moreIndicators[k]`: some line holds more than k INDICATORs. */
const moreIndicators: RegExp[] = [];
/** `deeper[m]`: some line is indented more than m spaces. */
const deeper: RegExp[] = [];
/** The INDICATORs per line `withinLimits` tries first (one search in most texts), and the most it tries. */
const FIRST_PER_LINE = 3;
const MAX_PER_LINE = 8;

/**
 * What `withinLimits` found of the last text it looked at (one: the document being typed in): at most
 * `perLine` INDICATORs on a line, `brackets` flow brackets, no line indented more than `indent`; or that
 * its bound did not hold (`failed`). The next text, an edit of it, is looked at in its edited lines only.
 */
interface Bound {
  text: string;
  limits: YamlLimits;
  perLine: number;
  brackets: number;
  indent: number;
  failed: boolean;
}
let lastBound: Bound | undefined;

/**
 * Whether the scan below cannot find a limit passed in `text` (no longer than `limits.maxChars`), found
 * by a few native searches instead of the scan's loop over every line, which runs before V8 has compiled
 * it in a fresh process (11–16 ms of the first answer on the bench's 111 KiB list, issue 39).
 * false says nothing: the scan then decides.
 *
 * The bound: a text no longer than `maxLineChars` has no line over it. The scan's depth is, at any
 * point, the levels of the enclosing lines it keeps (`indents`/`opened`, and the shadow's), plus the
 * current line's indicators and the open flow brackets. The enclosing lines have strictly increasing
 * indentations, so there are at most M + 1 of them (M: the deepest indentation of any line); each
 * opened at most 1 + K levels (K: the most INDICATORs on one line; a line opens max(1, its indicators),
 * the shadow 1 + its leading `- `/`? `); the current line adds at most K + 1 (its indicators, and 1 for
 * a `- ` in a flow collection or the bracket); the flow brackets open at once are at most the text's
 * `[` and `{` (B). So the depth never exceeds (M + 1)(1 + K) + K + 1 + B, and a text where that is at
 * most `maxDepth` passes. `test/unit/limits-bound.test.ts` checks it against the scan.
 */
export function withinLimits(text: string, limits: YamlLimits): boolean {
  if (text.length > limits.maxLineChars) return false;
  const last = lastBound && lastBound.limits === limits ? lastBound : undefined;
  if (last && last.text === text) return !last.failed;
  lastBound = undefined;
  try {
    // An edit of the last text: only the lines it changed are searched (the others are the last text's).
    let region = text;
    let oldRegion: string | undefined;
    if (last) {
      const n = text.length;
      const prefix = commonPrefix(last.text, text);
      const suffix = commonSuffix(last.text, text, Math.min(last.text.length, n) - prefix);
      const from = prefix > 0 ? text.lastIndexOf('\n', prefix - 1) + 1 : 0;
      let to = text.indexOf('\n', n - suffix);
      if (to < 0) to = n;
      // A text whose bound did not hold, edited: the scan resumes (the bound would not hold either, mostly).
      if (last.failed && to - from < n / 2) return fail(text, limits);
      if (!last.failed) {
        region = text.slice(from, to);
        oldRegion = last.text.slice(from, to + last.text.length - n);
      }
    }
    const base = oldRegion !== undefined && last ? last : undefined;
    const brackets = (base ? base.brackets - countBrackets(oldRegion as string, Infinity) : 0) + countBrackets(region, limits.maxDepth);
    if (brackets > limits.maxDepth) return fail(text, limits);
    const k = mostIndicators(region, base ? base.perLine : FIRST_PER_LINE);
    if (k === undefined) return fail(text, limits);
    const deepest = Math.floor((limits.maxDepth - k - 1 - brackets) / (1 + k)) - 1;
    if (deepest < 0 || (base && deepest < base.indent)) return base ? withinLimits(text, limits) : fail(text, limits);
    if (indentedDeeper(region, deepest)) return fail(text, limits);
    lastBound = { text, limits, perLine: k, brackets, indent: deepest, failed: false };
    return true;
  } catch {
    // A search that ran out of its backtracking stack (a hostile line): the scan decides.
    return fail(text, limits);
  }
}

/**
 * The fewest INDICATORs per line, from `from` on, that no line of `text` holds more of; undefined past
 * MAX_PER_LINE (then no bound is tried). A search may run out of its backtracking stack: the callers catch it.
 */
function mostIndicators(text: string, from: number): number | undefined {
  for (let k = from; k <= MAX_PER_LINE; k++) {
    const more = (moreIndicators[k] ??= new RegExp(`(?:^|\\n)${NO_INDICATOR}(?:${INDICATOR}${NO_INDICATOR}){${k + 1}}`));
    if (!more.test(text)) return k;
  }
  return undefined;
}

/** Whether some line of `text` is indented by more than `m` spaces. */
function indentedDeeper(text: string, m: number): boolean {
  return (deeper[m] ??= new RegExp(`(?:^|\\n) {${m + 1}}`)).test(text);
}

function fail(text: string, limits: YamlLimits): false {
  lastBound = { text, limits, perLine: 0, brackets: 0, indent: 0, failed: true };
  return false;
}

/** The `[` and `{` in `text`, counted up to just past `max`. */
function countBrackets(text: string, max: number): number {
  let count = 0;
  const open = /[[{]/g;
  while (count <= max && open.test(text)) count++;
  return count;
}

function* scanYamlLimitsSteps(text: string, limits: YamlLimits, base: number): Generator<void, YamlLimitHit | undefined> {
  const n = text.length;
  const scan = new LimitScan(text, limits, base);
  const last = lastScan && lastScan.limits === limits && lastScan.text !== text ? lastScan : undefined;
  const states: Resume['states'] = [];
  let lineStart = 0;
  let lines = 0;
  // Where the edit ends in this text (the same text follows), and how far the text moved there.
  let sameFrom = n + 1;
  let delta = 0;
  let old: Resume['states'] = [];
  let next = 0; // the index in `old` of the first state at or after `lineStart + delta` once past the edit
  if (last) {
    const prefix = commonPrefix(last.text, text);
    const suffix = commonSuffix(last.text, text, Math.min(last.text.length, n) - prefix);
    sameFrom = n - suffix;
    delta = last.text.length - n;
    old = last.states;
    // The last state whose line starts within the common prefix (the text before it is the same).
    let k = 0;
    while (k < old.length && old[k].at <= prefix) k++;
    if (k > 0) {
      scan.restore(old[k - 1].state);
      lineStart = old[k - 1].at;
      for (let j = 0; j < k; j++) states.push(old[j]);
    }
  }
  lastScan = undefined;
  while (lineStart <= n) {
    if (++lines % LINES_PER_STEP === 0) yield;
    if (lines % LINES_PER_STATE === 0 || (last && lineStart >= sameFrom)) {
      const state = scan.state();
      if (last && lineStart >= sameFrom) {
        const at = lineStart + delta;
        while (next < old.length && old[next].at < at) next++;
        if (next < old.length && old[next].at === at && old[next].state === state) {
          // From here on the text and the state are the last scan's: the rest passes as it did.
          for (let j = next; j < old.length; j++) states.push({ at: old[j].at - delta, state: old[j].state });
          lastScan = { text, limits, states };
          return undefined;
        }
      }
      if (lines % LINES_PER_STATE === 0) states.push({ at: lineStart, state });
    }
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = n;
    const hit = scan.line(lineStart, lineEnd);
    if (hit) return hit;
    lineStart = lineEnd + 1;
  }
  lastScan = { text, limits, states };
  return undefined;
}

/**
 * What `LimitScan`'s node readers return instead of the next position: the rest of the line is not
 * structure (a comment, a quote left open, a block scalar), or a limit was passed (in `hit`).
 */
const END_OF_LINE = -1;
const HIT = -2;

/**
 * The scanner of `checkYamlLimitsSteps`: the structure open around the current line (kept from one
 * line to the next), and what has been read of the current line.
 */
class LimitScan {
  // Block structure: the indentation columns of the enclosing lines, and how many levels each opened
  // (`- key:` opens a sequence item and a mapping: two).
  private readonly indents: number[] = [];
  private readonly opened: number[] = [];
  private outer = 0; // levels opened by the enclosing lines
  private flow = 0; // open flow brackets
  private flowBase = 0; // depth of the block structure around the current flow collection
  private quote = 0; // 0, or the char code of the quote a multi-line scalar is open with
  private quoteIndent = 0; // a continuation line indented this much or less ends that scalar (see line())
  private blockScalarIndent = -1; // >= 0 while inside a `|`/`>` scalar opened on a line with this indentation
  private blockContentIndent = -1; // the indentation of the scalar's first content line, once seen
  // A second, cruder measure over every line, inside scalars too: indentation levels and leading
  // `- `/`? `. Where the parser ends a scalar earlier than modelled above (error recovery), what
  // follows is still counted.
  private readonly shadowIndents: number[] = [];
  private readonly shadowOpened: number[] = [];
  private shadow = 0;
  // The line being read.
  private lineStart = 0;
  private lineEnd = 0;
  private indent = 0;
  private inline = 0; // levels opened by the indicators read so far on this line
  private atNodeStart = false;
  private content = -1; // the column of the line's first node (after its `- `/`? `/`: ` indicators)
  private hit: YamlLimitHit | undefined; // the limit a node reader found passed
  // The first `:` and `#` at or after the last place searched from (text.length: none); see plainEnd.
  // Not state: positions in the text, right for any later search from before them.
  private colonAt = -1;
  private hashAt = -1;

  constructor(
    private readonly text: string,
    private readonly limits: YamlLimits,
    private readonly base: number,
  ) {}

  /** All the scanner keeps from one line to the next (for `Resume`), as one comparable string. */
  state(): string {
    return JSON.stringify([
      this.indents,
      this.opened,
      this.outer,
      this.flow,
      this.flowBase,
      this.quote,
      this.quoteIndent,
      this.blockScalarIndent,
      this.blockContentIndent,
      this.shadowIndents,
      this.shadowOpened,
      this.shadow,
      this.inline,
      this.atNodeStart,
      this.content,
    ]);
  }

  /** Takes the state `state()` gave. */
  restore(state: string): void {
    const s = JSON.parse(state) as [
      number[],
      number[],
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number[],
      number[],
      number,
      number,
      boolean,
      number,
    ];
    this.indents.splice(0, this.indents.length, ...s[0]);
    this.opened.splice(0, this.opened.length, ...s[1]);
    [, , this.outer, this.flow, this.flowBase, this.quote, this.quoteIndent, this.blockScalarIndent, this.blockContentIndent] = s;
    this.shadowIndents.splice(0, this.shadowIndents.length, ...s[9]);
    this.shadowOpened.splice(0, this.shadowOpened.length, ...s[10]);
    [, , , , , , , , , , , this.shadow, this.inline, this.atNodeStart, this.content] = s;
  }

  /** Measures the line from `lineStart` to `lineEnd` (its `\n`); the limit it passes, if any. */
  line(lineStart: number, lineEnd: number): YamlLimitHit | undefined {
    const text = this.text;
    if (lineEnd - lineStart > this.limits.maxLineChars)
      return { kind: 'line', offset: this.base + lineStart, value: lineEnd - lineStart, limit: this.limits.maxLineChars };
    let i = lineStart;
    while (i < lineEnd && text.charCodeAt(i) === 32) i++;
    const indent = i - lineStart;
    const blank = i >= lineEnd || text.charCodeAt(i) === 13 || (text.charCodeAt(i) === 35 && this.quote === 0 && this.flow === 0); // '#'
    const shadowHit = this.measureShadow(i, lineEnd, indent);
    if (shadowHit) return shadowHit;
    // A document marker at column 0 ends everything (even block and quoted scalars).
    if (isMarker(text, lineStart, lineEnd)) {
      this.endDocument();
      return undefined;
    }
    if (this.blockScalarIndent >= 0 && this.inBlockScalar(i, lineEnd, indent)) return undefined;
    let lineOpens = false;
    // The parser ends a multi-line quoted scalar at a continuation line that is not indented more
    // than the key it belongs to (an error, after which the rest is structure again), so does this.
    if (this.quote !== 0 && !(i >= lineEnd || text.charCodeAt(i) === 13) && indent <= this.quoteIndent) this.quote = 0;
    if (this.quote !== 0) {
      i = skipQuoted(text, i, lineEnd, this.quote);
      if (i < 0) return undefined;
      this.quote = 0;
    } else {
      if (blank) return undefined;
      // Inside a flow collection too: the parser recovers from a `- ` or `? ` there by opening block
      // collections, nested by indentation, so flow lines are measured as block lines as well.
      this.closeBlocks(indent);
      lineOpens = true;
    }
    this.lineStart = lineStart;
    this.lineEnd = lineEnd;
    this.indent = indent;
    const hit = this.readNodes(i);
    if (hit || !lineOpens) return hit;
    return this.openLine();
  }

  /** The shadow measure of a line whose first non-space is at `i`. */
  private measureShadow(i: number, lineEnd: number, indent: number): YamlLimitHit | undefined {
    const text = this.text;
    if (i >= lineEnd || text.charCodeAt(i) === 13 || text.charCodeAt(i) === 35) return undefined;
    while (this.shadowIndents.length && this.shadowIndents[this.shadowIndents.length - 1] >= indent) {
      this.shadowIndents.pop();
      this.shadow -= this.shadowOpened.pop() as number;
    }
    let levels = 1;
    for (let j = i; j + 1 < lineEnd && (text.charCodeAt(j) === 45 || text.charCodeAt(j) === 63) && isSpace(text.charCodeAt(j + 1));) {
      levels++;
      j += 2;
      while (j < lineEnd && text.charCodeAt(j) === 32) j++;
    }
    this.shadowIndents.push(indent);
    this.shadowOpened.push(levels);
    this.shadow += levels;
    return this.shadow > this.limits.maxDepth ? depthHit(this.base + i, this.shadow, this.limits) : undefined;
  }

  private endDocument(): void {
    this.shadowIndents.length = 0;
    this.shadowOpened.length = 0;
    this.shadow = 0;
    this.indents.length = 0;
    this.opened.length = 0;
    this.outer = 0;
    this.flow = 0;
    this.quote = 0;
    this.blockScalarIndent = -1;
    this.blockContentIndent = -1;
  }

  /**
   * Whether a line belongs to the open block scalar. The first content line fixes the scalar's
   * indentation; a later line indented less ends the scalar for the parser, so it ends it here too
   * (ending it earlier only over-counts).
   */
  private inBlockScalar(i: number, lineEnd: number, indent: number): boolean {
    const empty = i >= lineEnd || this.text.charCodeAt(i) === 13;
    if (empty || (indent > this.blockScalarIndent && (this.blockContentIndent < 0 || indent >= this.blockContentIndent))) {
      if (!empty && this.blockContentIndent < 0) this.blockContentIndent = indent;
      return true;
    }
    this.blockScalarIndent = -1;
    this.blockContentIndent = -1;
    return false;
  }

  /** Leaves the enclosing lines indented as much as or more than this one. */
  private closeBlocks(indent: number): void {
    while (this.indents.length && this.indents[this.indents.length - 1] >= indent) {
      this.indents.pop();
      this.outer -= this.opened.pop() as number;
    }
  }

  /** A line that starts a node opens the levels of its indicators (at least one). */
  private openLine(): YamlLimitHit | undefined {
    const levels = Math.max(1, this.inline);
    this.indents.push(this.indent);
    this.opened.push(levels);
    this.outer += levels;
    return this.outer > this.limits.maxDepth ? depthHit(this.base + this.lineStart + this.indent, this.outer, this.limits) : undefined;
  }

  /** The rest of the line from `from`: indicators, keys, flow brackets, quotes, comments. */
  private readNodes(from: number): YamlLimitHit | undefined {
    const text = this.text;
    const lineEnd = this.lineEnd;
    this.inline = 0;
    this.atNodeStart = this.flow === 0;
    this.content = -1;
    for (let i = from; i < lineEnd;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 13) {
        i++;
        continue;
      }
      if (c === 35 && (i === this.lineStart || isSpace(text.charCodeAt(i - 1)))) break; // comment
      if (this.content < 0 && !((c === 45 || c === 63 || c === 58) && spaceAfter(text, i, lineEnd))) this.content = i - this.lineStart;
      // A quoted scalar: in a flow collection where a quote may start a node, in block context at a node's start.
      // (Inside a flow collection atNodeStart is read again only after the collection closes, which clears it.)
      if ((c === 34 || c === 39) && (this.flow > 0 ? quoteMayStart(text, i, this.lineStart) : this.atNodeStart)) i = this.quoted(i, c);
      else if (this.flow === 0) i = this.blockNode(i, c);
      else if (c === 45 || c === 63 || c === 91 || c === 123 || c === 93 || c === 125) i = this.flowNode(i, c);
      else i++; // any other character inside a flow collection
      if (i === END_OF_LINE) break;
      if (i === HIT) return this.hit;
    }
    return undefined;
  }

  /** A quoted scalar at `i`; one left open continues on the next lines. */
  private quoted(i: number, q: number): number {
    const end = skipQuoted(this.text, i + 1, this.lineEnd, q);
    if (end < 0) {
      this.quote = q;
      this.quoteIndent = this.content < 0 ? i - this.lineStart : this.content;
      return END_OF_LINE;
    }
    this.atNodeStart = false;
    return end;
  }

  /** A bracket, `-` or `?` inside a flow collection (`- ` and `? ` open block levels there, see `line`). */
  private flowNode(i: number, c: number): number {
    const around = Math.max(this.flowBase, this.outer + this.inline);
    if ((c === 45 || c === 63) && spaceAfter(this.text, i, this.lineEnd)) {
      // '- ', '? ' inside a flow collection: a block collection for the parser's error recovery
      this.inline++;
      if (around + 1 + this.flow > this.limits.maxDepth) return this.depthHit(i, around + 1 + this.flow);
    } else if (c === 91 || c === 123) {
      // '[' '{'
      this.flow++;
      if (around + this.flow > this.limits.maxDepth) return this.depthHit(i, around + this.flow);
    } else if (c === 93 || c === 125) {
      this.flow--;
      if (this.flow === 0) this.atNodeStart = false;
    }
    return i + 1;
  }

  /** An indicator, node property, flow collection, block scalar or plain scalar at `i` in block context. */
  private blockNode(i: number, c: number): number {
    const text = this.text;
    const lineEnd = this.lineEnd;
    if ((c === 45 || c === 63 || c === 58) && spaceAfter(text, i, lineEnd)) {
      // '- ', '? ', ': '
      this.inline++;
      if (this.outer + this.inline > this.limits.maxDepth) return this.depthHit(i, this.outer + this.inline);
      this.atNodeStart = true;
      return i + 1;
    }
    if ((c === 33 || c === 38 || c === 42) && this.atNodeStart) {
      // tag, anchor or alias: a token up to the next space
      while (i < lineEnd && !isSpace(text.charCodeAt(i))) i++;
      return i;
    }
    if ((c === 91 || c === 123) && this.atNodeStart) {
      this.flow = 1;
      this.flowBase = this.outer + this.inline;
      if (this.flowBase + this.flow > this.limits.maxDepth) return this.depthHit(i, this.flowBase + this.flow);
      return i + 1;
    }
    if ((c === 124 || c === 62) && this.atNodeStart) {
      // '|' '>': a block scalar; its content lines are not structure.
      this.blockScalarIndent = this.indent;
      this.blockContentIndent = -1;
      return END_OF_LINE;
    }
    // A plain scalar (or a key): up to ': ' or ' #' or the end of the line.
    this.atNodeStart = false;
    return this.plainEnd(i);
  }

  /**
   * Where the plain scalar at `i` ends on its line: at the first `:` followed by a space (or the line's
   * end), at the first `#` after a space, else at the line's end. Found by the native `indexOf`, not a
   * loop over each character (which ran before V8 had compiled it: most of the scan's time on a long
   * list in a fresh process, issue 39); the next `:` and `#` found are kept, so the text is searched once.
   */
  private plainEnd(i: number): number {
    const text = this.text;
    const lineEnd = this.lineEnd;
    for (;;) {
      if (this.colonAt < i) {
        this.colonAt = text.indexOf(':', i);
        if (this.colonAt < 0) this.colonAt = text.length;
      }
      if (this.hashAt < i) {
        this.hashAt = text.indexOf('#', i);
        if (this.hashAt < 0) this.hashAt = text.length;
      }
      const colon = this.colonAt;
      const hash = this.hashAt;
      if (colon < hash) {
        if (colon >= lineEnd) return lineEnd;
        if (spaceAfter(text, colon, lineEnd)) return colon;
        i = colon + 1;
      } else {
        if (hash >= lineEnd) return lineEnd;
        if (isSpace(text.charCodeAt(hash - 1))) return hash;
        i = hash + 1;
      }
    }
  }

  /** Records a passed depth limit; returns HIT. */
  private depthHit(at: number, value: number): typeof HIT {
    this.hit = depthHit(this.base + at, value, this.limits);
    return HIT;
  }
}
function depthHit(offset: number, value: number, limits: YamlLimits): YamlLimitHit {
  return { kind: 'depth', offset, value, limit: limits.maxDepth };
}

/** The character after `i` is a space, or the line ends there. */
function spaceAfter(text: string, i: number, lineEnd: number): boolean {
  return i + 1 >= lineEnd || isSpace(text.charCodeAt(i + 1));
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10 || Number.isNaN(c);
}

/** `---` or `...` at column 0, followed by a space or the end of the line. */
function isMarker(text: string, start: number, end: number): boolean {
  if (end - start < 3) return false;
  const c = text.charCodeAt(start);
  if ((c !== 45 && c !== 46) || text.charCodeAt(start + 1) !== c || text.charCodeAt(start + 2) !== c) return false;
  return start + 3 >= end || isSpace(text.charCodeAt(start + 3));
}

/** In flow context a quote opens a scalar only where a node can start (`[it's]` is a plain scalar). */
function quoteMayStart(text: string, i: number, lineStart: number): boolean {
  let j = i - 1;
  while (j >= lineStart && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j--;
  if (j < lineStart) return true;
  const p = text.charCodeAt(j);
  return p === 91 || p === 123 || p === 44 || p === 58 || p === 63; // [ { , : ?
}

/** The offset after the closing quote on this line, or -1 when the scalar continues on the next line. */
function skipQuoted(text: string, i: number, lineEnd: number, q: number): number {
  while (i < lineEnd) {
    const c = text.charCodeAt(i);
    if (q === 34 && c === 92) {
      i += 2; // backslash escape
      continue;
    }
    if (c === q) {
      if (q === 39 && text.charCodeAt(i + 1) === 39) {
        i += 2; // '' inside single quotes
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return -1;
}

/**
 * Whether the scan cannot find a limit passed in any of the parts of `text` (`parts`: [start, end) of
 * `---` documents, each scanned on its own, in order, each ending at a line start or at the text's end):
 * `withinLimits`'s bound for all of them at once, from a few native searches over the whole text. A
 * part's depth is at most E(1 + K) + K + 1 + B, E the enclosing lines (see `withinLimits`), and each of
 * the terms is at most the one taken over every line of the text (its lines are the text's), B being
 * the most flow brackets in one part. The enclosing lines have strictly increasing indentations, each a
 * line's: where no line is indented by an odd number of spaces (the usual two-space style), there are
 * at most M / 2 + 1 of them, else M + 1 (M: the deepest indentation). Where that holds, each part
 * passes. A file of 50 ApplicationSets asked `withinLimits` 50 times (and the scan of every line for the
 * parts whose template strings' `{{` made B too large for M + 1), in a fresh process before V8 had
 * compiled them: about 3 ms of the file's first answer (issue 39). false says nothing: each part is
 * then checked alone. It keeps nothing for the next text.
 */
export function withinLimitsEach(text: string, parts: readonly (readonly [number, number])[], limits: YamlLimits): boolean {
  let brackets = 0;
  // The next `[` and `{` (native searches: a pattern's `test` per bracket cost more, in a fresh process).
  let square = text.indexOf('[');
  let curly = text.indexOf('{');
  for (const [start, end] of parts) {
    // A part no longer than maxLineChars holds no line over it.
    if (end - start > limits.maxLineChars) return false;
    let count = 0;
    for (; square >= 0 && square < end; square = text.indexOf('[', square + 1)) if (square >= start) count++;
    for (; curly >= 0 && curly < end; curly = text.indexOf('{', curly + 1)) if (curly >= start) count++;
    if (count > brackets) brackets = count;
    if (brackets > limits.maxDepth) return false;
  }
  try {
    const k = mostIndicators(text, FIRST_PER_LINE);
    if (k === undefined) return false;
    const enclosing = Math.floor((limits.maxDepth - k - 1 - brackets) / (1 + k));
    if (enclosing < 1) return false;
    // No line indented deeper than allows `enclosing` lines: with even indentations only, 2 * enclosing - 1 spaces.
    return !indentedDeeper(text, ODD_INDENT.test(text) ? enclosing - 1 : 2 * enclosing - 1);
  } catch {
    // A search that ran out of its backtracking stack (a hostile line): each part is checked alone.
    return false;
  }
}

/** A line indented by an odd number of spaces (a blank line of spaces too). */
const ODD_INDENT = /(?:^|\n)(?:  )* (?! )/;
