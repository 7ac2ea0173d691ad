/**
 * The one way the client sends a custom request: `protocol.ts`'s `RequestTypes` gives the params and
 * the result of each method, so a request with the wrong params, or read as the wrong result, does
 * not compile (test/unit/protocol.test.ts).
 */
import type { RequestMethod, RequestParams, RequestResult } from '@appset-tools/protocol';

/** What `request` needs of a language client (vscode-languageclient's `LanguageClient` has it). */
export interface RequestSender {
  sendRequest<R>(method: string, params: unknown): Promise<R>;
}

export function request<M extends RequestMethod>(client: RequestSender, method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
  return client.sendRequest<RequestResult<M>>(method, params);
}
