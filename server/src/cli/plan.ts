import type { CliIO } from './io';

/** `appset plan` (placeholder: implemented by its issue's work). */
export async function runPlan(args: string[], io: CliIO): Promise<number> {
  void args;
  io.err('appset plan: not implemented yet\n');
  return 2;
}
