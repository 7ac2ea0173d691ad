/**
 * The YAML reader's one door: everything outside `engine/yaml/` reads, locates and edits YAML through
 * this module (test/unit/architecture.test.ts checks it), and it names each thing it hands out. The
 * reader knows YAML only: values, located trees, ranges and syntax findings; what a document is (an
 * ApplicationSet, argocd-apps values, a Helm chart template) is decided above it, in `engine/kinds/`
 * (kinds/file.ts reads each document as `parseYamlFile` hands it on).
 *
 * Behind the door: `limits.ts` (checked before the parser), `document.ts` (a file → its documents, per
 * `---` part), `fastRead.ts` + `lazyDocument.ts` (the fast reader), `incremental.ts` (one entry parsed
 * again), `composeSteps.ts` (a long list in steps), `duplicateKeys.ts`, `ast.ts` (the located tree),
 * `parse.ts` (the other readers) + `fastWrite.ts`, `edit.ts`, `comments.ts`, `lines.ts` (the one home of
 * line numbers of offsets), `scalarOffsets.ts` (offsets in a scalar's value → the text), `textScalars.ts`
 * (where the text is a scalar's text), `linesWith.ts` (lines holding `{{`), `whiteSpace.ts` (what `trim()`
 * takes away), and the `yaml/*` rules: `unquotedTemplate.ts`, and `templatedFile.ts`, which a floor above
 * hands its facts to.
 */

// A file read into documents, the located tree at a path or an offset.
export {
  MAX_ALIAS_COUNT,
  nodeAt,
  parseYamlFile,
  parseYamlFileSteps,
  pathAt,
  spanAt,
  splitDocuments,
  type CursorAt,
  type EachDocument,
  type JsonPath,
  type NodeSpans,
  type ParsedPart,
  type Reader,
  type YamlDoc,
  type YamlFile,
} from './document';
// The located tree.
export { astOf, astSteps, builtTree, pathOf, property, walk, type AstNode, type ScalarNode } from './ast';
// The other readers (a value, a document, a file's documents) and the writer.
export {
  documentValues,
  documentsWithValues,
  parseDocuments,
  readDocuments,
  parseDocumentsSteps,
  parseGoYaml,
  parseGoYamlDocument,
  parseGoYamlFile,
  parseLenientDocument,
  stringifyYaml,
  type DocumentsRead,
  type YamlDocument,
} from './parse';
// What is too large, too long or too deep to be parsed.
export { guardYaml, yamlLimitMessage } from './limits';
// Edits of a text.
export { appendAt, indentUnit, prefersFlowLists, removePair, replacePair, sequenceIndent, yamlString, type Edit } from './edit';
export { commentStarts } from './comments';
// Line numbers (one home).
export { lineIndex, lineNumber, lineOfOffset, lineStarts } from './lines';
// The rules of the `yaml/` prefix that a floor above hands its facts to.
export { templatedFile, type RenderedBy } from './templatedFile';
// Offsets inside a scalar's value mapped back to the text (quotes, escapes, folding, block scalars).
export { scalarOffsets, valueSpan } from './scalarOffsets';
export { controlFlowTemplate } from './templatedFile';
export { unquotedTemplates } from './unquotedTemplate';
// Where the text is a quoted or block scalar's, and line scans that start only at lines holding `{{`.
export { inTextOf } from './textScalars';
export { matchLinesWithBraces } from './linesWith';
// What trim() and `\s` take away, for scans by character code.
export { isLineTerminator, isTrimmed, isWordCode, keyLineWord } from './charClasses';
