/**
 * The one way the client sends a custom request: `protocol.ts`'s `RequestTypes` gives the params and
 * the result of each method, so a request with the wrong params, or read as the wrong result, does
 * not compile (test/unit/protocol.test.ts).
 */
import type { Uri } from 'vscode';
import type { RequestMethod, RequestParams, RequestResult } from '@appset-tools/protocol';

/** What `request` needs of a language client (vscode-languageclient's `LanguageClient` has it). */
export interface RequestSender {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
  /** The client's URI converter: the one the language client applies to its own messages (documents, lenses). */
  readonly code2ProtocolConverter?: { asUri(uri: Uri): string };
}

/**
 * The name the server knows a document by, for the params of a custom request or notification (the
 * language client converts the URIs of its own messages, not of these): in VS Code for the Web a
 * workspace resource is named by its server path (web/uris.ts), on the desktop by its URI.
 */
export function serverUri(client: RequestSender, uri: Uri): string {
  return client.code2ProtocolConverter?.asUri(uri) ?? uri.toString();
}

export function request<M extends RequestMethod>(client: RequestSender, method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
  return client.sendRequest<RequestResult<M>>(method, params);
}
