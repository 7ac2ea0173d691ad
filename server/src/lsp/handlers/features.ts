/** Hover, code lenses, code actions and completion: each a thin mapping of the facade's answer to LSP. */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { toCodeAction, toCompletion, toRange, toSpan, fromDiagnostic } from '../convert';
import type { ServerState } from '../state';
import { impactHover, impactLenses } from '../impact';
import { URI } from '../uri';
import type { Revalidation } from './diagnostics';
import { readWholeWorkspace } from './wholeWorkspace';

export function registerFeatures(s: ServerState, revalidation: Revalidation): void {
  const { connection } = s;
  // The change's impact against the baseline (impact.ts); a failure leaves the other answers.
  const impactOf = (doc: TextDocument) => {
    const file = URI.toPath(doc.uri);
    return file
      ? s.impacts.of(s.analysisOf(doc), file, doc.getText()).catch((e: Error) => void s.log(`impact failed: ${e.stack ?? e}`))
      : undefined;
  };

  connection.onHover((p, token) =>
    s.whenReady(p.textDocument.uri, token, null, async (doc) => {
      const offset = doc.offsetAt(p.position);
      const h = s.guard('hover', undefined, () => s.service.hover(s.analysisOf(doc), offset));
      const more = impactHover(await impactOf(doc), doc, offset);
      if (!h && !more) return null;
      const value = [h?.markdown, more?.markdown].filter(Boolean).join('\n\n---\n\n');
      return { contents: { kind: 'markdown' as const, value }, range: toRange(doc, (h ?? more)!.span) };
    }),
  );

  connection.onCodeLens((p, token) =>
    s.whenReady(p.textDocument.uri, token, [], async (doc) => {
      // The lenses count Applications and waves, as the preview and the plan do: a workspace still being
      // read (after a reset by new settings too) is read first, or a lens would say "0 apps" for
      // Applications whose cluster Secrets are not read yet.
      const stale = s.requestStale(doc, token);
      if (s.service.workspace.reading && !(await readWholeWorkspace(s, revalidation, stale))) throw s.dropped(token);
      const lenses = s.guard('code lens', [], () => s.service.codeLenses(s.analysisOf(doc)));
      return [...impactLenses(await impactOf(doc), doc.uri), ...lenses].map((l) => ({
        range: toRange(doc, l.span),
        command: l.command
          ? { title: l.title, command: l.command.id, arguments: l.command.args, ...(l.tooltip ? { tooltip: l.tooltip } : {}) }
          : { title: l.title, command: '', ...(l.tooltip ? { tooltip: l.tooltip } : {}) },
      }));
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
