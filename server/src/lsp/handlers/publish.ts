/**
 * One document's diagnostics run: the whole answer of the document (a very long file just opened gets
 * the quick pass of its ApplicationSets first), never for a stale version, and never the same list twice
 * for one version (the re-validation after the workspace was read sends only what it changed).
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { toDiagnostic } from '../convert';
import { settleAfterFirstAnswer } from '../idleMemory';
import { URI } from '../uri';
import type { ServerState } from '../state';
import type { Analysis, EngineDiagnostic } from '@appset-tools/engine';

/**
 * Up to this many files (and their folders' entries, WorkspaceIndex.warm) are read before a first answer:
 * a workspace that small is read whole at once; the bench's 1,000-file repository is not (reading it was
 * a third of the first answer on 50 ApplicationSets with cluster generators, issue 39).
 */
const SMALL_WORKSPACE_FILES = 32;

export interface Publisher {
  /**
   * Computes and sends the diagnostics of `doc` (its current version); with `onlyChanges` (the
   * re-validation once the workspace has been read) only when they differ from the list last sent for
   * that version.
   */
  publish(doc: TextDocument, onlyChanges?: boolean): Promise<void>;
  /** A document closed: its past runs and answers are forgotten. */
  forget(uri: string): void;
}

export interface PublishHooks {
  /** The document changed something the index sees: the others are re-validated. */
  scheduleOthers(uri: string): void;
  /** A whole answer was sent (the workspace index warms up after the first). */
  answered(): void;
}

type Answer = (diagnostics: Diagnostic[]) => void;

export function createPublisher(s: ServerState, hooks: PublishHooks): Publisher {
  const { connection } = s;
  /** The latest `publish` run started per document (see `publish`). */
  const runs = new Map<string, number>();
  /** The version of each document whose first pass was answered (see `publish`). */
  const quickAnswered = new Map<string, number>();
  /**
   * The last list sent per document, with its version: the re-validation once the workspace is read
   * does not send the same list again for the same version (the workspace changed nothing), so the
   * editor's last publish is the whole answer, not a copy of it.
   */
  const sent = new Map<string, { version: number; diagnostics: Diagnostic[] }>();

  async function publish(doc: TextDocument, onlyChanges = false): Promise<void> {
    const path = URI.toPath(doc.uri);
    const open = s.service.openDocuments;
    // Every step in slices (state.ts): other documents' requests are answered meanwhile, and a newer
    // version of this one (or its closing) drops this run; the newer version's run publishes. So does
    // a newer run for the same version (settings or the workspace changed): the queue may finish it
    // first, and this one's results, computed before the change, must not be published after it.
    const run = (runs.get(doc.uri) ?? 0) + 1;
    runs.set(doc.uri, run);
    const stale = () => s.superseded(doc) || runs.get(doc.uri) !== run;
    // Every answer of this version (a very long file's quick pass, then the whole one).
    const answer = (diagnostics: Diagnostic[]) => {
      const last = sent.get(doc.uri);
      if (onlyChanges && last?.version === doc.version && JSON.stringify(last.diagnostics) === JSON.stringify(diagnostics)) return;
      sent.set(doc.uri, { version: doc.version, diagnostics });
      void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
    };
    const reading = s.firstRead();
    if (reading) {
      await reading;
      if (stale()) return;
    }
    // A small workspace is read whole before the first answer (cheaper than answering twice); a larger one
    // is read in the background after it, and what needs it follows then (engine/service/heldFindings.ts).
    // (Answers other documents had from part of it are validated again.)
    const settled = s.guard('workspace index', false, () => {
      const ws = s.service.workspace;
      if (!ws.reading) return false;
      // The files an earlier session found to tell the Argo CD install (a handful, known from the probe
      // cache, host/indexCache.ts; WorkspaceIndex.readKnownWhenAsked) are read when the first answer asks for their
      // interest, so that it already uses them: an ApplicationSet whose answer depends on the install was
      // analysed twice before (with the newest release, then with the install's once the background read
      // found it: twice the CPU of one answer on the bench's deep-error document, issue 39). The background
      // read then only confirms them (`settle` re-validates when the whole workspace says otherwise).
      ws.readKnownWhenAsked();
      // Known to be larger from an earlier session (the probe cache): not listed now to find out.
      if (ws.knownLarger(SMALL_WORKSPACE_FILES) || !ws.warm(SMALL_WORKSPACE_FILES)) return false;
      s.workspaceCache?.save();
      return ws.settle();
    });
    if (settled) hooks.scheduleOthers(doc.uri);
    // A document just opened goes into the workspace index before it is analysed (see OpenDocuments.opened).
    if (s.guard('diagnostics', false, () => open.opened(path, doc.getText()))) hooks.scheduleOthers(doc.uri);
    // A very long file opened: the documents that can hold more than syntax findings answer first
    // (engine/service/firstPass.ts); the whole file's answer follows below.
    // Once per version: the whole file's analysis runs in slices, and a second run for the same version
    // (the warm-up's re-validation) must not answer with the first pass again.
    const quick =
      quickAnswered.get(doc.uri) === doc.version
        ? undefined
        : s.guard('diagnostics', undefined, () => s.service.quickAnalysis(doc.uri, doc.getText(), path));
    if (quick) quickAnswered.set(doc.uri, doc.version);
    if (!quick) {
      await s.analyzed(doc);
      if (stale()) return;
    }
    // Keep the workspace index in step first: a change to a cluster Secret or to Argo CD's
    // configuration changes the results of every open ApplicationSet.
    s.guard('diagnostics', undefined, () => {
      if (open.sync(path, doc.getText(), () => quick ?? s.analysisOf(doc))) hooks.scheduleOthers(doc.uri);
    });
    if (quick && !(await quickAnswer(s, doc, quick, stale, answer))) return;
    // A document's first answer since it was opened does not wait for the change gate (see `wholeAnswer`).
    const first = !sent.has(doc.uri);
    const whole = await wholeAnswer(s, doc, path, stale, open, first);
    if (whole === undefined) return;
    answer(whole.diagnostics);
    // The session's first whole answer is followed by one full collection (idleMemory.ts).
    settleAfterFirstAnswer();
    hooks.answered();
    if (!whole.gate) return;
    // The gate runs git in this process (spawnSync): the publish above is let out first.
    await new Promise((resolve) => setImmediate(resolve));
    if (stale()) return;
    const gate = await whole.gate();
    // Added when it finds something (the list without it was the whole answer otherwise).
    if (gate?.length && !stale()) answer([...whole.diagnostics, ...gate]);
  }

  return {
    publish,
    forget(uri) {
      quickAnswered.delete(uri);
      sent.delete(uri);
      runs.delete(uri);
    },
  };
}

/**
 * The quick pass of a very long file just opened: its ApplicationSets' whole answer (every finding of
 * those documents, the expansion's included), before the whole file's; false when the run went stale.
 */
async function quickAnswer(s: ServerState, doc: TextDocument, quick: Analysis, stale: () => boolean, answer: Answer): Promise<boolean> {
  if (!(await s.prepare(quick, stale))) return false;
  const first = s.guard('diagnostics', [], () => (s.settings.validate ? shownOf(s, doc, quick) : []));
  answer(first);
  // Let the message out before the whole file is parsed (the connection writes on the next turn).
  await new Promise((resolve) => setImmediate(resolve));
  return true;
}

/**
 * The whole file's findings; undefined when the run went stale. With `gateLater` (a document's first
 * answer since it was opened) the change gate's findings are not waited for: they need git and the
 * baseline commit's analysis of the file (its ApplicationSets expanded again at the baseline), about a
 * second of the first answer in a repository whose configuration sets a gate (issue 39), and a file just
 * opened seldom differs from its baseline. `gate` then computes them, to add to the list when it finds any.
 */
async function wholeAnswer(
  s: ServerState,
  doc: TextDocument,
  path: string | undefined,
  stale: () => boolean,
  open: ServerState['service']['openDocuments'],
  gateLater: boolean,
): Promise<{ diagnostics: Diagnostic[]; gate?: () => Promise<Diagnostic[]> } | undefined> {
  // The whole file's analysis and expansions (state.ts `ready`), then its findings.
  if (!(await s.ready(doc))) return undefined;
  const analysis = s.guard('analysis', undefined, () => s.analysisOf(doc));
  if (analysis && !(await s.slices(s.service.prepareDiagnostics(analysis), stale, 'findings')).ok) return undefined;
  if (stale()) return undefined;
  const a = s.guard('analysis', undefined, () => s.analysisOf(doc));
  const shownNow = s.guard('diagnostics', [], () => {
    if (!a) return [];
    open.remember(path, a);
    return s.settings.validate ? shownOf(s, doc, a) : [];
  });
  if (!a || !path || !s.settings.validate) return { diagnostics: shownNow };
  // The change gate judges the change against the baseline commit (impact.ts), read once per commit.
  const text = doc.getText();
  const gate = async () => {
    const found = await s.impacts.gateFindings(a, path, text).catch((e: Error) => {
      s.log(`change gate failed: ${e.stack ?? e}`);
      return [];
    });
    return s.guard('diagnostics', [], () => found.filter((d) => shown(s, d)).map((d) => toDiagnostic(doc, d, s.textOf)));
  };
  // Nothing to wait for without a gate in the configuration (Impacts.gateFindings answers at once then).
  if (gateLater && s.guard('diagnostics', false, () => s.impacts.gated(path))) return { diagnostics: shownNow, gate };
  const found = await gate();
  if (stale()) return undefined;
  return { diagnostics: [...shownNow, ...found] };
}

function shownOf(s: ServerState, doc: TextDocument, a: Analysis) {
  return s.service
    .diagnosticsToShow(a)
    .filter((d) => shown(s, d))
    .map((d) => toDiagnostic(doc, d, s.textOf));
}

// Beside Red Hat's YAML extension (which reports syntax errors in every YAML file) the same
// error is not shown twice.
const shown = (s: ServerState, d: EngineDiagnostic) => s.settings.yamlSyntax || d.code !== 'yaml/syntax';
