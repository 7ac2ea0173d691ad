/**
 * One document's diagnostics run: a first answer for a document just opened (the quick pass of a very
 * long file, or the early findings of a large one), then the whole answer, never for a stale version.
 */
import type { Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { toDiagnostic } from '../convert';
import { settleAfterFirstAnswer } from '../idleMemory';
import { URI } from '../uri';
import type { ServerState } from '../state';
import type { Analysis, EngineDiagnostic } from '../../engine';

/**
 * From this size on, a document just opened is answered in two steps: what needs no expansion first,
 * then the whole answer (expanding a large ApplicationSet, or reading the workspace for cluster
 * generators, is most of its first answer). A smaller document is answered once: the whole answer
 * comes about as fast, and one publish is less churn for the editor.
 */
export const EARLY_ANSWER_CHARS = 32 * 1024;

export interface Publisher {
  /** Computes and sends the diagnostics of `doc` (its current version). */
  publish(doc: TextDocument): Promise<void>;
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
  const { connection, documents } = s;
  /** The latest `publish` run started per document (see `publish`). */
  const runs = new Map<string, number>();
  /** The version of each document whose first pass was answered (see `publish`). */
  const quickAnswered = new Map<string, number>();
  /** Open documents that had their first answer (the early one, see `publish`). */
  const answered = new Set<string>();

  async function publish(doc: TextDocument): Promise<void> {
    const path = URI.toPath(doc.uri);
    const open = s.service.openDocuments;
    // Every step in slices (state.ts): other documents' requests are answered meanwhile, and a newer
    // version of this one (or its closing) drops this run; the newer version's run publishes. So does
    // a newer run for the same version (settings or the workspace changed): the queue may finish it
    // first, and this one's results, computed before the change, must not be published after it.
    const run = (runs.get(doc.uri) ?? 0) + 1;
    runs.set(doc.uri, run);
    const stale = () => documents.get(doc.uri)?.version !== doc.version || runs.get(doc.uri) !== run;
    // Every answer of this version (a first one, then the whole one); the session's first is followed by
    // one full collection (idleMemory.ts).
    const answer = (diagnostics: Diagnostic[]) => {
      void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics });
      settleAfterFirstAnswer();
    };
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
    if (!(await firstAnswer(s, doc, quick, stale, answer, !answered.has(doc.uri)))) return;
    answered.add(doc.uri);
    const diagnostics = await wholeAnswer(s, doc, path, stale, open);
    if (diagnostics === undefined) return;
    answer(diagnostics);
    hooks.answered();
  }

  return {
    publish,
    forget(uri) {
      quickAnswered.delete(uri);
      answered.delete(uri);
      runs.delete(uri);
    },
  };
}

/** The first answer of a document just opened, when it gets one; false when the run went stale. */
async function firstAnswer(
  s: ServerState,
  doc: TextDocument,
  quick: Analysis | undefined,
  stale: () => boolean,
  answer: Answer,
  opened: boolean,
): Promise<boolean> {
  if (quick) {
    if (!(await s.prepare(quick, stale))) return false;
    const first = s.guard('diagnostics', [], () => (s.settings.validate ? shownOf(s, doc, quick) : []));
    answer(first);
    // Let the message out before the whole file is parsed (the connection writes on the next turn).
    await new Promise((resolve) => setImmediate(resolve));
  } else if (opened && doc.getText().length >= EARLY_ANSWER_CHARS) {
    // A large document just opened: what needs no expansion (syntax, schema, static checks) is shown
    // first, the whole answer for the same version follows (engine/service/earlyFindings.ts).
    const a = s.guard('analysis', undefined, () => s.analysisOf(doc));
    if (a && s.service.appsets(a).length) {
      const early = await s.slices(s.service.earlyDiagnosticsSteps(a), stale, 'early findings');
      if (!early.ok) return false;
      const first = s.guard('diagnostics', [], () =>
        s.settings.validate ? early.value?.filter((d) => shown(s, d)).map((d) => toDiagnostic(doc, d, s.textOf)) : [],
      );
      answer(first ?? []);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return true;
}

/** The whole file's findings; undefined when the run went stale. */
async function wholeAnswer(
  s: ServerState,
  doc: TextDocument,
  path: string | undefined,
  stale: () => boolean,
  open: ServerState['service']['openDocuments'],
): Promise<Diagnostic[] | undefined> {
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
  if (!a || !path || !s.settings.validate) return shownNow;
  // The change gate judges the change against the baseline commit (impact.ts), read once per commit.
  const gate = await s.impacts.gateFindings(a, path, doc.getText()).catch((e: Error) => {
    s.log(`change gate failed: ${e.stack ?? e}`);
    return [];
  });
  if (stale()) return undefined;
  return [...shownNow, ...s.guard('diagnostics', [], () => gate.filter((d) => shown(s, d)).map((d) => toDiagnostic(doc, d, s.textOf)))];
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
