/**
 * The web worker's file requests (protocol.ts `ClientRequests`), answered with VS Code's file system
 * API, which reads local folders, remote workspaces and virtual ones (github.dev) alike.
 */
import * as vscode from 'vscode';
import type { WebDirectoryEntry, WebFileResult } from '@appset-tools/protocol';
import { resourceOf } from './uris';

export async function readDirectory(path: string): Promise<WebDirectoryEntry[] | null> {
  try {
    const list = await vscode.workspace.fs.readDirectory(resourceOf(path));
    return list.map(([name, type]) => ({
      name,
      kind: type & vscode.FileType.Directory ? 'directory' : type & vscode.FileType.File ? 'file' : 'other',
    }));
  } catch {
    return null;
  }
}

export async function readFile(path: string, maxBytes: number): Promise<WebFileResult> {
  const uri = resourceOf(path);
  let size: number;
  try {
    const st = await vscode.workspace.fs.stat(uri);
    if (!(st.type & vscode.FileType.File)) return { skipped: 'unreadable' };
    size = st.size;
  } catch (e) {
    return { skipped: e instanceof vscode.FileSystemError && e.code === 'FileNotFound' ? 'missing' : 'unreadable' };
  }
  if (size > maxBytes) return { skipped: 'too-large', size };
  try {
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.length > maxBytes) return { skipped: 'too-large', size: bytes.length };
    // Text only, as the Node host reads (host/files.ts): a NUL byte or invalid UTF-8 is not text.
    if (bytes.includes(0)) return { skipped: 'not-text', size: bytes.length };
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), size: bytes.length };
  } catch (e) {
    return { skipped: e instanceof TypeError ? 'not-text' : 'unreadable' };
  }
}
