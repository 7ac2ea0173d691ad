import type { CliIO } from './io';

/** `appset render` (placeholder: implemented by its issue's work). */
export async function runRender(args: string[], io: CliIO): Promise<number> {
  void args;
  io.err('appset render: not implemented yet\n');
  return 2;
}
