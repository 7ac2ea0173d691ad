/**
 * The language server: a thin LSP front over the engine's language service.
 * Transport is chosen from the command line by vscode-languageserver (`--stdio`, `--node-ipc`,
 * `--socket=N`), so VS Code (IPC) and other editors (stdio) run the same file.
 *
 * Every handler is guarded: a document that breaks a feature module yields no answer for that
 * request, never a dead server.
 */
import {
  createConnection,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ConfigurationRequest,
  type InitializeParams,
  type InitializeResult,
  type Connection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { getLanguageService, type Analysis, type LanguageService } from '../engine/service/languageService';
import { createNodeHost, type NodeHost } from '../host/nodeHost';
import { previewText } from '../engine/render/preview';
import { getRolloutPlan } from '../engine/rollout/plan';
import { toCodeAction, toCompletion, toDiagnostic, toRange, toSpan, fromDiagnostic, type TextOf } from './convert';
import { URI } from './uri';
import { readSettings, type ServerSettings, DEFAULT_SERVER_SETTINGS } from './settings';
import { Debouncer } from './debounce';
import { Overlays } from './overlays';
import { isWatchedChange, WATCH_GLOBS } from './watch';
import { limitExpensiveFunctions } from '../engine/template';

export function startServer(connection: Connection): void {
  // Diagnostics run on every keystroke: bcrypt, scrypt and RSA key generation in a template must
  // not stall them (a clear template error appears instead once the budget is used).
  limitExpensiveFunctions({ budgetMs: 4000, windowMs: 15000 });
  const documents = new TextDocuments(TextDocument);
  let host: NodeHost;
  let service: LanguageService;
  let settings: ServerSettings = DEFAULT_SERVER_SETTINGS;
  let canPullConfig = false;
  let canRefreshLenses = false;
  let registerWatchers = false;
  const overlays = new Overlays(() => service);
  const log = (m: string) => connection.console.log(m);

  const guard = <T>(what: string, fallback: T, fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      connection.console.error(`${what} failed: ${(e as Error).stack ?? e}`);
      return fallback;
    }
  };

  const analysisOf = (doc: TextDocument): Analysis => service.analyze(doc.uri, doc.getText(), URI.toPath(doc.uri));

  /** Open documents first, then files on disk (through the confined host). */
  const textOf: TextOf = (fileOrUri) => {
    const uri = fileOrUri.includes('://') ? fileOrUri : URI.fromPath(fileOrUri);
    const open = documents.get(uri);
    if (open) return open;
    const p = URI.toPath(uri);
    const text = p ? host.readFile(p) : undefined;
    return text === undefined ? undefined : TextDocument.create(uri, 'yaml', 0, text);
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const roots = (params.workspaceFolders ?? []).map((f) => URI.toPath(f.uri)).filter((p): p is string => !!p);
    if (!roots.length && params.rootUri) {
      const p = URI.toPath(params.rootUri);
      if (p) roots.push(p);
    }
    const ws = params.capabilities.workspace;
    canPullConfig = !!ws?.configuration;
    canRefreshLenses = !!ws?.codeLens?.refreshSupport;
    const init = (params.initializationOptions ?? {}) as { settings?: unknown; clientWatchesFiles?: unknown };
    // The VS Code client watches files itself (synchronize.fileEvents); other editors are asked to.
    registerWatchers = !!ws?.didChangeWatchedFiles?.dynamicRegistration && init.clientWatchesFiles !== true;
    settings = readSettings(init.settings);
    host = createNodeHost(roots, settings.engine, log);
    service = getLanguageService({ host });
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        codeLensProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: ['quickfix', 'refactor', 'source'] },
        completionProvider: { triggerCharacters: ['.', ' ', ':', '"', '$'] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'appset-tools', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    if (canPullConfig) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'appsetTools' }).catch(() => undefined);
      void refreshSettings();
    }
    if (registerWatchers) {
      void connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: WATCH_GLOBS.map((globPattern) => ({ globPattern })) })
        .catch(() => undefined);
    }
    guard('workspace folders', undefined, () =>
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        const roots = new Set(host.roots());
        for (const r of e.removed) {
          const p = URI.toPath(r.uri);
          if (p) roots.delete(p);
        }
        for (const a of e.added) {
          const p = URI.toPath(a.uri);
          if (p) roots.add(p);
        }
        host.updateRoots([...roots]);
        resetAndRevalidate();
      }),
    );
  });

  /** Settings or folders changed: every cached result may be wrong. */
  function resetAndRevalidate(): void {
    guard('reset', undefined, () => {
      service.reset();
      resyncOverlays();
    });
    revalidateAll(true);
  }

  function applySettings(raw: unknown): void {
    settings = readSettings(raw);
    host.updateSettings(settings.engine);
    resetAndRevalidate();
  }

  async function refreshSettings(): Promise<void> {
    if (!canPullConfig) return;
    try {
      const [raw] = await connection.sendRequest(ConfigurationRequest.type, { items: [{ section: 'appsetTools' }] });
      applySettings(raw);
    } catch (e) {
      log(`could not read settings: ${(e as Error).message}`);
    }
  }

  connection.onDidChangeConfiguration((change) => {
    if (canPullConfig) void refreshSettings();
    else applySettings((change.settings as { appsetTools?: unknown } | undefined)?.appsetTools);
  });

  // ---- diagnostics --------------------------------------------------------------------------
  // One debounced run per document: a newer edit cancels the pending run, and a run always reads
  // the document's current text, so results for a stale version are never computed or published.
  const debouncer = new Debouncer();

  function publish(doc: TextDocument): void {
    const diagnostics = guard('diagnostics', [], () => {
      // Keep the workspace index in step first: a change to a cluster Secret or to Argo CD's
      // configuration changes the results of every open ApplicationSet.
      const path = URI.toPath(doc.uri);
      if (overlays.sync(path, doc.getText(), () => analysisOf(doc))) scheduleOthers(doc.uri);
      const a = analysisOf(doc);
      overlays.remember(path, a);
      if (!settings.validate) return [];
      const all = service.diagnostics(a);
      // Other YAML files only get file-level findings (e.g. an ignored progressive-sync setting in
      // argocd-cmd-params-cm), never syntax errors: the YAML extension reports those.
      const shown = a.appsets.length || looksLikeAppSet(doc) ? all : all.filter((d) => !d.code.startsWith('yaml/'));
      return shown.map((d) => toDiagnostic(doc, d, textOf));
    });
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  }

  function schedule(doc: TextDocument, delayMs = settings.debounceMs): void {
    debouncer.run(doc.uri, delayMs, () => {
      const current = documents.get(doc.uri);
      if (current) publish(current);
    });
  }

  function scheduleOthers(uri: string): void {
    for (const d of documents.all()) if (d.uri !== uri) schedule(d);
    refreshLenses();
  }

  /** Re-validates every open document; `now` skips the keystroke debounce (settings, folders). */
  function revalidateAll(now = false): void {
    for (const d of documents.all()) schedule(d, now ? 0 : settings.debounceMs);
    refreshLenses();
  }

  // Lenses and hovers depend on the workspace too; clients only re-ask for lenses when told.
  const lensRefresh = new Debouncer();
  function refreshLenses(): void {
    if (!canRefreshLenses) return;
    lensRefresh.run('all', Math.max(settings.debounceMs, 50), () => void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined));
  }

  function resyncOverlays(): void {
    overlays.resync(documents.all().map((d) => ({ path: URI.toPath(d.uri), text: d.getText() })));
  }

  documents.onDidOpen((e) => schedule(e.document, 0));
  documents.onDidChangeContent((e) => schedule(e.document));
  documents.onDidClose((e) => {
    debouncer.cancel(e.document.uri);
    guard('close', undefined, () => overlays.close(URI.toPath(e.document.uri)));
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    // A closed cluster Secret reverts to its saved version for the other documents.
    if (!looksLikeAppSet(e.document)) scheduleOthers(e.document.uri);
  });

  connection.onDidChangeWatchedFiles((e) => {
    guard('watched files', undefined, () => {
      let changed = false;
      for (const c of e.changes) {
        const p = URI.toPath(c.uri);
        // Open documents are overlays: their editor text wins over the file on disk.
        if (!p || documents.get(c.uri) || !isWatchedChange(p, c.type)) continue;
        service.workspace.invalidate(p);
        changed = true;
      }
      if (changed) revalidateAll();
    });
  });

  // ---- features -----------------------------------------------------------------------------
  connection.onHover((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (!doc) return null;
    return guard('hover', null, () => {
      const h = service.hover(analysisOf(doc), doc.offsetAt(p.position));
      return h ? { contents: { kind: 'markdown' as const, value: h.markdown }, range: toRange(doc, h.span) } : null;
    });
  });

  connection.onCodeLens((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (!doc) return [];
    return guard('code lens', [], () =>
      service.codeLenses(analysisOf(doc)).map((l) => ({
        range: toRange(doc, l.span),
        command: l.command ? { title: l.title, command: l.command.id, arguments: l.command.args } : { title: l.title, command: '' },
      })),
    );
  });

  connection.onCodeAction((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (!doc) return [];
    return guard('code actions', [], () => {
      const diags = p.context.diagnostics.filter((d) => d.source === 'appset').map((d) => fromDiagnostic(doc, d));
      const actions = service.codeActions(analysisOf(doc), toSpan(doc, p.range), diags).map((a) => toCodeAction(a, doc, textOf));
      const only = p.context.only;
      return only?.length ? actions.filter((a) => only.some((k) => a.kind === k || (a.kind ?? '').startsWith(k + '.'))) : actions;
    });
  });

  connection.onCompletion((p) => {
    const doc = documents.get(p.textDocument.uri);
    if (!doc) return [];
    return guard('completion', [], () => service.completions(analysisOf(doc), doc.offsetAt(p.position)).map((c) => toCompletion(doc, c)));
  });

  // ---- custom requests (used by the VS Code client's preview and rollout view) ---------------
  interface DocRequest {
    uri: string;
    offset?: number;
  }
  const contextFor = (r: DocRequest) => {
    // An edit typed a moment ago in another document (a cluster Secret) counts, even before its
    // debounced run: the client refreshes its views right after edits.
    for (const d of documents.all()) if (overlays.sync(URI.toPath(d.uri), d.getText(), () => analysisOf(d))) scheduleOthers(d.uri);
    if (typeof r?.uri !== 'string') return undefined;
    const doc = documents.get(r.uri) ?? textOf(r.uri);
    if (!doc) return undefined;
    return service.appsetAt(analysisOf(doc), typeof r.offset === 'number' && r.offset >= 0 ? r.offset : undefined);
  };

  connection.onRequest('appsetTools/preview', (r: DocRequest) =>
    guard('preview', null, () => {
      const ctx = contextFor(r);
      if (!ctx) return null;
      const exp = ctx.expansion();
      return { name: ctx.doc.name, yaml: previewText(ctx.doc.name, exp), apps: exp.apps.length, notes: exp.notes, exact: exp.exact };
    }),
  );

  connection.onRequest('appsetTools/rolloutPlan', (r: DocRequest) =>
    guard('rollout plan', null, () => {
      const ctx = contextFor(r);
      return ctx ? getRolloutPlan(ctx) : null;
    }),
  );

  documents.listen(connection);
  connection.listen();
}

function looksLikeAppSet(doc: TextDocument): boolean {
  return /^\s*kind:\s*["']?ApplicationSet\b/m.test(doc.getText());
}

/** Starts the server on the transport named on the command line (`--stdio`, `--node-ipc`, `--socket=N`). */
export function runFromCommandLine(): void {
  startServer(createConnection(ProposedFeatures.all));
}
