/**
 * Engine ↔ LSP conversions. The engine speaks character offsets; LSP speaks lines and UTF-16
 * columns, which `TextDocument.positionAt` computes for us.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  InsertTextFormat,
  type CodeAction,
  type CompletionItem,
  type Diagnostic,
  type Position,
  type Range,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver/node';
import { URI } from './uri';
import type * as E from '@appset-tools/engine';
import { codeHelpUri, isDiagnosticCode, lineOfOffset, lineStarts } from '@appset-tools/engine';

export const SOURCE = 'appset';

export function toRange(doc: TextDocument, span: E.Span): Range {
  const starts = lfStarts(doc);
  // A span that is not a number (none should be) is left to positionAt, whose answer for it is its own.
  if (!starts || Number.isNaN(+span.start) || Number.isNaN(+span.end))
    return { start: doc.positionAt(span.start), end: doc.positionAt(span.end) };
  const text = doc.getText();
  return { start: positionIn(starts, text.length, span.start), end: positionIn(starts, text.length, span.end) };
}

/**
 * The line starts of a document's text when its only line terminator is `\n`, the engine's (a native
 * search); undefined for a text with a `\r` (then `TextDocument.positionAt`, whose rules for `\r` and
 * `\r\n` it is). `positionAt` makes its line offsets the first time with a loop over every character:
 * about 2 ms of the first answer on the bench's 111 KiB document with a template error, code not yet
 * compiled (issue 39). Kept per document for its current text (an edit replaces it).
 */
function lfStarts(doc: TextDocument): readonly number[] | undefined {
  const text = doc.getText();
  const kept = lineStartsOf.get(doc);
  if (kept && kept.text === text) return kept.starts;
  const starts = text.indexOf('\r') < 0 ? lineStarts(text) : undefined;
  lineStartsOf.set(doc, { text, starts });
  return starts;
}
const lineStartsOf = new WeakMap<TextDocument, { text: string; starts: readonly number[] | undefined }>();

/** `TextDocument.positionAt` over `\n` line starts: the offset clamped to the text, its line by binary search. */
function positionIn(starts: readonly number[], length: number, offset: number): Position {
  const at = Math.max(Math.min(offset, length), 0);
  const line = lineOfOffset(starts, at);
  return { line, character: at - starts[line] };
}

export function toSpan(doc: TextDocument, range: Range): E.Span {
  return { start: doc.offsetAt(range.start), end: doc.offsetAt(range.end) };
}

const SEVERITY: Record<E.Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Text of other files, for related-information ranges; undefined when it cannot be read. */
export type TextOf = (fileOrUri: string) => TextDocument | undefined;

export function toDiagnostic(doc: TextDocument, d: E.EngineDiagnostic, textOf: TextOf): Diagnostic {
  const out: Diagnostic = {
    range: toRange(doc, d.span),
    severity: SEVERITY[d.severity],
    code: d.code,
    codeDescription: { href: codeHelpUri(d.code) },
    source: SOURCE,
    message: d.message,
    // Kept so code actions get the engine's own diagnostic back (with its fix data).
    data: { span: d.span, data: d.data },
  };
  if (d.tags?.length) out.tags = d.tags.map((t) => (t === 'deprecated' ? DiagnosticTag.Deprecated : DiagnosticTag.Unnecessary));
  if (d.related?.length) {
    out.relatedInformation = d.related.map((r) => {
      const target = textOf(r.location.file);
      const uri = r.location.file.includes('://') ? r.location.file : URI.fromPath(r.location.file);
      const range =
        target && r.location.span ? toRange(target, r.location.span) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      return { location: { uri, range }, message: r.message };
    });
  }
  return out;
}

/**
 * Rebuilds the engine diagnostic from what the client sends back in a code action request; undefined
 * for a code the engine does not register (no quick fix can answer it).
 */
export function fromDiagnostic(doc: TextDocument, d: Diagnostic): E.EngineDiagnostic | undefined {
  const code = String(d.code ?? '');
  if (!isDiagnosticCode(code)) return undefined;
  const extra = (d.data ?? {}) as { span?: E.Span; data?: unknown };
  const sev = Object.entries(SEVERITY).find(([, v]) => v === d.severity)?.[0] as E.Severity | undefined;
  return {
    code,
    severity: sev ?? 'error',
    message: typeof d.message === 'string' ? d.message : d.message.value,
    span: extra.span ?? toSpan(doc, d.range),
    data: extra.data,
  };
}

export function toWorkspaceEdit(edits: E.TextEdit[], docOf: TextOf): WorkspaceEdit {
  const changes: Record<string, TextEdit[]> = {};
  for (const e of edits) {
    const target = docOf(e.file);
    if (!target) continue;
    const uri = target.uri;
    (changes[uri] ??= []).push({ range: toRange(target, e.span), newText: e.newText });
  }
  return { changes };
}

/** New files first (CreateFile, then their text), then edits of existing files, as `documentChanges`. */
export function toCreatingWorkspaceEdit(files: { file: string; text: string }[], edits: E.TextEdit[], docOf: TextOf): WorkspaceEdit {
  const documentChanges: WorkspaceEdit['documentChanges'] = [];
  for (const f of files) {
    const uri = f.file.includes('://') ? f.file : URI.fromPath(f.file);
    documentChanges.push({ kind: 'create', uri, options: { ignoreIfExists: true } });
    documentChanges.push({
      textDocument: { uri, version: null },
      edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: f.text }],
    });
  }
  const byUri = new Map<string, TextEdit[]>();
  for (const e of edits) {
    const target = docOf(e.file);
    if (!target) continue;
    const list = byUri.get(target.uri) ?? [];
    list.push({ range: toRange(target, e.span), newText: e.newText });
    byUri.set(target.uri, list);
  }
  for (const [uri, list] of byUri) documentChanges.push({ textDocument: { uri, version: null }, edits: list });
  return { documentChanges };
}

export function toCodeAction(a: E.CodeAction, doc: TextDocument, docOf: TextOf): CodeAction {
  const kind = a.kind === 'quickfix' ? CodeActionKind.QuickFix : a.kind === 'refactor' ? CodeActionKind.Refactor : CodeActionKind.Source;
  const out: CodeAction = { title: a.title, kind };
  if (a.isPreferred) out.isPreferred = true;
  if (a.diagnostics?.length) out.diagnostics = a.diagnostics.map((d) => toDiagnostic(doc, d, docOf));
  if (a.createFiles?.length) out.edit = toCreatingWorkspaceEdit(a.createFiles, a.edits ?? [], docOf);
  else if (a.edits?.length) out.edit = toWorkspaceEdit(a.edits, docOf);
  if (a.command) out.command = { title: a.command.title, command: a.command.id, arguments: a.command.args };
  return out;
}

const COMPLETION_KIND: Record<E.CompletionItem['kind'], CompletionItemKind> = {
  property: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  function: CompletionItemKind.Function,
  variable: CompletionItemKind.Variable,
  snippet: CompletionItemKind.Snippet,
  keyword: CompletionItemKind.Keyword,
};

export function toCompletion(doc: TextDocument, c: E.CompletionItem): CompletionItem {
  const out: CompletionItem = { label: c.label, kind: COMPLETION_KIND[c.kind] };
  if (c.detail) out.detail = c.detail;
  if (c.filterText) out.filterText = c.filterText;
  if (c.documentation) out.documentation = { kind: 'markdown', value: c.documentation };
  const text = c.insertText ?? c.label;
  if (c.snippet) out.insertTextFormat = InsertTextFormat.Snippet;
  if (c.span) out.textEdit = { range: toRange(doc, c.span), newText: text };
  else out.insertText = text;
  return out;
}
