/**
 * The transport named on the command line (`--stdio`, `--node-ipc`, `--socket=N`, `--pipe=NAME`, as
 * vscode-languageserver reads them), with the LSP lifecycle enforced on every incoming message
 * before any handler sees it (lifecycleGate.ts), so no handler has to remember it.
 */
import {
  createServerPipeTransport,
  createServerSocketTransport,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageReader,
  type MessageWriter,
} from 'vscode-languageserver/node';

import { FramingGuard } from './framing';
import { withLifecycle, type Transport } from './lifecycleGate';

export { withLifecycle, type Phase, type Transport } from './lifecycleGate';

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
