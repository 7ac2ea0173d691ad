/**
 * The custom requests of `protocol.ts` (the preview and the rollout plan) and `workspace/executeCommand`:
 * every command a lens or quick fix carries runs here, so Neovim, Helix and Emacs can run them (they
 * send the command back to the server). The lens commands return the text and show a one-line summary,
 * so a lens does something visible in an editor without a preview window; `preview`/`rolloutPlan`
 * only return the text. The VS Code client intercepts the lens commands to open its own views.
 */
import { ErrorCodes, MessageType, ResponseError, ShowMessageNotification, type CancellationToken } from 'vscode-languageserver/node';
import {
  Commands,
  Requests,
  type DocumentRequestParams,
  type RequestMethod,
  type RequestParams,
  type RequestResult,
} from '@appset-tools/protocol';
import { looksLikeAppSet, type Analysis } from '@appset-tools/engine';
import { URI } from '../uri';
import type { ServerState } from '../state';
import type { Revalidation } from './diagnostics';
import { fullCollection } from '../idleMemory';
import { checkCommand } from './commandArgs';
import { changeSummaryAt, changeText, changeTexts, type DocumentImpact } from '../impact';
import { readWholeWorkspace } from './wholeWorkspace';

export interface Overrides {
  /** A setting changed for this server session by a command (the progressive-syncs quick fix). */
  setOverride(key: 'progressiveSyncs', value: string): void;
}

/** How long a request naming a newer version of its document waits for that version's didChange. */
const VERSION_WAIT_MS = 2000;

export function registerRequests(s: ServerState, revalidation: Revalidation, overrides: Overrides): void {
  const ready = readiness(s, revalidation);
  const { readyFor, previewFor, offsetOf, impactFor } = ready;

  /** Registers a custom request with the params and result `protocol.ts`'s `RequestTypes` gives it. */
  const handle = <M extends RequestMethod>(
    method: M,
    handler: (params: RequestParams<M>, token: CancellationToken) => Promise<RequestResult<M>>,
  ) => s.connection.onRequest(method, handler);

  handle(Requests.preview, async (r, token) => {
    const a = await previewFor(r, token);
    return a ? s.guard('preview', null, () => s.service.preview(a, offsetOf(r))) : null;
  });

  handle(Requests.rolloutPlan, async (r, token) => {
    const a = await readyFor(r, token);
    return a ? s.guard('rollout plan', null, () => s.service.rolloutPlan(a, offsetOf(r))) : null;
  });

  handle(Requests.fileInfo, async (r, token) => {
    const a = await readyFor(r, token);
    return a ? s.guard('file info', null, () => s.service.fileInfo(a)) : null;
  });

  handle(Requests.changeTexts, async (r, token) => changeTexts(await impactFor(r, token), offsetOf(r)));

  handle(Requests.changeSummary, async (r, token) => changeSummaryAt(await impactFor(r, token), offsetOf(r)));

  registerCommands(s, ready, overrides);
  registerTestRequests(s);
}

type Ready = (r: DocumentRequestParams, token?: CancellationToken) => Promise<Analysis | undefined>;

/**
 * A requested document made ready to answer: analysed and expanded in slices, with the workspace index
 * in step with every open document; the request dropped when it is cancelled or its document changes.
 */
function readiness(
  s: ServerState,
  revalidation: Revalidation,
): {
  readyFor: Ready;
  previewFor: Ready;
  offsetOf: (r: DocumentRequestParams) => number | undefined;
  impactFor: (r: DocumentRequestParams, token?: CancellationToken) => Promise<DocumentImpact>;
} {
  const { documents } = s;

  /** The analysis of the requested document, with the index in step with every open document. */
  const analysisFor = (r: DocumentRequestParams): Analysis | undefined => {
    syncOpenDocuments();
    if (typeof r?.uri !== 'string') return undefined;
    const doc = documents.get(r.uri) ?? s.textOf(r.uri);
    return doc ? s.analysisOf(doc) : undefined;
  };
  /**
   * An edit typed a moment ago in another document (a cluster Secret) counts, even before its
   * debounced run: the client refreshes its views right after edits. A document still being analysed
   * in slices is left to its own run, which pushes it when done.
   */
  const syncOpenDocuments = () => {
    for (const d of documents.all())
      if (!s.analyzing(d.uri) && s.service.openDocuments.sync(URI.toPath(d.uri), d.getText(), () => s.analysisOf(d)))
        revalidation.scheduleOthers(d.uri);
  };
  const offsetOf = (r: DocumentRequestParams) => (typeof r.offset === 'number' && r.offset >= 0 ? r.offset : undefined);
  /** The request is no longer wanted: cancelled, or its open document changed or closed since it came. */
  const staleness = (r: DocumentRequestParams, token?: CancellationToken) => {
    const open = typeof r?.uri === 'string' ? documents.get(r.uri) : undefined;
    return { open, stale: s.requestStale(open, token) };
  };
  /** `analysisFor` with the expansions done in slices (state.ts `prepare`); other requests are answered meanwhile. */
  const readyFor = async (
    r: DocumentRequestParams,
    token?: CancellationToken,
    { open, stale } = staleness(r, token),
  ): Promise<Analysis | undefined> => {
    const reading = s.firstRead();
    if (reading) await reading;
    // A view (the preview, the plan) is whole: a workspace still being read is read first, in slices; the
    // open documents' findings that waited for it follow (engine/service/heldFindings.ts).
    if (s.service.workspace.reading && !(await readWholeWorkspace(s, revalidation, stale))) throw s.dropped(token);
    // An open document is parsed in slices first (a file on disk is read whole, within the host's size cap),
    // and again in slices when pushing the open documents moved the workspace index (its analysis is
    // then made again from the same parse, with the workspace looked at anew).
    if (open && !(await s.analyzed(open, stale)) && stale()) throw s.dropped(token);
    if (open) {
      const before = s.service.workspace.version;
      s.guard('analysis', undefined, syncOpenDocuments);
      if (s.service.workspace.version !== before && !(await s.analyzed(open, stale)) && stale()) throw s.dropped(token);
    }
    const a = s.guard('analysis', undefined, () => analysisFor(r));
    if (!a) return undefined;
    if (!(await s.prepare(a, stale))) throw s.dropped(token);
    return a;
  };
  /**
   * Resolves once the open document has reached the version the client saw (`DocumentRequestParams.version`),
   * or after VERSION_WAIT_MS (a version that never comes: the request answers what is there).
   */
  const versionReached = (r: DocumentRequestParams): Promise<void> | undefined => {
    const behind = () => {
      const open = typeof r?.uri === 'string' ? documents.get(r.uri) : undefined;
      return !!open && typeof r.version === 'number' && open.version < r.version;
    };
    if (!behind()) return undefined;
    return new Promise((done) => {
      const finish = () => {
        clearTimeout(timer);
        sub.dispose();
        done();
      };
      const timer = setTimeout(finish, VERSION_WAIT_MS);
      const sub = documents.onDidChangeContent(() => {
        if (!behind()) finish();
      });
    });
  };
  /** `readyFor` with the preview text of the ApplicationSet at the offset written in slices too. */
  const previewFor = async (r: DocumentRequestParams, token?: CancellationToken): Promise<Analysis | undefined> => {
    await versionReached(r);
    const st = staleness(r, token);
    const a = await readyFor(r, token, st);
    if (!a) return undefined;
    if (!(await s.slices(s.service.preparePreview(a, offsetOf(r)), st.stale, 'preview')).ok) throw s.dropped(token);
    return a;
  };

  /** The change's impact on the requested document (lsp/impact.ts), once its analysis is ready. */
  const impactFor = async (r: DocumentRequestParams, token?: CancellationToken): Promise<DocumentImpact> => {
    const a = await readyFor(r, token);
    const path = r.uri ? URI.toPath(r.uri) : undefined;
    const doc = r.uri ? s.textOf(r.uri) : undefined;
    return a && path && doc ? s.impacts.of(a, path, doc.getText()) : undefined;
  };

  return { readyFor, previewFor, offsetOf, impactFor };
}

/**
 * `workspace/executeCommand`: the commands lenses and quick fixes carry, for editors that send them back
 * to the server (the preview and plan as text, opening a location, the progressive-syncs override).
 */
function registerCommands(
  s: ServerState,
  { readyFor, previewFor, offsetOf, impactFor }: ReturnType<typeof readiness>,
  overrides: Overrides,
): void {
  const { connection, documents } = s;
  // A notification, not window.showInformationMessage (a request some editors answer with a prompt).
  const say = (message: string) => void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Info, message });

  /** A command that returns a text (the preview or the plan); the lens commands (`show`) also show its summary. */
  const textCommand = async (
    r: DocumentRequestParams,
    token: CancellationToken,
    label: string,
    show: boolean,
    text: (a: Analysis, offset?: number) => { text: string; summary: string } | null,
    ready: Ready = readyFor,
  ): Promise<string | null> => {
    const a = r.uri ? await ready(r, token) : undefined;
    const out = a ? s.guard(label, null, () => text(a, offsetOf(r))) : null;
    if (out && show) say(out.summary);
    return out?.text ?? null;
  };

  /**
   * The document a command names: lenses pass [uri, offset], a key map may pass just the uri. Without
   * one (Helix's `:lsp-workspace-command` sends no arguments before 25.07), the one open document that
   * holds an ApplicationSet; with none or several, a message says which argument the command needs
   * rather than silently returning nothing.
   */
  const commandDocument = (command: string, uri: string | undefined, offset: number | undefined): DocumentRequestParams | undefined => {
    if (uri) return { uri, offset };
    const open = documents.all().filter((d) => looksLikeAppSet(d.getText()));
    if (open.length === 1) return { uri: open[0].uri };
    const which = open.length
      ? `${open.length} ApplicationSet files are open (${open.map((d) => d.uri.split('/').pop()).join(', ')})`
      : 'no ApplicationSet file is open';
    say(`${command} needs the document's URI as its first argument: ${which}.`);
    return undefined;
  };

  connection.onExecuteCommand(async (p, token) => {
    // Arguments are any JSON the client sends: checked first (commandArgs.ts), answered InvalidParams when unusable.
    const c = checkCommand(p);
    if (!c.ok) return new ResponseError(ErrorCodes.InvalidParams, c.message);
    switch (c.command) {
      case Commands.showPreview:
      case Commands.preview:
      case Commands.showRollout:
      case Commands.rolloutPlan: {
        const r = commandDocument(c.command, c.uri, c.offset);
        if (!r) return null;
        const show = c.command === Commands.showPreview || c.command === Commands.showRollout;
        return c.command === Commands.showPreview || c.command === Commands.preview
          ? textCommand(r, token, 'preview command', show, (a, at) => s.service.previewText(a, at), previewFor)
          : textCommand(r, token, 'plan command', show, (a, at) => s.service.planText(a, at));
      }
      case Commands.openLocation: {
        // Lenses and the rollout view link to configuration files: the editor opens them.
        const doc = s.textOf(c.uri!);
        if (!doc) return null;
        const pos = doc.positionAt(c.offset ?? 0);
        // Only a client that says it opens documents is asked to (Neovim 0.7 ignores the request); any
        // other is told where to look.
        if (s.client.showDocument)
          void connection.window
            .showDocument({ uri: doc.uri, takeFocus: true, selection: { start: pos, end: pos } })
            .catch(() => undefined);
        else say(`Open ${URI.toPath(doc.uri) ?? doc.uri}:${pos.line + 1}`);
        return doc.uri;
      }
      case Commands.showChange: {
        // The "This change" lens in editors without a diff view: the breakdown as text, its line shown.
        const r = commandDocument(c.command, c.uri, c.offset);
        const out = r ? changeText(await impactFor(r, token), offsetOf(r)) : null;
        say(out?.summary ?? 'This change: nothing changes against the baseline');
        return out?.text ?? null;
      }
      case Commands.setProgressiveSyncs: {
        const v = c.value!;
        overrides.setOverride('progressiveSyncs', v);
        say(`appsetTools.progressiveSyncs is "${v}" until the server restarts; set it in this server's settings to keep it.`);
        return v;
      }
    }
    return null;
  });
}

function registerTestRequests(s: ServerState): void {
  const { connection } = s;
  // For the test suite only (test/lsp/load.test.ts): the server's memory after a full collection
  // (or as it is, with `{collect: false}`), to check that long sessions stay flat and that an idle
  // server gives garbage back. Not part of the protocol; off unless the variable is set.
  if (process.env.APPSET_TOOLS_TEST_REQUESTS === '1')
    connection.onRequest('appsetTools/test/memory', (p?: { collect?: boolean }) => {
      if (p?.collect !== false) fullCollection()?.();
      return process.memoryUsage();
    });

  // For the test suite only (test/lsp/first-answer.test.ts): the workspace index's version, which every
  // reset (new settings, folders) moves on; and how far its listing is (test/lsp/hostile.test.ts: hovers
  // are answered while a large tree is listed).
  if (process.env.APPSET_TOOLS_TEST_REQUESTS === '1')
    connection.onRequest('appsetTools/test/index', () => ({ version: s.service.workspace.version, scanned: s.service.workspace.scanned }));
}
