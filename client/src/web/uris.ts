/**
 * The URIs the web worker sees: every resource as a `file:` URI of its server path (protocol.ts
 * `webPathOf`), so the engine works with plain absolute paths whatever the workspace's scheme
 * (`vscode-vfs` on github.dev, `vscode-remote` in code-server). `untitled:` and the preview's own
 * scheme pass unchanged.
 */
import * as vscode from 'vscode';
import { fileUriOfPath, PREVIEW_SCHEME, resourceOfWebPath, webPathOf } from '@appset-tools/protocol';

const UNCHANGED = new Set(['untitled', PREVIEW_SCHEME]);

export function toServerUri(uri: vscode.Uri): string {
  if (UNCHANGED.has(uri.scheme)) return uri.toString();
  return fileUriOfPath(webPathOf(uri.scheme, uri.authority, uri.path));
}

export function fromServerUri(text: string): vscode.Uri {
  const uri = vscode.Uri.parse(text);
  return uri.scheme === 'file' ? resourceOf(uri.path) : uri;
}

/** The workspace resource a server path names. */
export function resourceOf(path: string): vscode.Uri {
  const r = resourceOfWebPath(path);
  return r.scheme === 'file' ? vscode.Uri.file(r.path) : vscode.Uri.from({ scheme: r.scheme, authority: r.authority, path: r.path });
}
