/**
 * Line numbers of offsets in a text: the one home for every layer (the reader's door exports them,
 * and yaml/limits.ts, which the reader itself imports, takes them from here).
 */

/** 0-based line of an offset, binary search over line starts computed once. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = lineStarts(text);
  return (offset: number) => lineOfOffset(starts, offset);
}

/**
 * The offset each line of `text` starts at, in one pass; the last text's answer is kept (a keystroke's
 * findings and expansion ask for the same long text several times). Read-only: callers share it.
 */
export function lineStarts(text: string): readonly number[] {
  if (text === lastLines.text) return lastLines.starts;
  const starts = [0];
  // The native search, not a loop over every character: about a fifth of the time on a 111 KiB text.
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  lastLines = { text, starts };
  return starts;
}
let lastLines: { text: string | undefined; starts: readonly number[] } = { text: undefined, starts: [0] };

/** 0-based line of `offset`, by binary search over `lineStarts`. */
export function lineOfOffset(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** 1-based line of `offset` in `text`, as a finding's text or a `file:line` names it. */
export function lineNumber(text: string, offset: number): number {
  return lineOfOffset(lineStarts(text), offset) + 1;
}
