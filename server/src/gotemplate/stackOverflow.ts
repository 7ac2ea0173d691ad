/**
 * JavaScript's own stack overflow, told from every other error. V8 gives it no class or code of its
 * own — it is a plain RangeError, like an invalid array length or `toFixed`'s digits out of range,
 * which are not overflows — so the one fact that tells it is the engine's own text for it. That text
 * is not guessed: the first time a RangeError needs telling, the engine is made to overflow once here
 * and its message is kept; an overflow is a RangeError with exactly that message.
 */
let overflowText: string | undefined;

export function isStackOverflow(e: unknown): boolean {
  if (!(e instanceof RangeError)) return false;
  overflowText ??= engineOverflowText();
  return e.message === overflowText;
}

function engineOverflowText(): string {
  const dive = (n: number): number => dive(n + 1) + 1;
  try {
    dive(0);
  } catch (e) {
    if (e instanceof RangeError) return e.message;
  }
  // An engine without a stack limit never overflows: nothing is one.
  return '\0no stack overflow';
}
