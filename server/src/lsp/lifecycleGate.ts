/**
 * The LSP lifecycle, enforced on every incoming message before any handler sees it, whatever the
 * transport (stdio, IPC, a socket: transport.ts; a web worker's messages: server/src/web/server.ts):
 * - before `initialize`: requests are answered ServerNotInitialized (-32002), notifications dropped;
 * - after `shutdown`: requests are answered InvalidRequest (-32600), notifications dropped;
 * - `exit` always passes (the library then exits 0 after a shutdown, 1 otherwise); a second
 *   `initialize` is an InvalidRequest.
 * (LSP 3.17, "Lifecycle Messages".)
 */
import {
  ErrorCodes,
  Message,
  type DataCallback,
  type MessageReader,
  type MessageWriter,
  type ResponseMessage,
} from 'vscode-languageserver/node';
import { joiningChanges, ReceivedVersions } from './received';

export type Phase = 'new' | 'running' | 'shutdown';

export interface Transport {
  reader: MessageReader;
  writer: MessageWriter;
  phase(): Phase;
  /** The newest version of each document read so far (received.ts). */
  received: ReceivedVersions;
}

/** Wraps a reader so that messages the lifecycle does not allow are answered (or dropped) here. */
export function withLifecycle(inner: MessageReader, writer: MessageWriter): Transport {
  let phase: Phase = 'new';
  const received = new ReceivedVersions();
  const refuse = (id: ResponseMessage['id'], code: number, message: string) => {
    void writer.write({ jsonrpc: '2.0', id, error: { code, message } } as ResponseMessage).catch(() => undefined);
  };
  const reader: MessageReader = {
    onError: inner.onError,
    onClose: inner.onClose,
    onPartialMessage: inner.onPartialMessage,
    dispose: () => inner.dispose(),
    listen(callback: DataCallback) {
      // Consecutive edits of one document read at once are passed on as one (received.ts).
      const pass = joiningChanges(callback);
      return inner.listen((msg) => {
        if (Message.isRequest(msg)) {
          if (msg.method === 'initialize') {
            if (phase !== 'new') return refuse(msg.id, ErrorCodes.InvalidRequest, 'initialize was already received');
            phase = 'running';
          } else if (phase === 'new') {
            return refuse(
              msg.id,
              ErrorCodes.ServerNotInitialized,
              `the server is not initialized yet: "${msg.method}" must come after "initialize"`,
            );
          } else if (phase === 'shutdown') {
            return refuse(msg.id, ErrorCodes.InvalidRequest, `the server is shut down: "${msg.method}" is not answered after "shutdown"`);
          } else if (msg.method === 'shutdown') phase = 'shutdown';
        } else if (Message.isNotification(msg)) {
          if (msg.method !== 'exit' && phase !== 'running') return;
          received.note(msg);
        }
        pass(msg);
      });
    },
  };
  return { reader, writer, phase: () => phase, received };
}
