/**
 * Maps an offset inside a YAML string's value back to the document, so a template diagnostic can
 * underline the exact action even when the scalar is quoted (`''`, `\"`, `\u00e9` escapes), folded
 * over several lines, or a block scalar (`|`, `>`) whose indentation is not part of the value.
 *
 * The value and its source are aligned in one forward pass: equal characters pair up, escapes and
 * doubled quotes stand for one value character, a line break in the source stands for the space or
 * newline folding makes of it, and anything else in the source (quotes, indentation, block header,
 * escaped line breaks) is syntax and skipped. Linear in the scalar's length.
 */
import type { Span } from '../types';

type Style = 'plain' | 'single' | 'double' | 'block';

/**
 * For every index 0..value.length, the document offset where that value character starts (the end
 * included), and for every character the offset just after its source (an escape is several).
 */
export function scalarOffsets(source: string, span: Span, value: string): { starts: number[]; ends: number[] } {
  const first = source[span.start];
  const style: Style = first === '"' ? 'double' : first === "'" ? 'single' : first === '|' || first === '>' ? 'block' : 'plain';
  let j = span.start;
  if (style === 'double' || style === 'single') j++;
  else if (style === 'block') {
    const nl = source.indexOf('\n', span.start);
    j = nl < 0 || nl >= span.end ? span.end : nl + 1;
  }
  const end = Math.min(span.end, source.length);
  const map: number[] = new Array(value.length + 1);
  const ends: number[] = new Array(value.length);
  let i = 0;
  while (i < value.length && j < end) {
    const c = source[j];
    if (style === 'double' && c === '\\') {
      const e = source[j + 1];
      if (e === '\n' || e === '\r') {
        // An escaped line break joins the lines without adding anything to the value.
        j += 2;
        while (j < end && (source[j] === ' ' || source[j] === '\t' || source[j] === '\n' || source[j] === '\r')) j++;
        continue;
      }
      map[i] = j;
      j += e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
      ends[i++] = Math.min(j, end);
      continue;
    }
    if (style === 'single' && c === "'" && source[j + 1] === "'") {
      map[i] = j;
      j += 2;
      ends[i++] = j;
      continue;
    }
    if (c === value[i] || ((c === '\n' || c === '\r') && (value[i] === ' ' || value[i] === '\n'))) {
      map[i] = j++;
      ends[i++] = j;
      continue;
    }
    j++;
  }
  const last = Math.min(j, end);
  for (; i <= value.length; i++) {
    map[i] = last;
    if (i < value.length) ends[i] = last;
  }
  return { starts: map, ends };
}

/** The document span of `value.slice(offset, offset + length)`, or undefined when it cannot be placed. */
export function valueSpan(source: string, span: Span, value: string, offset: number, length: number): Span | undefined {
  if (offset < 0 || offset > value.length) return undefined;
  const { starts, ends } = scalarOffsets(source, span, value);
  const start = starts[offset];
  const lastChar = Math.min(value.length, offset + Math.max(1, length)) - 1;
  const end = lastChar >= offset ? ends[lastChar] : start;
  if (start === undefined || end < start || end > span.end) return undefined;
  return { start, end };
}
