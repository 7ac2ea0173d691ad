import type { CliIO } from './io';

/** `appset template` (placeholder: implemented by its issue's work). */
export async function runTemplate(args: string[], io: CliIO): Promise<number> {
  void args;
  io.err('appset template: not implemented yet\n');
  return 2;
}
