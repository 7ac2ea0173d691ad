/**
 * A host over files held in memory: the language server in a web worker (VS Code for the Web) has
 * no file system, so its client reads the workspace with VS Code's file system API and the worker
 * keeps what was read here (server/src/lsp/workspaceReader.ts fills it). Reads are answered
 * synchronously, as the engine asks them; a file that was listed but not read yet is reported to
 * `onMiss`, so that it is read and the answers that asked for it are computed again.
 *
 * Like the Node host, reads outside the workspace roots are refused (no `..`, nothing above a root).
 */
import { DEFAULT_SETTINGS, type EngineSettings, type FileStat, type GitRemote } from '@appset-tools/engine';
import { resourceOfWebPath, type WebDirectoryEntry, type WebFileResult } from '@appset-tools/protocol';
import type { WorkspaceHost } from './workspaceHost';

export interface MemoryHost extends WorkspaceHost {
  /** A folder's entries as the client listed them; undefined when it is not a readable folder. */
  setDirectory(path: string, entries: readonly WebDirectoryEntry[] | undefined): void;
  /** A file as the client read it (its text, or why it was not read). */
  setFile(path: string, file: WebFileResult): void;
  /** The file or folder is gone. */
  remove(path: string): void;
  /** Whether a folder was listed already. */
  listed(path: string): boolean;
}

type Entry = { kind: 'directory'; names: string[] } | { kind: 'file'; file?: WebFileResult } | { kind: 'other' };

export function createMemoryHost(
  roots: string[],
  settings: Partial<EngineSettings> = {},
  log?: (message: string) => void,
  onMiss?: (path: string) => void,
  onlyOpenedRepository?: string,
): MemoryHost {
  let current: EngineSettings = { ...DEFAULT_SETTINGS, ...settings };
  let rootList = roots.map(trimSlash);
  const entries = new Map<string, Entry>();
  // A file's version stands for its modification time (the engine's caches are keyed on it).
  const versions = new Map<string, number>();
  let clock = 1;

  const inside = (p: string): boolean =>
    !p.split('/').some((seg) => seg === '..' || seg === '.') && rootList.some((r) => p === r || p.startsWith(r === '/' ? '/' : r + '/'));

  const parentOf = (p: string): string => p.slice(0, Math.max(1, p.lastIndexOf('/')));
  const nameOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

  function addToParent(p: string, kind: Entry['kind']): void {
    const parent = entries.get(parentOf(p));
    if (parent?.kind === 'directory' && !parent.names.includes(nameOf(p))) parent.names = [...parent.names, nameOf(p)].sort();
    if (!entries.has(p)) entries.set(p, kind === 'directory' ? { kind, names: [] } : kind === 'file' ? { kind } : { kind });
  }

  return {
    onlyOpenedRepository,
    roots: () => [...rootList],
    readFile(p) {
      if (!inside(p)) return undefined;
      const e = entries.get(p);
      if (e?.kind !== 'file') return undefined;
      if (e.file?.text !== undefined) return e.file.text;
      if (e.file?.skipped) log?.(`not read: ${p}: ${e.file.skipped}`);
      else onMiss?.(p);
      return undefined;
    },
    stat(p): FileStat | undefined {
      if (!inside(p)) return undefined;
      const e = entries.get(p);
      if (!e || e.kind === 'other') return undefined;
      const mtimeMs = versions.get(p) ?? 0;
      if (e.kind === 'directory') return { isFile: false, isDirectory: true, mtimeMs, size: 0 };
      const size = e.file?.size ?? (e.file?.text !== undefined ? utf8Length(e.file.text) : 0);
      return { isFile: true, isDirectory: false, mtimeMs, size };
    },
    readDir(p) {
      if (!inside(p)) return undefined;
      const e = entries.get(p);
      return e?.kind === 'directory' ? [...e.names] : undefined;
    },
    gitRemotes: () => rootList.flatMap(remoteOf),
    settings: () => current,
    log,
    updateSettings(s) {
      current = { ...DEFAULT_SETTINGS, ...s };
    },
    updateRoots(rs) {
      rootList = rs.map(trimSlash);
    },
    setDirectory(p, list) {
      if (!list) {
        entries.delete(p);
        return;
      }
      entries.set(p, { kind: 'directory', names: list.map((x) => x.name).sort() });
      versions.set(p, clock++);
      for (const x of list) {
        const child = p === '/' ? '/' + x.name : `${p}/${x.name}`;
        const known = entries.get(child);
        if (known?.kind !== x.kind) entries.set(child, x.kind === 'directory' ? { kind: 'directory', names: [] } : { kind: x.kind });
      }
    },
    setFile(p, file) {
      if (file.skipped === 'missing') return this.remove(p);
      addToParent(p, 'file');
      entries.set(p, { kind: 'file', file });
      versions.set(p, clock++);
    },
    remove(p) {
      for (const k of [...entries.keys()]) if (k === p || k.startsWith(p + '/')) entries.delete(k);
      const parent = entries.get(parentOf(p));
      if (parent?.kind === 'directory') parent.names = parent.names.filter((n) => n !== nameOf(p));
      versions.set(parentOf(p), clock++);
    },
    listed(p) {
      const e = entries.get(p);
      return e?.kind === 'directory' && versions.has(p);
    },
  };
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/**
 * github.dev and vscode.dev open a GitHub repository as `vscode-vfs://github/<owner>/<repo>`: that is
 * its remote, so a git generator naming the repository reads the opened files (as a checkout's
 * `origin` does in the Node host, gitRemotes.ts).
 */
function remoteOf(root: string): GitRemote[] {
  const r = resourceOfWebPath(root);
  const m = /^\/([^/]+)\/([^/]+)$/.exec(r.path);
  if (r.scheme !== 'vscode-vfs' || r.authority !== 'github' || !m) return [];
  return [{ root, name: 'origin', url: `https://github.com/${m[1]}/${m[2]}` }];
}

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
