/**
 * `node dist/server.js --stdio` (other editors) or `--node-ipc` (VS Code): the language server.
 * Without a transport argument it prints how to start it instead of a stack trace.
 */
import { runFromCommandLine } from './lsp/nodeMain';
import { PRODUCT_VERSION } from './product';

const TRANSPORTS = /^--(stdio|node-ipc|socket=\d+|pipe=.+|clientProcessId=\d+)$/;
const args = process.argv.slice(2);

if (args.some((a) => a === '--version' || a === '-v')) {
  process.stdout.write(`appset-tools language server ${PRODUCT_VERSION}\n`);
} else if (!args.some((a) => TRANSPORTS.test(a) || a === '--socket' || a === '--pipe')) {
  process.stderr.write(
    'ApplicationSet Tools language server.\n' +
      'Usage: node dist/server.js --stdio      (Neovim, Helix, Emacs, ...; installed from npm: appset-language-server --stdio)\n' +
      '       node dist/server.js --node-ipc   (VS Code starts it this way)\n' +
      '       node dist/server.js --socket=<port>\n',
  );
  process.exitCode = 2;
} else {
  runFromCommandLine();
}
