/**
 * `appset` — the command-line front of the engine, for CI.
 * Each subcommand lives in its own module and returns an exit code:
 * 0 success, 1 findings (errors), 2 bad usage.
 */
import { runLint } from './lint';
import { runTemplate } from './template';
import { runRender } from './render';
import { runPlan } from './plan';
import { runDiff } from './diff';
import { runInstances } from './instances';
import type { CliIO } from './io';
import { nodeIO } from './io';
import { PRODUCT_VERSION } from '../product';
import { oneLine } from './safeText';
import { deferOptimiser } from '../optimiser';

const USAGE = `usage: appset <command> [options]

commands:
  lint <files or folders…>     validate ApplicationSets (text, json, sarif, github, markdown; exit 1 on errors)
  render <file>                print the generated Applications
  plan <file>                  print the RollingSync plan (steps and waves)
  diff --base <rev> [paths…]   what a change does to the generated Applications, step by step
  instances [paths…]           the Argo CD installs of the repository: version, settings, evidence, ApplicationSets run
  template <template>          render one template string (or --jsonl for the golden protocol)
  --version                    print the version

run 'appset <command> --help' for the options of a command`;

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'lint':
      return runLint(rest, io);
    case 'render':
      return runRender(rest, io);
    case 'plan':
      return runPlan(rest, io);
    case 'diff':
      return runDiff(rest, io);
    case 'template':
      return runTemplate(rest, io);
    case 'instances':
      return runInstances(rest, io);
    case '--help':
    case '-h':
    case 'help':
      io.out(USAGE + '\n');
      return 0;
    case '--version':
    case '-v':
      io.out(`appset ${PRODUCT_VERSION}\n`);
      return 0;
    default:
      io.err((cmd ? oneLine(`unknown command "${cmd}"`) + '\n' : '') + USAGE + '\n');
      return 2;
  }
}

if (require.main === module) {
  // A lint's first file runs before V8's optimising compiler (optimiser.ts): on two cores its compiling
  // competed with that file's answer; lint.ts turns it back on once the first file is answered.
  if (process.argv[2] === 'lint') deferOptimiser();
  main(process.argv.slice(2), nodeIO()).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`appset: internal error: ${(e as Error).stack ?? e}\n`);
      process.exitCode = 3;
    },
  );
}
