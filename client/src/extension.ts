/**
 * The VS Code client: starts the bundled language server over IPC and adds the editor-only parts
 * (the preview document, the rollout view, commands). It never imports the engine: everything it
 * shows comes from the server, so other editors get the same answers.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { Commands, PREVIEW_SCHEME } from '../../server/src/protocol';
import { PreviewProvider } from './preview';
import { RolloutView } from './rolloutView';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'untitled', language: 'yaml' },
    ],
    synchronize: {
      configurationSection: 'appsetTools',
      // YAML for cluster Secrets and Argo CD configuration; everything else because the git
      // generators read JSON files and directory trees of local checkouts (the server filters).
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*'),
    },
    initializationOptions: { settings: vscode.workspace.getConfiguration('appsetTools'), clientWatchesFiles: true },
  };
  client = new LanguageClient('appsetTools', 'ApplicationSet Tools', serverOptions, clientOptions);
  await client.start();
  const c = client;

  const preview = new PreviewProvider(c);
  const rollout = new RolloutView(c);
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, preview),
    preview,
    rollout,
    vscode.commands.registerCommand(Commands.showPreview, (uri?: string, offset?: number) => preview.show(target(uri), offset)),
    vscode.commands.registerCommand(Commands.showRollout, (uri?: string, offset?: number) => rollout.show(target(uri), offset)),
    vscode.commands.registerCommand(Commands.restartServer, () => c.restart()),
    vscode.commands.registerCommand(Commands.setProgressiveSyncs, async (value: string) => {
      const scope = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
      await vscode.workspace.getConfiguration('appsetTools').update('progressiveSyncs', value, scope);
    }),
  );
}

/** The document a command applies to: the argument from a code lens, else the active editor. */
function target(uri?: string): vscode.Uri | undefined {
  if (typeof uri === 'string') return vscode.Uri.parse(uri);
  if (uri && typeof uri === 'object') return uri as vscode.Uri;
  return vscode.window.activeTextEditor?.document.uri;
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
