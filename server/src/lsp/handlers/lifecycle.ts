/** initialize / initialized, settings and workspace folders. */
import {
  ConfigurationRequest,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  type InitializeParams,
  type InitializeResult,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import { getLanguageService } from '@appset-tools/engine';
import { readSettings } from '../settings';
import { URI } from '../uri';
import { WATCH_GLOBS } from '../watch';
import type { ServerState } from '../state';
import type { Revalidation } from './diagnostics';
import type { Overrides } from './requests';
import { SERVER_COMMANDS } from '@appset-tools/protocol';
import { PRODUCT_NAME, PRODUCT_VERSION } from '../../product';
import { SEMANTIC_LEGEND } from './navigation';

export function registerLifecycle(s: ServerState, revalidation: Revalidation): Overrides {
  const { connection } = s;
  // Settings a command changed for this session (they win until the client sends new settings).
  let overrides: Record<string, unknown> = {};
  let lastRaw: unknown;
  // The editor named no workspace (no folders, no rootUri): each opened document's own is added.
  let rootless = false;

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const roots = (params.workspaceFolders ?? []).map((f) => URI.toPath(f.uri)).filter((p): p is string => !!p);
    if (!roots.length && params.rootUri) {
      const p = URI.toPath(params.rootUri);
      if (p) roots.push(p);
    }
    rootless = roots.length === 0;
    const ws = params.capabilities.workspace;
    const init = (params.initializationOptions ?? {}) as { settings?: unknown; appsetTools?: unknown; clientWatchesFiles?: unknown };
    s.client = {
      pullConfig: !!ws?.configuration,
      // Neovim before 0.11 and others offer no dynamic registration: registering would only be refused.
      registerConfigChanges: !!ws?.didChangeConfiguration?.dynamicRegistration,
      refreshLenses: !!ws?.codeLens?.refreshSupport,
      // The VS Code client watches files itself (synchronize.fileEvents); other editors are asked to.
      registerWatchers: !!ws?.didChangeWatchedFiles?.dynamicRegistration && init.clientWatchesFiles !== true,
      showDocument: !!params.capabilities.window?.showDocument?.support,
      workspaceFolders: !!ws?.workspaceFolders,
    };
    lastRaw = init.settings ?? init.appsetTools;
    s.settings = readSettings(init.settings ?? init.appsetTools);
    s.choosePlatform(roots).attach?.(revalidation);
    s.host = s.platform.createHost(roots, s.settings.engine, s.log);
    // (Keyed by the roots: none without a workspace, whose roots come one document at a time.)
    s.workspaceCache = rootless ? undefined : s.platform.workspaceCache?.(roots);
    s.service = getLanguageService({ host: s.host, deferWorkspaceScan: true, workspaceCache: s.workspaceCache });
    return {
      // Where the server runs (a Node process or a browser's web worker): the client's tests read it.
      capabilities: { ...serverCapabilities(), experimental: { platform: s.platform.kind } },
      serverInfo: { name: PRODUCT_NAME, version: PRODUCT_VERSION },
    };
  });

  connection.onInitialized(() => {
    if (s.client.pullConfig && s.client.registerConfigChanges) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'appsetTools' }).catch(() => undefined);
    }
    if (s.client.pullConfig) void refreshSettings();
    if (s.client.registerWatchers) {
      void connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: WATCH_GLOBS.map((globPattern) => ({ globPattern })) })
        .catch(() => undefined);
    }
    // Asked of a client that does not send them, vscode-languageserver throws: the failure, logged with
    // its stack, cost every start 9 ms before the first document was read (issue 39).
    if (s.client.workspaceFolders) followWorkspaceFolders(s, revalidation);
  });
  rootOpenedDocuments(s, revalidation, () => rootless);

  function applySettings(raw: unknown): void {
    lastRaw = raw;
    const base = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const next = readSettings({ ...base, ...overrides });
    // The same settings again (the pull after `initialized`, a client announcing what it sent at
    // start): nothing to reset. A reset drops every analysis and re-reads the workspace, so a document
    // opened meanwhile would have its first answer computed twice.
    if (JSON.stringify(next) === JSON.stringify(s.settings)) return;
    s.settings = next;
    s.host.updateSettings(s.settings.engine);
    revalidation.resetAndRevalidate();
  }

  async function refreshSettings(): Promise<void> {
    if (!s.client.pullConfig) return;
    try {
      const [raw] = await connection.sendRequest(ConfigurationRequest.type, { items: [{ section: 'appsetTools' }] });
      applySettings(raw);
    } catch (e) {
      s.log(`could not read settings: ${(e as Error).message}`);
    }
  }

  connection.onDidChangeConfiguration((change) => {
    // New settings from the user replace what a command set for the session.
    overrides = {};
    if (s.client.pullConfig) void refreshSettings();
    else applySettings((change.settings as { appsetTools?: unknown } | undefined)?.appsetTools);
  });

  return {
    setOverride(key, value) {
      overrides = { ...overrides, [key]: value };
      applySettings(lastRaw);
    },
  };
}

/** What the server answers, announced at `initialize`. */
function serverCapabilities(): InitializeResult['capabilities'] {
  return {
    textDocumentSync: TextDocumentSyncKind.Incremental,
    hoverProvider: true,
    codeLensProvider: { resolveProvider: false },
    codeActionProvider: { codeActionKinds: ['quickfix', 'refactor', 'source'] },
    completionProvider: { triggerCharacters: ['.', ' ', ':', '"', '$'] },
    executeCommandProvider: { commands: [...SERVER_COMMANDS] },
    definitionProvider: true,
    referencesProvider: true,
    renameProvider: { prepareProvider: true },
    documentSymbolProvider: { label: 'ApplicationSet' },
    foldingRangeProvider: true,
    semanticTokensProvider: { legend: SEMANTIC_LEGEND, full: true },
    inlayHintProvider: true,
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  };
}

/** The workspace roots follow the editor's folders (registered once initialized). */
function followWorkspaceFolders(s: ServerState, revalidation: Revalidation): void {
  const { connection } = s;
  s.guard('workspace folders', undefined, () =>
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      const roots = new Set(s.host.roots());
      for (const r of e.removed) {
        const p = URI.toPath(r.uri);
        if (p) roots.delete(p);
      }
      for (const a of e.added) {
        const p = URI.toPath(a.uri);
        if (p) roots.add(p);
      }
      s.host.updateRoots([...roots]);
      revalidation.resetAndRevalidate();
    }),
  );
}

function rootOpenedDocuments(s: ServerState, revalidation: Revalidation, rootless: () => boolean): void {
  // Without a workspace nothing beside the file would be read (0 Applications, a false generator/empty):
  // the document's git work tree, else its folder, becomes a root, as the CLI roots its inputs.
  s.documents.onDidOpen((e) => {
    if (!rootless()) return;
    const file = URI.toPath(e.document.uri);
    if (!file) return;
    s.guard('workspace of a document', undefined, () => {
      const roots = s.host.roots();
      if (roots.some((r) => file === r || file.startsWith(r.endsWith('/') ? r : r + '/'))) return;
      s.host.updateRoots([...roots, s.platform.workspaceOf(file)]);
      revalidation.resetAndRevalidate();
    });
  });
}
