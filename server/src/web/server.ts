/**
 * The language server in a browser's web worker (VS Code for the Web: github.dev, vscode.dev, and
 * code-server when the extension runs in its web worker extension host). The same handlers and
 * engine as the Node server (lsp/main.ts); the workspace comes from the client (platform.ts).
 * Built by esbuild.js into dist/web/server.js, with the few Node modules the LSP layer names
 * replaced by the shims beside this file.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import { startServer } from '../lsp/main';
import { withLifecycle } from '../lsp/lifecycleGate';
import { onlyPlatform } from '../lsp/platform';
import { webPlatform } from './platform';

type WorkerScope = ConstructorParameters<typeof BrowserMessageReader>[0];
const scope = globalThis as unknown as WorkerScope;
const t = withLifecycle(new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
const connection = createConnection(ProposedFeatures.all, t.reader, t.writer);
startServer(connection, onlyPlatform(webPlatform(connection)), t.received);
