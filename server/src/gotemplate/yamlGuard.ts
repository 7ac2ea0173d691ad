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

/** `checkYamlLimits` in steps of a few thousand lines (the language server answers other requests between them). */
export function* checkYamlLimitsSteps(text: string, limits: YamlLimits = YAML_LIMITS, base = 0): Generator<void, YamlLimitHit | undefined> {
  if (text.length > limits.maxChars) return { kind: 'size', offset: base, value: text.length, limit: limits.maxChars };
  const n = text.length;
  // Block structure: the indentation columns of the enclosing lines, and how many levels each opened
  // (`- key:` opens a sequence item and a mapping: two).
  const indents: number[] = [];
  const opened: number[] = [];
  let outer = 0; // levels opened by the enclosing lines
  let flow = 0; // open flow brackets
  let flowBase = 0; // depth of the block structure around the current flow collection
  let quote = 0; // 0, or the char code of the quote a multi-line scalar is open with
  let quoteIndent = 0; // a continuation line indented this much or less ends that scalar (see below)
  let blockScalarIndent = -1; // ≥ 0 while inside a `|`/`>` scalar opened on a line with this indentation
  let blockContentIndent = -1; // the indentation of the scalar's first content line, once seen
  // A second, cruder measure over every line, inside scalars too: indentation levels and leading
  // `- `/`? `. Where the parser ends a scalar earlier than modelled above (error recovery), what
  // follows is still counted.
  const shadowIndents: number[] = [];
  const shadowOpened: number[] = [];
  let shadow = 0;
  let lineStart = 0;
  let lines = 0;
  while (lineStart <= n) {
    if (++lines % LINES_PER_STEP === 0) yield;
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = n;
    if (lineEnd - lineStart > limits.maxLineChars)
      return { kind: 'line', offset: base + lineStart, value: lineEnd - lineStart, limit: limits.maxLineChars };
    let i = lineStart;
    while (i < lineEnd && text.charCodeAt(i) === 32) i++;
    const indent = i - lineStart;
    const blank = i >= lineEnd || text.charCodeAt(i) === 13 || (text.charCodeAt(i) === 35 && quote === 0 && flow === 0); // '#'
    const shadowHit = measureShadow(i, lineEnd, indent);
    if (shadowHit) return shadowHit;
    // A document marker at column 0 ends everything (even block and quoted scalars).
    if (isMarker(text, lineStart, lineEnd)) {
      shadowIndents.length = 0;
      shadowOpened.length = 0;
      shadow = 0;
      indents.length = 0;
      opened.length = 0;
      outer = 0;
      flow = 0;
      quote = 0;
      blockScalarIndent = -1;
      blockContentIndent = -1;
      lineStart = lineEnd + 1;
      continue;
    }
    if (blockScalarIndent >= 0) {
      // The first content line fixes the scalar's indentation; a later line indented less ends the
      // scalar for the parser, so it ends it here too (ending it earlier only over-counts).
      const empty = i >= lineEnd || text.charCodeAt(i) === 13;
      if (empty || (indent > blockScalarIndent && (blockContentIndent < 0 || indent >= blockContentIndent))) {
        if (!empty && blockContentIndent < 0) blockContentIndent = indent;
        lineStart = lineEnd + 1;
        continue;
      }
      blockScalarIndent = -1;
      blockContentIndent = -1;
    }
    let inline = 0;
    let lineOpens = false;
    // The parser ends a multi-line quoted scalar at a continuation line that is not indented more
    // than the key it belongs to (an error, after which the rest is structure again), so does this.
    if (quote !== 0 && !(i >= lineEnd || text.charCodeAt(i) === 13) && indent <= quoteIndent) quote = 0;
    if (quote !== 0) {
      i = skipQuoted(text, i, lineEnd, quote);
      if (i >= 0) quote = 0;
      else {
        lineStart = lineEnd + 1;
        continue;
      }
    } else {
      if (blank) {
        lineStart = lineEnd + 1;
        continue;
      }
      // Inside a flow collection too: the parser recovers from a `- ` or `? ` there by opening block
      // collections, nested by indentation, so flow lines are measured as block lines as well.
      while (indents.length && indents[indents.length - 1] >= indent) {
        indents.pop();
        outer -= opened.pop() as number;
      }
      lineOpens = true;
    }
    // The rest of the line: indicators, keys, flow brackets, quotes, comments.
    let atNodeStart = flow === 0;
    let content = -1; // the column of the line's first node (after its `- `/`? `/`: ` indicators)
    while (i < lineEnd) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 13) {
        i++;
        continue;
      }
      if (c === 35 && (i === lineStart || isSpace(text.charCodeAt(i - 1)))) break; // comment
      if (content < 0 && !((c === 45 || c === 63 || c === 58) && (i + 1 >= lineEnd || isSpace(text.charCodeAt(i + 1)))))
        content = i - lineStart;
      // A quoted scalar: in a flow collection where a quote may start a node, in block context at a node's start.
      // One left open continues on the next lines. (Inside a flow collection atNodeStart is read again only
      // after the collection closes, which clears it.)
      if ((c === 34 || c === 39) && (flow > 0 ? quoteMayStart(text, i, lineStart) : atNodeStart)) {
        const end = skipQuoted(text, i + 1, lineEnd, c);
        if (end < 0) {
          quote = c;
          quoteIndent = content < 0 ? i - lineStart : content;
          break;
        }
        i = end;
        atNodeStart = false;
        continue;
      }
      if (flow > 0) {
        const around = Math.max(flowBase, outer + inline);
        if ((c === 45 || c === 63) && (i + 1 >= lineEnd || isSpace(text.charCodeAt(i + 1)))) {
          // '- ', '? ' inside a flow collection: a block collection for the parser's error recovery
          inline++;
          if (around + 1 + flow > limits.maxDepth)
            return { kind: 'depth', offset: base + i, value: around + 1 + flow, limit: limits.maxDepth };
          i++;
        } else if (c === 91 || c === 123) {
          // '[' '{'
          flow++;
          if (around + flow > limits.maxDepth) return { kind: 'depth', offset: base + i, value: around + flow, limit: limits.maxDepth };
          i++;
        } else if (c === 93 || c === 125) {
          flow--;
          i++;
          if (flow === 0) atNodeStart = false;
        } else i++;
        continue;
      }
      // Block context.
      if ((c === 45 || c === 63 || c === 58) && (i + 1 >= lineEnd || isSpace(text.charCodeAt(i + 1)))) {
        // '- ', '? ', ': '
        inline++;
        if (outer + inline > limits.maxDepth) return { kind: 'depth', offset: base + i, value: outer + inline, limit: limits.maxDepth };
        i++;
        atNodeStart = true;
        continue;
      }
      if ((c === 33 || c === 38 || c === 42) && atNodeStart) {
        // tag, anchor or alias: a token up to the next space
        while (i < lineEnd && !isSpace(text.charCodeAt(i))) i++;
        continue;
      }
      if ((c === 91 || c === 123) && atNodeStart) {
        flow = 1;
        flowBase = outer + inline;
        if (flowBase + flow > limits.maxDepth) return { kind: 'depth', offset: base + i, value: flowBase + flow, limit: limits.maxDepth };
        i++;
        continue;
      }
      if ((c === 124 || c === 62) && atNodeStart) {
        // '|' '>': a block scalar; its content lines are not structure.
        blockScalarIndent = indent;
        blockContentIndent = -1;
        break;
      }
      // A plain scalar (or a key): up to ': ' or ' #' or the end of the line.
      atNodeStart = false;
      while (i < lineEnd) {
        const d = text.charCodeAt(i);
        if (d === 58 && (i + 1 >= lineEnd || isSpace(text.charCodeAt(i + 1)))) break;
        if (d === 35 && isSpace(text.charCodeAt(i - 1))) break;
        i++;
      }
    }
    if (lineOpens) {
      const levels = Math.max(1, inline);
      indents.push(indent);
      opened.push(levels);
      outer += levels;
      if (outer > limits.maxDepth) return { kind: 'depth', offset: base + lineStart + indent, value: outer, limit: limits.maxDepth };
    }
    lineStart = lineEnd + 1;
  }
  return undefined;

  function measureShadow(i: number, lineEnd: number, indent: number): YamlLimitHit | undefined {
    if (i >= lineEnd || text.charCodeAt(i) === 13 || text.charCodeAt(i) === 35) return undefined;
    while (shadowIndents.length && shadowIndents[shadowIndents.length - 1] >= indent) {
      shadowIndents.pop();
      shadow -= shadowOpened.pop() as number;
    }
    let levels = 1;
    for (let j = i; j + 1 < lineEnd && (text.charCodeAt(j) === 45 || text.charCodeAt(j) === 63) && isSpace(text.charCodeAt(j + 1));) {
      levels++;
      j += 2;
      while (j < lineEnd && text.charCodeAt(j) === 32) j++;
    }
    shadowIndents.push(indent);
    shadowOpened.push(levels);
    shadow += levels;
    return shadow > limits.maxDepth ? { kind: 'depth', offset: base + i, value: shadow, limit: limits.maxDepth } : undefined;
  }
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
