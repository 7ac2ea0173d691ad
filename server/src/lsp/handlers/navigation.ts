/**
 * Parameters as symbols and the document's structure: definition, references, rename, document
 * symbols, folding ranges, semantic tokens of `{{ }}` actions and inlay hints. Each is a thin mapping
 * of the facade's answer to LSP.
 */
import {
  ResponseError,
  ErrorCodes,
  SymbolKind,
  SemanticTokensBuilder,
  InlayHintKind,
  type DocumentSymbol,
  type Location,
  type Position,
  type SemanticTokensLegend,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type * as E from '@appset-tools/engine';
import { toRange, toSpan } from '../convert';
import { URI } from '../uri';
import type { ServerState } from '../state';

/** Token types, indexed by the engine's token kinds. */
const TOKEN_TYPES: Record<E.TokenKind, string> = {
  delimiter: 'macro',
  field: 'property',
  variable: 'variable',
  function: 'function',
  keyword: 'keyword',
  string: 'string',
  number: 'number',
  comment: 'comment',
  operator: 'operator',
};
export const SEMANTIC_LEGEND: SemanticTokensLegend = { tokenTypes: [...new Set(Object.values(TOKEN_TYPES))], tokenModifiers: [] };

const SYMBOL_KINDS: Record<E.SymbolKind, SymbolKind> = {
  class: SymbolKind.Class,
  module: SymbolKind.Module,
  function: SymbolKind.Function,
  object: SymbolKind.Object,
  array: SymbolKind.Array,
  event: SymbolKind.Event,
  field: SymbolKind.Field,
  struct: SymbolKind.Struct,
};

export function registerNavigation(s: ServerState): void {
  const { connection } = s;

  const toLocation = (l: E.Location): Location | undefined => {
    const target = s.textOf(l.file);
    if (!target || !l.span) return undefined;
    const uri = l.file.includes('://') ? l.file : URI.fromPath(l.file);
    return { uri, range: toRange(target, l.span) };
  };

  connection.onDefinition((p, token) =>
    s.whenReady(p.textDocument.uri, token, null, (doc) => {
      return s.guard('definition', null, () =>
        s.service
          .definition(s.analysisOf(doc), doc.offsetAt(p.position))
          .map(toLocation)
          .filter((l): l is Location => !!l),
      );
    }),
  );

  connection.onReferences((p, token) =>
    s.whenReady(p.textDocument.uri, token, null, (doc) => {
      return s.guard('references', null, () =>
        s.service
          .references(s.analysisOf(doc), doc.offsetAt(p.position), p.context.includeDeclaration)
          .map(toLocation)
          .filter((l): l is Location => !!l),
      );
    }),
  );

  // Every request waits for its document's analysis, made in slices (state.ts): a large document
  // being parsed never holds up answers for the others.
  connection.onPrepareRename((p, token) =>
    s.whenReady(p.textDocument.uri, token, null, (doc) => {
      const r = s.guard('prepare rename', undefined, () => s.service.prepareRename(s.analysisOf(doc), doc.offsetAt(p.position)));
      if (!r) return null;
      if ('error' in r) throw new ResponseError(ErrorCodes.InvalidRequest, r.error);
      return { range: toRange(doc, r.span), placeholder: r.placeholder };
    }),
  );

  connection.onRenameRequest((p, token) => s.whenReady(p.textDocument.uri, token, null, (doc) => rename(doc, p.position, p.newName)));

  function rename(doc: TextDocument, position: Position, newName: string) {
    const r = s.guard('rename', undefined, () => s.service.rename(s.analysisOf(doc), doc.offsetAt(position), newName));
    if (!r) return null;
    if ('error' in r) throw new ResponseError(ErrorCodes.InvalidRequest, r.error);
    const changes: Record<string, { range: ReturnType<typeof toRange>; newText: string }[]> = {};
    for (const e of r.edits) {
      const target = s.textOf(e.file);
      if (!target) continue;
      (changes[target.uri] ??= []).push({ range: toRange(target, e.span), newText: e.newText });
    }
    return { changes };
  }

  registerStructure(s);
}

/** What the editor draws of a document's structure: symbols, folding, template tokens, inlay hints. */
function registerStructure(s: ServerState): void {
  const { connection } = s;

  connection.onDocumentSymbol((p, token) =>
    s.whenReady(p.textDocument.uri, token, [], (doc) => {
      return s.guard('document symbols', [], () => s.service.documentSymbols(s.analysisOf(doc)).map((x) => toSymbol(doc, x)));
    }),
  );

  connection.onFoldingRanges((p, token) =>
    s.whenReady(p.textDocument.uri, token, [], (doc) =>
      s.guard('folding ranges', [], () =>
        s.service
          .foldingRanges(s.analysisOf(doc))
          .map((r) => ({ startLine: doc.positionAt(r.start).line, endLine: doc.positionAt(r.end).line })),
      ),
    ),
  );

  connection.languages.semanticTokens.on((p, token) =>
    s.whenReady(p.textDocument.uri, token, new SemanticTokensBuilder().build(), (doc) => {
      const builder = new SemanticTokensBuilder();
      s.guard('semantic tokens', undefined, () => {
        for (const t of s.service.semanticTokens(s.analysisOf(doc))) {
          const pos = doc.positionAt(t.start);
          builder.push(pos.line, pos.character, t.length, SEMANTIC_LEGEND.tokenTypes.indexOf(TOKEN_TYPES[t.kind]), 0);
        }
      });
      return builder.build();
    }),
  );

  connection.languages.inlayHint.on((p, token) =>
    s.whenReady(p.textDocument.uri, token, [], (doc) => {
      return s.guard('inlay hints', [], () =>
        s.service.inlayHints(s.analysisOf(doc), toSpan(doc, p.range)).map((h) => ({
          position: doc.positionAt(h.offset),
          label: h.label,
          tooltip: h.tooltip,
          paddingLeft: true,
          kind: InlayHintKind.Parameter,
        })),
      );
    }),
  );
}

function toSymbol(doc: TextDocument, x: E.DocumentSymbol): DocumentSymbol {
  const range = toRange(doc, x.span);
  const sel = toRange(doc, x.selection);
  return {
    name: x.name,
    detail: x.detail,
    kind: SYMBOL_KINDS[x.kind],
    range,
    // LSP wants the selection inside the range.
    selectionRange: x.selection.start >= x.span.start && x.selection.end <= x.span.end ? sel : range,
    children: x.children?.map((c) => toSymbol(doc, c)),
  };
}
