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

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  let host: NodeHost;
  let service: LanguageService;
  let settings: ServerSettings = DEFAULT_SERVER_SETTINGS;
  let canPullConfig = false;
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
    canPullConfig = !!params.capabilities.workspace?.configuration;
    settings = readSettings((params.initializationOptions as { settings?: unknown } | undefined)?.settings);
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
    connection.workspace.onDidChangeWorkspaceFolders?.((e) => {
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
      service.reset();
      revalidateAll();
    });
  });

  async function refreshSettings(): Promise<void> {
    if (!canPullConfig) return;
    try {
      const raw = await connection.workspace.getConfiguration('appsetTools');
      settings = readSettings(raw);
      host.updateSettings(settings.engine);
      service.reset();
      syncOverlays();
      revalidateAll();
    } catch (e) {
      log(`could not read settings: ${(e as Error).message}`);
    }
  }

  connection.onDidChangeConfiguration((change) => {
    if (canPullConfig) void refreshSettings();
    else {
      const s = (change.settings as { appsetTools?: unknown } | undefined)?.appsetTools;
      settings = readSettings(s);
      host.updateSettings(settings.engine);
      service.reset();
      syncOverlays();
      revalidateAll();
    }
  });

  // ---- diagnostics --------------------------------------------------------------------------
  const debouncer = new Debouncer();

  function publish(doc: TextDocument): void {
    const diagnostics = guard('diagnostics', [], () => {
      if (!settings.validate) return [];
      const a = analysisOf(doc);
      if (!a.appsets.length && !/^\s*kind:\s*["']?ApplicationSet\b/m.test(doc.getText())) return [];
      return service.diagnostics(a).map((d) => toDiagnostic(doc, d, textOf));
    });
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
  }

  function schedule(doc: TextDocument, immediate = false): void {
    debouncer.run(doc.uri, immediate ? 0 : settings.debounceMs, () => {
      const current = documents.get(doc.uri);
      if (current) publish(current);
    });
  }

  function revalidateAll(): void {
    for (const d of documents.all()) schedule(d, true);
  }

  function syncOverlays(): void {
    for (const d of documents.all()) {
      const p = URI.toPath(d.uri);
      if (p) service.workspace.setOverlay(p, d.getText());
    }
  }

  documents.onDidOpen((e) => {
    const p = URI.toPath(e.document.uri);
    if (p) service.workspace.setOverlay(p, e.document.getText());
    schedule(e.document, true);
  });
  documents.onDidChangeContent((e) => {
    const p = URI.toPath(e.document.uri);
    const before = service.workspace.version;
    if (p) service.workspace.setOverlay(p, e.document.getText());
    schedule(e.document);
    // A change to a cluster Secret or an Argo CD config file changes other documents' results.
    if (service.workspace.version !== before && !looksLikeAppSet(e.document)) {
      for (const d of documents.all()) if (d.uri !== e.document.uri) schedule(d);
    }
  });
  documents.onDidClose((e) => {
    debouncer.cancel(e.document.uri);
    const p = URI.toPath(e.document.uri);
    if (p) service.workspace.setOverlay(p, undefined);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onDidChangeWatchedFiles((e) => {
    for (const c of e.changes) {
      const p = URI.toPath(c.uri);
      if (p && !documents.get(c.uri)) service.workspace.invalidate(p);
    }
    service.workspace.invalidate();
    revalidateAll();
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
    const doc = documents.get(r.uri) ?? textOf(r.uri);
    if (!doc) return undefined;
    return service.appsetAt(analysisOf(doc), r.offset);
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

startServer(createConnection(ProposedFeatures.all));
