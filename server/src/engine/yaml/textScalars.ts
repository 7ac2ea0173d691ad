/**
 * Where a file's text is a quoted or block scalar's text, not YAML structure: line checks that look for
 * `{{` at the start of a value or a line (validate/templateInStructure.ts, unquotedTemplate.ts) skip those.
 */
import type { Span } from '../types';
import { astOf, walk } from './ast';
import type { YamlFile } from './document';

/**
 * Whether an offset is inside a quoted or block scalar (text, not structure). The ranges are found on
 * the first question: most files have no line the checks look at, and walking every document's tree
 * (built for it) was a good part of a large file's first answer.
 */
export function inTextOf(file: { parsed: YamlFile }): (offset: number) => boolean {
  let ranges: Span[] | undefined;
  return (offset) => (ranges ??= textRanges(file)).some((r) => offset >= r.start && offset < r.end);
}

function textRanges(file: { parsed: YamlFile }): Span[] {
  const out: Span[] = [];
  for (const d of file.parsed.docs) {
    walk(astOf(d.doc), (node) => {
      if (node.kind === 'scalar' && node.style !== 'plain') out.push(node.span);
    });
  }
  return out;
}
