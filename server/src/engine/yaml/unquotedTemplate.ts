/**
 * The rule `yaml/unquoted-template`: `name: {{cluster}}` — YAML reads an unquoted `{{` at the start of a
 * value as a flow mapping, not a string, so the API server cannot decode the document. A fact of YAML's
 * syntax, read from the text; the features' template checks run it on files that declare an
 * ApplicationSet (features/templates/contributor.ts).
 */
import type { EngineDiagnostic } from '../types';
import { finding } from '../diagnostics/codes';
import type { YamlFile } from './document';
import { inTextOf } from './textScalars';
import { matchLinesWithBraces } from './linesWith';

/** `name: {{cluster}}` (see `unquotedTemplates`). */
const UNQUOTED_LINE = /^([ \t]*(?:- )?(?:[^\s#'"{][^:#\n]*:[ \t]+|- ))(\{\{[^\n]*?)[ \t]*(?:[ \t]#[^\n]*)?$/my;

/**
 * Whether UNQUOTED_LINE can match in `text`: its `{{` follows a space or a tab. Most ApplicationSets quote
 * every template, and the pattern, not run, is not compiled in the first answer (issue 39).
 */
export function mayHoldUnquotedTemplate(text: string): boolean {
  return text.includes(' {{') || text.includes('\t{{');
}

/** `name: {{cluster}}`: YAML reads an unquoted `{{` as a flow mapping, which no Application field accepts. */
export function unquotedTemplates(file: { text: string; parsed: YamlFile }): EngineDiagnostic[] {
  if (!mayHoldUnquotedTemplate(file.text)) return [];
  const inText = inTextOf(file);
  const out: EngineDiagnostic[] = [];
  for (const m of matchLinesWithBraces(file.text, UNQUOTED_LINE)) {
    const start = m.index! + m[1].length;
    if (inText(start)) continue;
    const value = m[2];
    if (/^\{\{-?\s*(if|else|end|range|with|define|template|block)\b/.test(value)) continue;
    const quoted = value.includes("'") ? JSON.stringify(value) : `'${value}'`;
    out.push(
      finding(
        'yaml/unquoted-template',
        `${value} is not quoted, so YAML reads it as a mapping, not a string: the API server cannot decode this ApplicationSet; quote it: ${quoted}`,
        { start, end: start + value.length },
        { data: { fix: { title: `Quote it: ${quoted}`, newText: quoted } } },
      ),
    );
  }
  return out;
}
