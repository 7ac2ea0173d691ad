/**
 * Publishing diagnostics: one debounced run per document, open documents kept in step with the
 * workspace index, and files changed on disk (git pull) re-validating what they affect.
 */
import { FileChangeType, MessageType, ShowMessageNotification } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Debouncer } from '../debounce';
import { createPublisher } from './publish';
import { URI } from '../uri';
import { isWatchedChange } from '../watch';
import type { ServerState } from '../state';
import { looksLikeAppSet } from '@appset-tools/engine';
import { Notifications, type InputDocumentParams } from '@appset-tools/protocol';

export interface Revalidation {
  /** Settings or folders changed: every cached result may be wrong. */
  resetAndRevalidate(): void;
  /** Another document changed something the index sees: re-validate the others and refresh lenses. */
  scheduleOthers(uri: string): void;
}

export function registerDiagnostics(s: ServerState): Revalidation {
  const { connection, documents } = s;
  // One debounced run per document: a newer edit cancels the pending run, and a run always reads
  // the document's current text, so results for a stale version are never computed or published.
  const debouncer = new Debouncer();

  // Once the workspace has been read, what it changes is added: a document whose list stays the same
  // is not sent it again.
  const warmUp = indexWarmUp(s, () => revalidateAll(true, true));
  const publisher = createPublisher(s, { scheduleOthers, answered: () => warmUp.start() });

  function schedule(doc: TextDocument, delayMs = s.settings.debounceMs, onlyChanges = false): void {
    debouncer.run(doc.uri, delayMs, () => {
      const current = documents.get(doc.uri);
      // A newer version already queued publishes for itself (its change schedules its own run).
      if (current && !s.superseded(current)) void publisher.publish(current, onlyChanges);
    });
  }

  function scheduleOthers(uri: string): void {
    for (const d of documents.all()) if (d.uri !== uri) schedule(d);
    refreshLenses();
  }

  /**
   * Re-validates every open document; `now` skips the keystroke debounce (settings, folders);
   * `onlyChanges` publishes only lists that changed (see Publisher.publish).
   */
  function revalidateAll(now = false, onlyChanges = false): void {
    for (const d of documents.all()) schedule(d, now ? 0 : s.settings.debounceMs, onlyChanges);
    refreshLenses();
  }

  // Lenses and hovers depend on the workspace too; clients only re-ask for lenses when told.
  // The client's views (preview, rollout view, status bar) listen for resultsChanged.
  const lensRefresh = new Debouncer();
  function refreshLenses(): void {
    lensRefresh.run('all', Math.max(s.settings.debounceMs, 50), () => {
      if (s.client.refreshLenses) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
      void connection.sendNotification(Notifications.resultsChanged).catch(() => undefined);
      warmUp.logEnablement();
    });
  }

  function resetAndRevalidate(): void {
    warmUp.reset();
    s.guard('reset', undefined, () => {
      s.forgetRuns();
      s.service.reset();
      s.service.openDocuments.resync(documents.all().map((d) => ({ path: URI.toPath(d.uri), text: d.getText() })));
    });
    revalidateAll(true);
  }

  registerDocumentEvents(s, {
    schedule,
    scheduleOthers,
    revalidateAll,
    closed(uri) {
      debouncer.cancel(uri);
      publisher.forget(uri);
    },
  });

  return { resetAndRevalidate, scheduleOthers };
}

interface DocumentRuns {
  schedule(doc: TextDocument, delayMs?: number): void;
  scheduleOthers(uri: string): void;
  revalidateAll(now?: boolean): void;
  /** A document closed: its pending and past runs are forgotten. */
  closed(uri: string): void;
}

/** Documents opened, changed and closed, and files changed on disk (git pull): the runs they start. */
function registerDocumentEvents(s: ServerState, on: DocumentRuns): void {
  const { connection, documents } = s;
  // TextDocuments fires onDidChangeContent right after onDidOpen for the same document: that one must
  // not replace the immediate run of the open with a debounced one (first diagnostics would wait).
  let opened: TextDocument | undefined;
  documents.onDidOpen((e) => {
    opened = e.document;
    on.schedule(e.document, 0);
  });
  documents.onDidChangeContent((e) => {
    if (e.document === opened) {
      opened = undefined;
      return;
    }
    on.schedule(e.document);
  });
  documents.onDidClose((e) => {
    on.closed(e.document.uri);
    s.guard('close', undefined, () => {
      s.service.openDocuments.close(URI.toPath(e.document.uri));
      // Nothing of a closed document is kept (long sessions open and close many).
      s.service.forget(e.document.uri);
    });
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    // A closed cluster Secret reverts to its saved version for the other documents.
    if (!looksLikeAppSet(e.document.getText())) on.scheduleOthers(e.document.uri);
  });

  // A tab the client sends as text only (a git generator's config.json): it overlays its file, unanalysed.
  connection.onNotification(Notifications.inputDocument, (p: InputDocumentParams) => {
    const path = typeof p?.uri === 'string' ? URI.toPath(p.uri) : undefined;
    // A document the server is sent as one is kept by its own events.
    if (!path || documents.get(p.uri)) return;
    const open = s.service.openDocuments;
    const changed = s.guard('input document', false, () =>
      typeof p.text === 'string' ? open.input(path, p.text) : open.inputClosed(path),
    );
    if (changed) on.scheduleOthers(p.uri);
  });

  connection.onDidChangeWatchedFiles(async (e) => {
    // The web worker's copy of the files is brought up to date first (platform.ts `refresh`).
    if (s.platform.refresh) {
      const paths = e.changes.filter((c) => !documents.get(c.uri)).flatMap((c) => URI.toPath(c.uri) ?? []);
      await s.platform.refresh(paths).catch((err: unknown) => s.log(`could not read changed files: ${String(err)}`));
    }
    s.guard('watched files', undefined, () => {
      let changed = false;
      for (const c of e.changes) {
        const p = URI.toPath(c.uri);
        if (!p || !isWatchedChange(p, c.type)) continue;
        const open = s.service.openDocuments;
        const tab = documents.get(c.uri)?.getText() ?? open.inputText(p);
        if (tab !== undefined) {
          // Open documents are overlays: their editor text wins over the file on disk, while there is
          // one. A file deleted on disk is not in the repository, whatever its tab still holds; it counts
          // again once it is back (saved again, restored by a checkout).
          if (c.type === FileChangeType.Deleted ? open.deletedOnDisk(p) : open.onDisk(p, tab)) changed = true;
          continue;
        }
        s.service.workspace.invalidate(p);
        changed = true;
      }
      if (changed) on.revalidateAll();
    });
  });
}

/**
 * The workspace index is read lazily, by the first answer that needs it. After the first answer, the
 * rest is read in small steps between requests, so that later answers find it ready. Until then the
 * Argo CD version is detected from the files read so far (WorkspaceIndex `defer`); once everything is
 * read, documents whose answer may have changed are validated again (`revalidate`), and the log says
 * what decides progressive syncs (reading Argo CD's configuration never delays a first answer).
 */
function indexWarmUp(s: ServerState, revalidate: () => void): { start(): void; reset(): void; logEnablement(): void } {
  const { connection } = s;
  let warming = false;
  let warmRun = 0;
  /** The warm-up has read the whole workspace (since the last reset). */
  let indexRead = false;
  function warmIndex(): void {
    if (warming) return;
    warming = true;
    const run = ++warmRun;
    const step = () => {
      if (run !== warmRun) return; // a reset started another warm-up
      if (!s.guard('workspace index', true, () => s.service.workspace.warm(50))) {
        setTimeout(step, 2);
        return;
      }
      indexRead = true;
      s.workspaceCache?.save();
      announceScanNotes();
      if (s.guard('workspace index', false, () => s.service.workspace.settle())) revalidate();
      logEnablement();
    };
    setTimeout(step, 20);
  }

  // What the workspace scan left out (a cap reached, files over the size limit, FIFOs) is said once,
  // when the index is complete, and again only when it changes: never silent, never a flood.
  let announced = '';
  function announceScanNotes(): void {
    const notes = s.guard('scan notes', [], () => s.service.workspace.scanNotes());
    const text = notes.join('\n');
    if (text === announced) return;
    announced = text;
    if (!notes.length) return;
    s.log(`Workspace scan:\n${notes.map((n) => `  ${n}`).join('\n')}`);
    const more = notes.length > 1 ? ` (and ${notes.length - 1} more in the language server's log)` : '';
    // A notification, not window.showWarningMessage (a request some editors do not answer).
    void connection
      .sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `ApplicationSet Tools: ${notes[0]}${more}.` })
      .catch(() => undefined);
  }

  // The server log says what decides progressive syncs, at start and whenever it changes.
  let lastSummary = '';
  /** A log run in slices, and whether another was asked for meanwhile (it follows this one). */
  let logging = false;
  let logAgain = false;
  function logEnablement(): void {
    // Only once the workspace has been read in the background: reading it here would hold up answers.
    if (!indexRead) return;
    // In slices: it reads every ApplicationSet file (the folders their templates deploy), an open 6,000-line
    // one too, which held the event loop 100-250 ms after it was opened (issue 39). One run at a time: a run
    // asked for meanwhile follows it, so that a large file's parse in steps is never dropped half-way.
    if (logging) {
      logAgain = true;
      return;
    }
    logging = true;
    void s
      .slices(s.service.enablementSummarySteps(), () => !indexRead, 'enablement log')
      .then((r) => {
        if (r.value) {
          const text = r.value.join('\n');
          if (text !== lastSummary) {
            lastSummary = text;
            s.log(`Progressive syncs:\n${r.value.map((l) => `  ${l}`).join('\n')}`);
          }
        }
      })
      .finally(() => {
        logging = false;
        if (!logAgain) return;
        logAgain = false;
        logEnablement();
      });
  }

  return {
    start: warmIndex,
    reset() {
      warming = false;
      indexRead = false;
      warmRun++;
    },
    logEnablement,
  };
}
