/**
 * What every handler shares: the connection, the open documents, the engine and the client's
 * capabilities. One `ServerState` per server; the handlers in `handlers/` register themselves on it.
 */
import type { Connection } from 'vscode-languageserver/node';
import { TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analysis, LanguageService } from '../engine';
import type { NodeHost } from '../host/nodeHost';
import type { TextOf } from './convert';
import { DEFAULT_SERVER_SETTINGS, type ServerSettings } from './settings';
import { URI } from './uri';

export interface ClientCapabilities {
  /** The client answers workspace/configuration. */
  pullConfig: boolean;
  /** The client accepts a dynamic registration for didChangeConfiguration. */
  registerConfigChanges: boolean;
  /** The client re-asks for lenses on workspace/codeLens/refresh. */
  refreshLenses: boolean;
  /** We ask the client to watch files (it supports dynamic registration and does not watch itself). */
  registerWatchers: boolean;
}

export class ServerState {
  readonly documents = new TextDocuments(TextDocument);
  host!: NodeHost;
  service!: LanguageService;
  settings: ServerSettings = DEFAULT_SERVER_SETTINGS;
  client: ClientCapabilities = { pullConfig: false, registerConfigChanges: false, refreshLenses: false, registerWatchers: false };

  constructor(readonly connection: Connection) {}

  log = (message: string): void => this.connection.console.log(message);

  /** Runs one handler's work; a failure is logged and answered with `fallback`, never kills the server. */
  guard<T>(what: string, fallback: T, fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      this.connection.console.error(`${what} failed: ${(e as Error).stack ?? e}`);
      return fallback;
    }
  }

  analysisOf(doc: TextDocument): Analysis {
    return this.service.analyze(doc.uri, doc.getText(), URI.toPath(doc.uri));
  }

  /** Open documents first, then files on disk (through the confined host). */
  textOf: TextOf = (fileOrUri) => {
    const uri = fileOrUri.includes('://') ? fileOrUri : URI.fromPath(fileOrUri);
    const open = this.documents.get(uri);
    if (open) return open;
    const p = URI.toPath(uri);
    const text = p ? this.host.readFile(p) : undefined;
    return text === undefined ? undefined : TextDocument.create(uri, 'yaml', 0, text);
  };
}
