/**
 * When the language server dies (a crash, out of memory, killed), the client starts it again and
 * tells the user once, in one sentence, instead of vscode-languageclient's messages for every event
 * of every restart. After MAX_DEATHS deaths within WINDOW_MS it stops restarting and says that once
 * too (the Restart server command starts it again). Every death is written to the output channel.
 * A server that never started (start.ts `starting`) is not restarted: start.ts says so once, here.
 */
import * as vscode from 'vscode';
import { CloseAction, ErrorAction, type CloseHandlerResult, type ErrorHandler, type ErrorHandlerResult } from 'vscode-languageclient/node';

const MAX_DEATHS = 5;
const WINDOW_MS = 3 * 60_000;

export class ServerRestarts implements ErrorHandler {
  private deaths: number[] = [];
  private toldRestarted = false;
  private toldGaveUp = false;
  /** The notifications shown so far (the VS Code tests read them through a command). */
  readonly shown: string[] = [];
  /** Deaths seen since the extension started. */
  count = 0;
  /** The client is starting the server: a close now is a failed start (start.ts), not a death. */
  starting = false;
  private toldNotStarted = false;

  constructor(private readonly log: (line: string) => void) {}

  error(_error: Error, _message: unknown, count: number | undefined): ErrorHandlerResult {
    // As vscode-languageclient's default: a few write/read errors are survivable; then the connection
    // is shut down, which ends in `closed()` below, where the user is told.
    return { action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown, handled: true };
  }

  closed(): CloseHandlerResult {
    // Handled: the language client's own "connection closed" message is not shown either.
    if (this.starting) return { action: CloseAction.DoNotRestart, handled: true };
    const now = Date.now();
    this.count++;
    this.deaths = [...this.deaths.filter((t) => now - t < WINDOW_MS), now];
    if (this.deaths.length >= MAX_DEATHS) {
      this.log(`The language server stopped ${MAX_DEATHS} times in ${WINDOW_MS / 60_000} minutes; it is not restarted.`);
      if (!this.toldGaveUp) {
        this.toldGaveUp = true;
        this.tell(
          'error',
          `ApplicationSet Tools: the language server stopped ${MAX_DEATHS} times in ${WINDOW_MS / 60_000} minutes and is not restarted. Its log is in Output › ApplicationSet Tools; "ApplicationSet: Restart language server" starts it again.`,
        );
      }
      return { action: CloseAction.DoNotRestart, handled: true };
    }
    this.log(`The language server stopped unexpectedly (${this.count} since start); restarting it.`);
    if (!this.toldRestarted) {
      this.toldRestarted = true;
      this.tell(
        'warning',
        'ApplicationSet Tools: the language server stopped unexpectedly and was restarted. Its log is in Output › ApplicationSet Tools.',
      );
    }
    return { action: CloseAction.Restart, handled: true };
  }

  /** The server did not start (`why`): said once, with what still works and how to try again. */
  notStarted(why: string): void {
    this.log(`The language server did not start: ${why}`);
    if (this.toldNotStarted) return;
    this.toldNotStarted = true;
    this.tell(
      'error',
      `ApplicationSet Tools: the language server did not start (${why}), so ApplicationSets are not checked. Its log is in Output › ApplicationSet Tools; "ApplicationSet: Restart language server" tries again.`,
    );
  }

  /** A deliberate restart (the command) starts the count again. */
  reset(): void {
    this.deaths = [];
    this.toldGaveUp = false;
  }

  private tell(kind: 'warning' | 'error', message: string): void {
    this.shown.push(message);
    void (kind === 'error' ? vscode.window.showErrorMessage(message) : vscode.window.showWarningMessage(message));
  }
}
