/**
 * Hang guards for tests: how long a test waits before calling something a hang, and one polling
 * helper. They are never speed checks (speed is measured by `npm run bench`): CI runs test files
 * concurrently on shared machines, so a guard must hold on a starved machine too.
 */
import assert from 'node:assert/strict';

/** How long a test waits for an answer before calling it a hang. */
export const HANG_GUARD_MS = 60_000;

/** Polls `probe` every 25 ms until `ok` holds on its value; fails with `what` after HANG_GUARD_MS. */
export async function until<T>(probe: () => T | Promise<T>, ok: (value: T) => boolean, what: () => string): Promise<T> {
  const deadline = Date.now() + HANG_GUARD_MS;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`${what()} (waited ${HANG_GUARD_MS / 1000} s)`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Fails if more than HANG_GUARD_MS passed since `t0` (a hang guard around synchronous work). */
export function assertNoHang(t0: number, what: string): void {
  const ms = Date.now() - t0;
  assert.ok(ms < HANG_GUARD_MS, `${what} took ${ms} ms (a hang guard, not a speed test)`);
}
