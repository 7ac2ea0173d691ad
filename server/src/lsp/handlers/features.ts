/** Hover, code lenses, code actions and completion: each a thin mapping of the facade's answer to LSP. */
import { toCodeAction, toCompletion, toRange, toSpan, fromDiagnostic } from '../convert';
import type { ServerState } from '../state';

export function registerFeatures(s: ServerState): void {
  const { connection } = s;

  connection.onHover((p, token) =>
    s.whenReady(p.textDocument.uri, token, null, (doc) => {
      return s.guard('hover', null, () => {
        const h = s.service.hover(s.analysisOf(doc), doc.offsetAt(p.position));
        return h ? { contents: { kind: 'markdown' as const, value: h.markdown }, range: toRange(doc, h.span) } : null;
      });
    }),
  );

  connection.onCodeLens((p, token) =>
    s.whenReady(p.textDocument.uri, token, [], (doc) => {
      return s.guard('code lens', [], () =>
        s.service.codeLenses(s.analysisOf(doc)).map((l) => ({
          range: toRange(doc, l.span),
          command: l.command
            ? { title: l.title, command: l.command.id, arguments: l.command.args, ...(l.tooltip ? { tooltip: l.tooltip } : {}) }
            : { title: l.title, command: '', ...(l.tooltip ? { tooltip: l.tooltip } : {}) },
        })),
      );
    }),
  );

  connection.onCodeAction((p, token) =>
    s.whenReady(p.textDocument.uri, token, [], (doc) => {
      return s.guard('code actions', [], () => {
        const diags = p.context.diagnostics.filter((d) => d.source === 'appset').flatMap((d) => fromDiagnostic(doc, d) ?? []);
        const actions = s.service.codeActions(s.analysisOf(doc), toSpan(doc, p.range), diags).map((a) => toCodeAction(a, doc, s.textOf));
        const only = p.context.only;
        return only?.length ? actions.filter((a) => only.some((k) => a.kind === k || (a.kind ?? '').startsWith(k + '.'))) : actions;
      });
    }),
  );

  connection.onCompletion((p, token) =>
    s.whenReady(p.textDocument.uri, token, [], (doc) => {
      return s.guard('completion', [], () =>
        s.service.completions(s.analysisOf(doc), doc.offsetAt(p.position)).map((c) => toCompletion(doc, c)),
      );
    }),
  );
}
