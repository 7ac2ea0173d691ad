/**
 * The preview's outline: the ApplicationSet and, under it, one entry per generated Application (its
 * `metadata.name`, with where its parameter set came from as the detail), so a 540-Application preview
 * can be navigated from the Outline view and breadcrumbs. It reads the preview text the server wrote
 * (expand/preview.ts: a `# Preview of ApplicationSet "…"` header, then `---`-separated Applications,
 * each after its `# from:` comment); it decides nothing.
 */
import * as vscode from 'vscode';

/** The preview's first line, as expand/preview.ts writes it: the ApplicationSet's name and what it generates. */
export function previewHeader(firstLine: string): { name: string; summary: string } | undefined {
  const head = /^# Preview of ApplicationSet "(.*)": (.*)$/.exec(firstLine);
  return head ? { name: head[1], summary: head[2] } : undefined;
}

export function previewSymbols(doc: vscode.TextDocument): vscode.DocumentSymbol[] {
  const lines = doc.getText().split('\n');
  const head = previewHeader(lines[0] ?? '');
  if (!head) return [];
  const end = new vscode.Position(Math.max(0, lines.length - 1), (lines[lines.length - 1] ?? '').length);
  const root = new vscode.DocumentSymbol(
    head.name,
    head.summary,
    vscode.SymbolKind.Namespace,
    new vscode.Range(new vscode.Position(0, 0), end),
    new vscode.Range(new vscode.Position(0, 0), new vscode.Position(0, lines[0].length)),
  );
  let start = -1;
  let name: { line: number; text: string } | undefined;
  let from = '';
  let inMetadata = false;
  const close = (last: number) => {
    if (start < 0 || !name) return;
    const range = new vscode.Range(new vscode.Position(start, 0), new vscode.Position(last, (lines[last] ?? '').length));
    const sel = new vscode.Range(new vscode.Position(name.line, 8), new vscode.Position(name.line, (lines[name.line] ?? '').length));
    root.children.push(new vscode.DocumentSymbol(name.text, from, vscode.SymbolKind.Object, range.union(sel), sel));
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l === '---') {
      close(i - 1);
      start = i;
      name = undefined;
      from = '';
      inMetadata = false;
    } else if (start >= 0) {
      if (l.startsWith('# from: ')) from = l.slice(8);
      else if (/^\S/.test(l)) inMetadata = l === 'metadata:';
      else if (inMetadata && !name && l.startsWith('  name: ')) name = { line: i, text: l.slice(8).replace(/^(["'])(.*)\1$/, '$2') };
    }
  }
  close(lines.length - 1);
  return [root];
}

export const previewOutline: vscode.DocumentSymbolProvider = {
  provideDocumentSymbols: (doc) => previewSymbols(doc),
};
