/**
 * The rule `appset/template-in-structure`: Go template control flow (`{{- if .x }}` lines) in the YAML
 * structure of an ApplicationSet, which the controller never renders (it renders template strings only);
 * the fix moves the conditional fields into spec.templatePatch. Control flow outside spec.template makes
 * the whole file a template another tool renders: that is `yaml/templated-file`, whose words live in its
 * home (yaml/templatedFile.ts `controlFlowTemplate`). Read from the text and its parsed documents.
 */
import type { EngineDiagnostic, Span } from '../types';
import { finding } from '../diagnostics/codes';
import { appSetKindAt } from '../kinds';
import { controlFlowTemplate, inTextOf, matchLinesWithBraces, type YamlFile } from '../yaml';

const CONTROL_LINE = /^[ \t]*\{\{-?\s*(if|else|end|range|with|define|template|block)\b[^\n]*\}\}[ \t]*$/my;

/**
 * Whether CONTROL_LINE can match in `text`: some `{{` stands first on its line, after spaces or tabs only
 * (a line starts after any of the terminators a multiline `^` knows). Most ApplicationSets have none, and the
 * pattern, not run, is not compiled in the first answer (issue 39).
 */
export function mayHoldControlLine(text: string): boolean {
  for (let b = text.indexOf('{{'); b >= 0; b = text.indexOf('{{', b + 1)) {
    let j = b - 1;
    while (j >= 0 && (text[j] === ' ' || text[j] === '\t')) j--;
    if (j < 0 || text[j] === '\n' || text[j] === '\r' || text[j] === '\u2028' || text[j] === '\u2029') return true;
  }
  return false;
}

/** `{{- if .x }}` lines in the YAML of an ApplicationSet: the controller never renders the structure. */
export function controlFlow(file: { text: string; uri: string; parsed: YamlFile }): EngineDiagnostic[] {
  if (!mayHoldControlLine(file.text)) return [];
  const inText = inTextOf(file);
  const lines: Span[] = [];
  for (const m of matchLinesWithBraces(file.text, CONTROL_LINE)) {
    const start = m.index! + m[0].length - m[0].trimStart().length;
    if (inText(start)) continue;
    lines.push({ start, end: m.index! + m[0].trimEnd().length });
  }
  if (!lines.length) return [];
  const parsedDoc = file.parsed.docs.find((d) => lines[0].start >= d.span.start && lines[0].start <= d.span.end)?.span;
  // To the next document marker: the parser's span of a document it could not read may stop early.
  const start = parsedDoc?.start ?? 0;
  const marker = /^(?:---|\.\.\.)[ \t]*$/m.exec(file.text.slice(lines[0].end));
  const doc = { start, end: marker ? lines[0].end + marker.index : file.text.length };
  // Control flow outside spec.template (around the documents, in metadata or generators) is not a
  // misplaced conditional field: another tool renders this file before Argo CD reads it.
  const docText = file.text.slice(doc.start, doc.end);
  const tKey = /^spec:[ \t]*\n(?:(?:[ \t]*#.*|[ \t]*|[ \t]+\S.*)\n)*?([ \t]+)template:[ \t]*$/m.exec(docText);
  const templateAt = tKey ? doc.start + tKey.index + tKey[0].length : -1;
  if (
    templateAt < 0 ||
    lines.some((l) => l.start < templateAt) ||
    lines.some((l) => /^\{\{-?\s*range\b/.test(file.text.slice(l.start, l.end)))
  ) {
    // The file as a whole is the template: its first ApplicationSet carries the note, every finding in it is dropped.
    const kind = appSetKindAt(file.text);
    const at = kind ? kind.start : lines[0].start;
    return [
      controlFlowTemplate(
        lines.length,
        file.text.slice(lines[0].start, lines[0].end),
        { start: at, end: at + (kind ? 'ApplicationSet'.length : lines[0].end - lines[0].start) },
        { start: 0, end: file.text.length },
      ),
    ];
  }
  return [
    finding(
      'appset/template-in-structure',
      `Go template control flow in the YAML structure (${lines.length} line${lines.length === 1 ? '' : 's'} like "${file.text.slice(lines[0].start, lines[0].end)}"): the controller renders template strings only, and this YAML does not even parse; put the conditional fields in spec.templatePatch (a string rendered per Application)`,
      lines[0],
      { related: lines.slice(1, 6).map((l) => ({ location: { file: file.uri, span: l }, message: 'also here' })), data: { doc } },
    ),
  ];
}
