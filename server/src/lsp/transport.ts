/**
 * The transport named on the command line (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=NAME`, as
 * vscode-languageserver reads them), with the LSP lifecycle enforced on every incoming message
 * before any handler sees it, so no handler has to remember it:
 * - before `initialize`: requests are answered ServerNotInitialized (-32002), notifications dropped;
 * - after `shutdown`: requests are answered InvalidRequest (-32600), notifications dropped;
 * - `exit` always passes (the library then exits 0 after a shutdown, 1 otherwise); a second
 *   `initialize` is an InvalidRequest.
 * (LSP 3.17, "Lifecycle Messages".)
 */
import {
  createServerPipeTransport,
  createServerSocketTransport,
  ErrorCodes,
  IPCMessageReader,
  IPCMessageWriter,
  Message,
  StreamMessageReader,
  StreamMessageWriter,
  type DataCallback,
  type MessageReader,
  type MessageWriter,
  type ResponseMessage,
} from 'vscode-languageserver/node';

import { FramingGuard } from './framing';
import { joiningChanges, ReceivedVersions } from './received';

export type Phase = 'new' | 'running' | 'shutdown';

export interface Transport {
  reader: MessageReader;
  writer: MessageWriter;
  phase(): Phase;
  /** The newest version of each document read so far (received.ts). */
  received: ReceivedVersions;
}

/** The transport from `argv`, or undefined when none is named. */
export function transportFromArgs(argv: string[]): Transport | undefined {
  let reader: MessageReader | undefined;
  let writer: MessageWriter | undefined;
  let stdio = false;
  for (let i = 0; i < argv.length && !reader; i++) {
    const [flag, value = argv[i + 1]] = argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i]];
    if (flag === '--node-ipc') {
      reader = new IPCMessageReader(process);
      writer = new IPCMessageWriter(process);
    } else if (flag === '--stdio') {
      stdio = true;
      // A bad header is dropped and reading goes on (framing.ts); the library's reader would stop for good.
      reader = new StreamMessageReader(process.stdin.pipe(new FramingGuard((m) => process.stderr.write(m + '\n'))));
      writer = new StreamMessageWriter(process.stdout);
    } else if (flag === '--socket' && value) {
      [reader, writer] = createServerSocketTransport(Number.parseInt(value, 10));
    } else if (flag === '--pipe' && value) {
      [reader, writer] = createServerPipeTransport(value);
    }
  }
  if (!reader || !writer) return undefined;
  const t = withLifecycle(reader, writer);
  if (stdio) {
    // stdout carries the protocol: nothing else may print there. The client closing stdin ends us.
    console.log = console.info = console.debug = console.error;
    const end = () => process.exit(t.phase() === 'shutdown' ? 0 : 1);
    process.stdin.on('end', end);
    process.stdin.on('close', end);
  }
  return t;
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
