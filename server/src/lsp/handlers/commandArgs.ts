/**
 * The arguments of `workspace/executeCommand`, checked before any command runs. They come from the client
 * as any JSON: `[{"toString":1}]` made `String(arg)` throw, and the library answered an internal error
 * (-32603) with the exception's text. A command with arguments it cannot use is answered InvalidParams
 * (-32602, LSP 3.17 "Response Message") with a sentence that names the command, the argument and what it
 * takes; only then does the command run, on values of the types it expects.
 */
import { Commands, SERVER_COMMANDS, type CommandId } from '@appset-tools/protocol';
import { isProgressiveSyncOverride, PROGRESSIVE_SYNCS } from '@appset-tools/protocol/settingsTable';

export type CheckedCommand =
  { ok: true; command: CommandId; uri?: string; offset?: number; value?: string } | { ok: false; message: string };

/** The document commands' arguments: `[documentUri?, offset?]` (lenses pass both, a key map may pass neither). */
const DOCUMENT_COMMANDS: ReadonlySet<string> = new Set([
  Commands.showPreview,
  Commands.preview,
  Commands.showRollout,
  Commands.rolloutPlan,
  Commands.showChange,
]);

/** What a JSON value is, in a word, without converting it (a hostile object's `toString` is never called). */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return v ? 'a string' : 'an empty string';
  if (typeof v === 'number') return `the number ${Number.isFinite(v) ? v : 'that is not finite'}`;
  return `a ${typeof v}`;
}

const absent = (v: unknown) => v === undefined || v === null;
const isOffset = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The command and its arguments, or the sentence the InvalidParams error says. */
export function checkCommand(params: unknown): CheckedCommand {
  const p = typeof params === 'object' && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>) : undefined;
  const command = p?.command;
  if (typeof command !== 'string')
    return { ok: false, message: `workspace/executeCommand needs a command name (a string), not ${kindOf(command)}` };
  if (!(SERVER_COMMANDS as readonly string[]).includes(command))
    return {
      ok: false,
      message: `unknown command ${JSON.stringify(command.slice(0, 80))}: this server runs ${SERVER_COMMANDS.join(', ')}`,
    };
  const id = command as CommandId;
  const args = p!.arguments;
  if (!absent(args) && !Array.isArray(args)) return { ok: false, message: `${id}: the arguments must be a list, not ${kindOf(args)}` };
  const list = (args ?? []) as unknown[];
  const bad = (n: number, what: string) => ({
    ok: false as const,
    message: `${id}: argument ${n} must be ${what}, not ${kindOf(list[n - 1])}`,
  });
  if (DOCUMENT_COMMANDS.has(id)) {
    if (list.length > 2)
      return { ok: false, message: `${id} takes at most 2 arguments (the document's URI and an offset), not ${list.length}` };
    if (!absent(list[0]) && (typeof list[0] !== 'string' || !list[0])) return bad(1, "the document's URI (a string)");
    if (!absent(list[1]) && !isOffset(list[1])) return bad(2, 'a character offset (a whole number, 0 or more)');
    return {
      ok: true,
      command: id,
      uri: absent(list[0]) ? undefined : (list[0] as string),
      offset: absent(list[1]) ? undefined : (list[1] as number),
    };
  }
  if (id === Commands.openLocation) {
    if (typeof list[0] !== 'string' || !list[0]) return bad(1, 'a file path or URI (a string)');
    if (!absent(list[1]) && !isOffset(list[1])) return bad(2, 'a character offset (a whole number, 0 or more)');
    return { ok: true, command: id, uri: list[0], offset: absent(list[1]) ? undefined : (list[1] as number) };
  }
  // setProgressiveSyncs
  if (typeof list[0] !== 'string' || !isProgressiveSyncOverride(list[0]))
    return typeof list[0] === 'string'
      ? {
          ok: false,
          message: `${id}: argument 1 must be one of ${PROGRESSIVE_SYNCS.join(', ')}, not ${JSON.stringify(list[0].slice(0, 40))}`,
        }
      : bad(1, `one of ${PROGRESSIVE_SYNCS.join(', ')}`);
  return { ok: true, command: id, value: list[0] };
}
