/**
 * The language server in a web worker (VS Code for the Web): the workspace is read through the
 * client (workspaceReader.ts) into a memory host (host/memoryHost.ts). The first answers wait until
 * the workspace folders were read; a file the engine asks for later is read then, and the open
 * documents are validated again. `ready` is awaited where an answer starts (lsp/handlers/publish.ts, the
 * requests' `readyFor`, lsp/state.ts `analyzed`), so nothing reads the index before that first read. The
 * worker has no git (`ServerPlatform.git`), so the "This change" lens says it has no baseline, and its host
 * sets `EngineHost.onlyOpenedRepository`, which the git generator names instead of the desktop's advice.
 * The Node server reads a virtual workspace the same way
 * (lsp/nodeMain.ts `withVirtualWorkspaces`, `clientReadPlatform` with its own words).
 */
import type { Connection } from 'vscode-languageserver/node';
import { createMemoryHost, type MemoryHost } from '../host/memoryHost';
import { ClientRequests, type WebDirectoryEntry, type WebFileResult } from '@appset-tools/protocol';
import type { ServerPlatform } from '../lsp/platform';
import { createWorkspaceReader, type WorkspaceReader } from './workspaceReader';

/** What the worker cannot read, said where a finding needs it (engine/host.ts `onlyOpenedRepository`). */
export const ONLY_OPENED_REPOSITORY = 'VS Code for the Web reads only the opened repository';

/** Where the workspace is read through the client, and what that means for the user (said where it matters). */
export interface ClientReadPlace {
  kind: ServerPlatform['kind'];
  /** engine/host.ts `onlyOpenedRepository`: why another repository cannot be read. */
  onlyOpenedRepository: string;
  /** lsp/platform.ts `noGitHistory`: why the change against the baseline is not known (undefined: impact.ts's, VS Code for the Web's). */
  noGitHistory?: string;
}

export function webPlatform(connection: Connection): ServerPlatform {
  return clientReadPlatform(connection, { kind: 'browser', onlyOpenedRepository: ONLY_OPENED_REPOSITORY });
}

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
    workspaceOf: (file) => file.slice(0, Math.max(1, file.lastIndexOf('/'))),
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
