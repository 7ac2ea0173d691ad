/**
 * What the VS Code client does once it has a language client, on the desktop (extension.ts: the
 * server in a Node process) and in VS Code for the Web (web/extension.ts: the server in a web
 * worker): the preview document, the rollout view, the status bar. It never imports the engine:
 * everything it shows comes from the server, so other editors get the same answers.
 *
 * The commands lenses and quick fixes carry are the server's (`executeCommandProvider`, registered in
 * VS Code by the language client); the middleware below only puts VS Code's UI on top of four of
 * them: the preview document, the rollout view, the "This change" diff, and saving the progressive-syncs setting.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient/node';
import { CHANGE_SCHEME, Commands, PREVIEW_SCHEME } from '@appset-tools/protocol';
import { ChangeDiff } from './changeDiff';
import { PreviewProvider } from './preview';
import { RolloutView } from './rolloutView';
import { AppSetStatus } from './status';
import { ServerRestarts } from './restarts';
import { ResultsChanged } from './refresh';
import { previewOutline } from './previewOutline';
import { InputDocuments } from './inputDocuments';
import { serverUri } from './request';

/** What differs between the desktop and the web: which documents, how the client is made. */
export interface ClientHost {
  /** Which extension host runs this client: Node's (extension.ts) or the browser's web worker (web/extension.ts). */
  kind: 'node' | 'web';
  documentSelector: NonNullable<LanguageClientOptions['documentSelector']>;
  /** More client options (the web client's URI converters and middleware). */
  options?: Partial<LanguageClientOptions>;
  create(id: string, name: string, options: LanguageClientOptions): BaseLanguageClient;
  /** Called once the client runs (the web client answers the server's file requests). */
  started?(client: BaseLanguageClient): void;
  /** Restarts the server (the Node client's own restart). */
  restart?(): Promise<void>;
  /** Why the server did not start, when the host knows better than the client's error (the web worker's own error). */
  whyNotStarted?(): string | undefined;
}

export async function startClient(context: vscode.ExtensionContext, host: ClientHost): Promise<BaseLanguageClient> {
  let channel: vscode.OutputChannel | undefined;
  const restarts = new ServerRestarts((line) => channel?.appendLine(line));
  const clientOptions: LanguageClientOptions = {
    // A dead server is started again, and the user is told once (restarts.ts).
    errorHandler: restarts,
    // A failed initialize is a failed start, said once below: not the client's own messages too.
    initializationFailedHandler: () => false,
    documentSelector: host.documentSelector,
    synchronize: {
      configurationSection: 'appsetTools',
      // YAML for cluster Secrets and Argo CD configuration; everything else because the git
      // generators read JSON files and directory trees of local checkouts (the server filters).
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*'),
    },
    ...host.options,
    initializationOptions: { settings: withYamlSyntaxDefault(vscode.workspace.getConfiguration('appsetTools')), clientWatchesFiles: true },
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const r = await next(params, token);
          return Array.isArray(r) ? r.map((v, i) => (params.items[i]?.section === 'appsetTools' ? withYamlSyntaxDefault(v) : v)) : r;
        },
      },
      executeCommand: async (command, args, next) => {
        const [uri, offset] = args as [unknown, unknown];
        const at = typeof offset === 'number' ? offset : undefined;
        // A third argument (the rollout view's Application chips) reveals that Application's entry.
        if (command === Commands.showPreview && preview)
          return preview.show(target(c, uri), at, typeof args[2] === 'string' ? args[2] : undefined);
        if (command === Commands.showRollout && rollout) return rollout.show(target(c, uri), at);
        if (command === Commands.showChange && changeDiff) {
          const doc = target(c, uri);
          if (!doc || (await changeDiff.show(doc, at))) return undefined;
          // No diff to open: the server's own command says why ("not known (no git history here)", "nothing
          // changes"), rather than a sentence of ours that would be wrong in one of the cases.
          return next(command, at === undefined ? [serverUri(c, doc)] : [serverUri(c, doc), at]);
        }
        if (command === Commands.setProgressiveSyncs) {
          // Saved in the settings (the server reads them back), not only for the session.
          const scope = vscode.workspace.workspaceFolders?.length
            ? vscode.ConfigurationTarget.Workspace
            : vscode.ConfigurationTarget.Global;
          return vscode.workspace.getConfiguration('appsetTools').update('progressiveSyncs', String(uri), scope);
        }
        return next(command, args);
      },
    },
  };
  let preview: PreviewProvider | undefined;
  let rollout: RolloutView | undefined;
  let changeDiff: ChangeDiff | undefined;
  const c = host.create('appsetTools', 'ApplicationSet Tools', clientOptions);
  channel = c.outputChannel;
  await startOrSay(c, host, restarts);

  // One subscription to the server's notification, fanned out to every view (refresh.ts says why).
  const changed = new ResultsChanged(c);
  preview = new PreviewProvider(c, changed.event);
  rollout = new RolloutView(c, changed.event);
  changeDiff = new ChangeDiff(c);
  const status = new AppSetStatus(c, changed.event);
  // JSON tabs (a git generator's config.json) reach the server as text only (inputDocuments.ts).
  const inputs = new InputDocuments(c);
  context.subscriptions.push(
    changed,
    inputs,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, preview),
    // "This change": the baseline's Applications beside the current ones (changeDiff.ts).
    vscode.workspace.registerTextDocumentContentProvider(CHANGE_SCHEME, changeDiff),
    changeDiff,
    vscode.commands.registerCommand('appsetTools.changeSnapshot', () => changeDiff?.last),
    // The preview's Outline: its ApplicationSet and every Application.
    vscode.languages.registerDocumentSymbolProvider({ scheme: PREVIEW_SCHEME }, previewOutline, { label: 'Generated Applications' }),
    preview,
    rollout,
    status,
    // The preview and the rollout view follow the ApplicationSet under the cursor.
    status.onDidMove(({ uri, offset }) => {
      const at = (o: number) => status.appsetAt(uri, o);
      preview?.follow(uri, offset, at);
      rollout?.follow(uri, offset, at);
    }),
    // For the tests and the UI check: what the status bar says.
    vscode.commands.registerCommand('appsetTools.statusSnapshot', () => status.snapshot()),
    vscode.commands.registerCommand('appsetTools.rolloutSnapshot', () => rollout?.snapshot()),
    // For the tests: the notifications the client received and the preview requests it sent.
    vscode.commands.registerCommand('appsetTools.viewsSnapshot', () => ({
      resultsChanged: changed.count,
      preview: { ...preview?.stats, bySource: { ...preview?.stats.bySource }, last: { ...preview?.stats.last } },
    })),
    // For the tests: which extension host runs the client, and where its language server runs.
    vscode.commands.registerCommand('appsetTools.hostSnapshot', () => ({
      client: host.kind,
      server: (c.initializeResult?.capabilities.experimental as { platform?: string } | undefined)?.platform,
    })),
    // For the tests: what the client said about server restarts.
    vscode.commands.registerCommand('appsetTools.restartSnapshot', () => ({ deaths: restarts.count, shown: [...restarts.shown] })),
    vscode.commands.registerCommand(Commands.restartServer, async () => {
      restarts.reset();
      // The Node client restarts its process; the web client stops the worker and starts a new one
      // (after a failed start there is none to stop).
      if (host.restart && c.isRunning()) return host.restart();
      if (c.isRunning()) await c.stop();
      return startOrSay(c, host, restarts);
    }),
  );
  return c;
}

/**
 * Starts the server; a server that does not start (the web worker's script throws, the Node process
 * exits at once) is said once (restarts.ts `notStarted`) and the activation goes on: commands,
 * views and the restart command are registered, and answer nothing until a restart succeeds. The
 * host ends a start that hangs (web/extension.ts: a worker that says nothing), so this always returns.
 * The language client's own messages for the failure are kept to its output channel while starting.
 */
async function startOrSay(c: BaseLanguageClient, host: ClientHost, restarts: ServerRestarts): Promise<void> {
  restarts.starting = true;
  const error = c.error.bind(c);
  c.error = (message, data, show) => error(message, data, restarts.starting ? false : show);
  try {
    await c.start();
    host.started?.(c);
  } catch (e) {
    restarts.notStarted(host.whyNotStarted?.() ?? (e instanceof Error ? e.message : String(e)));
  } finally {
    restarts.starting = false;
    c.error = error;
  }
}

/**
 * Red Hat's YAML extension reports YAML syntax errors in every YAML file; when it is installed the
 * server leaves them to it (unless the user set appsetTools.validate.yamlSyntax), so no error shows twice.
 */
function withYamlSyntaxDefault(settings: unknown): unknown {
  const redHat = !!vscode.extensions.getExtension('redhat.vscode-yaml');
  const explicit = vscode.workspace.getConfiguration('appsetTools').inspect('validate.yamlSyntax');
  const set =
    explicit &&
    (explicit.globalValue !== undefined || explicit.workspaceValue !== undefined || explicit.workspaceFolderValue !== undefined);
  // A plain copy always: a WorkspaceConfiguration carries functions, which a web worker's messages
  // cannot carry (structured clone fails) where Node's JSON messages dropped them.
  const o = JSON.parse(JSON.stringify(settings ?? {})) as { validate?: Record<string, unknown> };
  if (!redHat || set) return o;
  o.validate = { ...(o.validate ?? {}), yamlSyntax: false };
  return o;
}

/**
 * The document a command applies to: the argument from a code lens, else the active editor. A lens's
 * argument is the server's name of the document, which the client's converter turns back into the
 * workspace resource (in VS Code for the Web a server path, web/uris.ts); an editor's URI passes unchanged.
 */
function target(client: BaseLanguageClient, uri?: unknown): vscode.Uri | undefined {
  if (typeof uri === 'string') return client.protocol2CodeConverter.asUri(uri);
  if (uri && typeof uri === 'object') return uri as vscode.Uri;
  return vscode.window.activeTextEditor?.document.uri;
}
