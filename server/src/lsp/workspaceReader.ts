/**
 * Reads the workspace through the client into a memory host (host/memoryHost.ts): the web worker's, or
 * the Node server's on a virtual workspace —
 * in bounded steps: the folders breadth-first (skipping the folders every scan skips, rules/folders.ts,
 * and hidden ones, as the workspace index does), every YAML and JSON file at once (the workspace index
 * reads them all: cluster Secrets, Argo CD's configuration, git generators' config files), and any
 * other file when the engine first asks for it (`readMissing`: a kustomize `envs:` file, a Terraform file).
 * A limit reached is said once in the log, with what was not read.
 */
import { SKIPPED_FOLDERS } from '@appset-tools/engine';
import type { MemoryHost } from '../host/memoryHost';
import type { WebDirectoryEntry, WebFileResult } from '@appset-tools/protocol';

/** What one read of the workspace may take; the Node host's per-file limit is host/files.ts MAX_READ_BYTES. */
export const WEB_READ_LIMITS = {
  /**
   * Folders listed: as many as the engine's own workspace scan may walk (engine/workspace/index.ts
   * MAX_SCAN_ENTRIES, every folder at least one entry), so the engine's cap, which it says in its
   * findings, comes first. A folder this reader left unlisted would look empty to the engine, and
   * what is in it missing instead of not read. Files over the limits below are kept as not read
   * (`setFile` with `skipped`), which the engine says ("... was not read").
   */
  folders: 50_000,
  /** Files read (YAML and JSON at once, the others when asked). */
  files: 5000,
  /** Bytes read in all. */
  bytes: 64 * 1024 * 1024,
  /** Bytes of one file (the Node host's MAX_READ_BYTES). */
  fileBytes: 2 * 1024 * 1024,
  /** Requests to the client at once. */
  parallel: 8,
} as const;

export interface WorkspaceFiles {
  readDirectory(path: string): Promise<WebDirectoryEntry[] | null>;
  readFile(path: string, maxBytes: number): Promise<WebFileResult>;
}

const READ_AT_ONCE = /\.(ya?ml|json)$/i;

export interface WorkspaceReader {
  /** Lists and reads the roots not read yet. */
  readRoots(roots: string[]): Promise<void>;
  /** Reads files the engine asked for and did not have; true when one was read. */
  readMissing(paths: string[]): Promise<boolean>;
  /** Reads files and folders again after the editor said they changed. */
  refresh(paths: string[]): Promise<void>;
}

export function createWorkspaceReader(files: WorkspaceFiles, host: MemoryHost, log: (m: string) => void): WorkspaceReader {
  let folders = 0;
  let read = 0;
  let bytes = 0;
  const said = new Set<string>();
  const once = (key: string, line: string) => {
    if (said.has(key)) return;
    said.add(key);
    log(line);
  };

  async function readFile(p: string): Promise<boolean> {
    if (read >= WEB_READ_LIMITS.files || bytes >= WEB_READ_LIMITS.bytes) {
      once(
        'files',
        `the workspace has more than the web worker reads (${WEB_READ_LIMITS.files} files, ${WEB_READ_LIMITS.bytes / 1048576} MiB): ${p} and later files were not read`,
      );
      host.setFile(p, { skipped: 'too-large' });
      return false;
    }
    read++;
    const r = await files.readFile(p, WEB_READ_LIMITS.fileBytes);
    bytes += r.text?.length ?? 0;
    host.setFile(p, r);
    return r.text !== undefined;
  }

  async function listFolder(dir: string, queue: string[], reads: string[]): Promise<void> {
    if (folders >= WEB_READ_LIMITS.folders) {
      once('folders', `the workspace has more than ${WEB_READ_LIMITS.folders} folders: ${dir} and later folders were not read`);
      return;
    }
    folders++;
    const list = await files.readDirectory(dir);
    host.setDirectory(dir, list ?? undefined);
    for (const e of list ?? []) {
      const child = dir === '/' ? '/' + e.name : `${dir}/${e.name}`;
      if (e.kind === 'directory' && !SKIPPED_FOLDERS.has(e.name) && !e.name.startsWith('.')) queue.push(child);
      else if (e.kind === 'file' && READ_AT_ONCE.test(e.name)) reads.push(child);
    }
  }

  return {
    async readRoots(roots) {
      const queue = roots.filter((r) => !host.listed(r));
      while (queue.length) {
        const batch = queue.splice(0, WEB_READ_LIMITS.parallel);
        const reads: string[] = [];
        await Promise.all(batch.map((d) => listFolder(d, queue, reads)));
        for (let i = 0; i < reads.length; i += WEB_READ_LIMITS.parallel)
          await Promise.all(reads.slice(i, i + WEB_READ_LIMITS.parallel).map(readFile));
      }
    },
    async readMissing(paths) {
      let any = false;
      for (let i = 0; i < paths.length; i += WEB_READ_LIMITS.parallel) {
        const got = await Promise.all(paths.slice(i, i + WEB_READ_LIMITS.parallel).map(readFile));
        any = any || got.some(Boolean);
      }
      return any;
    },
    async refresh(paths) {
      for (const p of paths) {
        const r = await files.readFile(p, WEB_READ_LIMITS.fileBytes);
        if (r.skipped === 'missing' || r.skipped === 'unreadable') {
          // Gone, or a folder: list it again if it is one.
          const list = await files.readDirectory(p);
          if (list) host.setDirectory(p, list);
          else host.remove(p);
        } else host.setFile(p, r);
      }
    },
  };
}
