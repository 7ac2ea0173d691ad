import type { CliIO } from './io';

/** `appset lint` (placeholder: implemented by its issue's work). */
export async function runLint(args: string[], io: CliIO): Promise<number> {
  void args;
  io.err('appset lint: not implemented yet\n');
  return 2;
}
