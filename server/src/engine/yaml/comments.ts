/**
 * Where the YAML comments of a text start, as the library's lexer reads them: a `#` inside a quoted
 * scalar or in the text of a block scalar (`|`, `>`) is not a comment. Inline suppressions
 * (`config/suppress.ts`) are read from these, never from text inside values.
 */
import * as YAML from 'yaml';

/** The lexer's zero-width markers (document mode, flow error end, scalar follows): no source text. */
const MARKERS = new Set(['\u0002', '\u0018', '\u001f']);

/** Offsets of every comment's `#`, in order. */
export function commentStarts(text: string): number[] {
  const out: number[] = [];
  let offset = 0;
  let scalarNext = false;
  for (const token of new YAML.Lexer().lex(text)) {
    if (MARKERS.has(token)) {
      scalarNext = token === '\u001f';
      continue;
    }
    // After the scalar marker comes a plain or block scalar's text, which may start with `#`.
    if (!scalarNext && token[0] === '#') out.push(offset);
    scalarNext = false;
    offset += token.length;
  }
  return out;
}
