/**
 * A language server whose workspace is read through the client (VS Code's file system API, any scheme)
 * into a memory host (host/memoryHost.ts), in bounded steps (workspaceReader.ts): the web worker
 * (server/src/web/platform.ts) and the Node server on a virtual workspace (nodeMain.ts
 * `nodePlatforms`), each with its own words for what it cannot read. The first answers wait
 * until the workspace folders were read; a file the engine asks for later is read then, and the open
 * documents are validated again. `ready` is awaited where an answer starts (state.ts `firstRead`), so
 * nothing reads the index before that first read.
 */
import type { Connection } from 'vscode-languageserver/node';
import { createMemoryHost, type MemoryHost } from '../host/memoryHost';
import { ClientRequests, type WebDirectoryEntry, type WebFileResult } from '@appset-tools/protocol';
import type { ServerPlatform } from './platform';
import { createWorkspaceReader, type WorkspaceReader } from './workspaceReader';

/** Where the workspace is read through the client, and what that means for the user (said where it matters). */
export interface ClientReadPlace {
  kind: ServerPlatform['kind'];
  /** engine/host.ts `onlyOpenedRepository`: why another repository cannot be read. */
  onlyOpenedRepository: string;
  /** lsp/platform.ts `noGitHistory`: why the change against the baseline is not known (undefined: impact.ts's, VS Code for the Web's). */
  noGitHistory?: string;
}

/** The workspace of a file read through the client: its folder (no git work tree to look for). */
export const folderOf = (file: string): string => file.slice(0, Math.max(1, file.lastIndexOf('/')));

/** A platform whose host is the files the client reads for it (VS Code's file system API: any scheme). */
export function clientReadPlatform(connection: Connection, place: ClientReadPlace): ServerPlatform {
  let revalidate = (): void => undefined;
  let host: MemoryHost | undefined;
  let reader: WorkspaceReader | undefined;
  let loading: Promise<void> | undefined;
  const missing = new Set<string>();
  let missTimer: ReturnType<typeof setTimeout> | undefined;
  const log = (m: string) => connection.console.log(m);

  function readMissingSoon(): void {
    if (missTimer) return;
    missTimer = setTimeout(() => {
      missTimer = undefined;
      const paths = [...missing];
      missing.clear();
      void reader?.readMissing(paths).then(
        (any) => any && revalidate(),
        (e: unknown) => log(`could not read ${paths.length} files: ${String(e)}`),
      );
    }, 20);
  }

  return {
    kind: place.kind,
    noGitHistory: place.noGitHistory,
    attach(r) {
      revalidate = () => r.resetAndRevalidate();
    },
    createHost(roots, settings, hostLog) {
      host = createMemoryHost(
        roots,
        settings,
        hostLog,
        (p) => {
          missing.add(p);
          readMissingSoon();
        },
        place.onlyOpenedRepository,
      );
      const h = host;
      reader = createWorkspaceReader(
        {
          readDirectory: (path) => connection.sendRequest<WebDirectoryEntry[] | null>(ClientRequests.readDirectory, { path }),
          readFile: (path, maxBytes) => connection.sendRequest<WebFileResult>(ClientRequests.readFile, { path, maxBytes }),
        },
        h,
        log,
      );
      loading = undefined;
      // New roots (workspace folders added) are read when next asked.
      const update = h.updateRoots;
      h.updateRoots = (rs) => {
        update(rs);
        loading = undefined;
      };
      return h;
    },
    workspaceOf: folderOf,
    ready() {
      if (!host || !reader) return undefined;
      loading ??= reader.readRoots(host.roots()).catch((e: unknown) => log(`could not read the workspace: ${String(e)}`));
      return loading;
    },
    async refresh(paths) {
      await this.ready?.();
      await reader?.refresh(paths);
    },
  };
}
