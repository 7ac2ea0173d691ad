/**
 * What every handler shares: the connection, the open documents, the engine and the client's
 * capabilities. One `ServerState` per server; the handlers in `handlers/` register themselves on it.
 */
import type { CancellationToken, Connection } from 'vscode-languageserver/node';
import { LSPErrorCodes, ResponseError, TextDocuments } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Analysis, LanguageService, ProbeCache } from '@appset-tools/engine';
import type { WorkspaceHost } from '../host/workspaceHost';
import type { PlatformChoice, ServerPlatform } from './platform';
import type { TextOf } from './convert';
import { DEFAULT_SERVER_SETTINGS, type ServerSettings } from './settings';
import { URI } from './uri';
import { timed } from './stepLog';
import { Scheduler, type Outcome } from './scheduler';
import { Impacts } from './impact';
import { ReceivedVersions } from './received';

export interface ClientCapabilities {
  /** The client answers workspace/configuration. */
  pullConfig: boolean;
  /** The client accepts a dynamic registration for didChangeConfiguration. */
  registerConfigChanges: boolean;
  /** The client re-asks for lenses on workspace/codeLens/refresh. */
  refreshLenses: boolean;
  /** We ask the client to watch files (it supports dynamic registration and does not watch itself). */
  registerWatchers: boolean;
  /** The client opens a document on window/showDocument (LSP 3.16; Neovim 0.7 ignores the request). */
  showDocument: boolean;
  /** The client tells of workspace folders added and removed (LSP 3.6; `workspace.workspaceFolders`). */
  workspaceFolders: boolean;
}

interface PrepareRun {
  /** Each waiter's staleness test. */
  waiters: (() => boolean)[];
  done: Promise<boolean>;
}

export class ServerState {
  readonly documents = new TextDocuments(TextDocument);
  host!: WorkspaceHost;
  service!: LanguageService;
  /** The workspace index's test results kept between sessions (platform.ts `workspaceCache`), if any. */
  workspaceCache: (ProbeCache & { save(): void }) | undefined;
  settings: ServerSettings = DEFAULT_SERVER_SETTINGS;
  client: ClientCapabilities = {
    pullConfig: false,
    registerConfigChanges: false,
    refreshLenses: false,
    registerWatchers: false,
    showDocument: false,
    workspaceFolders: false,
  };

  /** The impact of the uncommitted change against the baseline commit (impact.ts): lenses, hovers, the change gate. */
  readonly impacts = new Impacts({
    service: () => this.service,
    settings: () => this.settings.engine,
    slices: (steps, stale, name) => this.slices(steps, stale, name),
    git: () => this.platform.git,
    noGitHistory: () => this.platform.noGitHistory,
  });

  /** Where the server runs, chosen once at `initialize` (`choosePlatform`); the handlers ask it, never a host. */
  platform!: ServerPlatform;

  constructor(
    readonly connection: Connection,
    private readonly platforms: PlatformChoice,
    private readonly received = new ReceivedVersions(),
  ) {}

  /** Chooses the platform for the workspace's `roots`, once, when the host is created (handlers/lifecycle.ts). */
  choosePlatform(roots: string[]): ServerPlatform {
    this.platform = this.platforms.choose(roots, this.log);
    return this.platform;
  }

  /**
   * `doc` is not the version the next answers are for: the document changed or closed, or another
   * version of it is already read and queued (received.ts). Work for it is dropped before it starts.
   */
  superseded(doc: TextDocument): boolean {
    return this.documents.get(doc.uri)?.version !== doc.version || this.received.superseded(doc.uri, doc.version);
  }

  log = (message: string): void => this.connection.console.log(message);

  /**
   * A request about `doc` (the open document as the request found it; undefined for a file that is not
   * open) is no longer wanted: it was cancelled, or the document changed or closed since.
   */
  requestStale(doc: TextDocument | undefined, token?: CancellationToken): () => boolean {
    const version = doc?.version;
    return () => !!token?.isCancellationRequested || (doc !== undefined && this.documents.get(doc.uri)?.version !== version);
  }

  /**
   * The one wait for the platform's first read of the workspace (platform.ts `ready`: the web worker and
   * a virtual workspace read it through the client): nothing may read the workspace index before it
   * ends, or the index would list an empty workspace. Every answer starts with it (handlers/publish.ts,
   * the requests' `readyFor`, `analyzed`). Undefined when there is nothing to wait for (Node reads the
   * disk when asked), so that the caller goes on synchronously: each caller awaits it only when it is
   * there (`if (reading) await reading`), since even `await undefined` would let a reset in the same turn
   * (`forgetRuns`) pass before the caller's run is registered (server-state.test.ts).
   */
  firstRead(): Promise<void> | undefined {
    return this.platform.ready?.();
  }

  /** Runs one handler's work; a failure is logged and answered with `fallback`, never kills the server. */
  guard<T>(what: string, fallback: T, fn: () => T): T {
    try {
      // A guarded handler is answering (or publishing): the next turn of queued work lets it out first.
      this.scheduler.answer();
      return timed(what, fn);
    } catch (e) {
      this.connection.console.error(`${what} failed: ${(e as Error).stack ?? e}`);
      return fallback;
    }
  }

  /**
   * Does the expensive part of answering for `a` (its expansions) in slices (scheduler.ts),
   * handing the event loop back between them, so that requests for other documents are answered
   * meanwhile. False when `stale()` says, at a pause, that the work is no longer wanted (a newer
   * version of the document, a cancelled request); the partial work is dropped.
   */
  prepare(a: Analysis, stale: () => boolean): Promise<boolean> {
    // One run per analysis, however many wait for it (diagnostics, hover, lenses, completion and the
    // preview all ask at once after an edit); it is dropped only when every one of them is stale.
    let run = this.runs.get(a);
    if (run) run.waiters.push(stale);
    else {
      // Its first waiter before it starts: a run nobody wants is not started (scheduler.ts).
      const r: PrepareRun = { waiters: [stale], done: Promise.resolve(true) };
      r.done = this.slices(this.service.prepare(a), () => r.waiters.every((w) => w()), 'expansion').then((x) => x.ok);
      void r.done.finally(() => this.runs.delete(a));
      this.runs.set(a, r);
      run = r;
    }
    return run.done.then((ok) => ok && !stale());
  }

  private readonly runs = new WeakMap<Analysis, PrepareRun>();

  /** Every run of stepwise work goes through one queue (scheduler.ts). */
  private readonly scheduler = new Scheduler((name, e) => this.connection.console.error(`${name} failed: ${(e as Error).stack ?? e}`));

  /**
   * Runs stepwise work (the engine's generators) across the event loop's turns (scheduler.ts): other
   * messages are handled between them. `ok` is false when `stale()` said at a pause that the work is
   * no longer wanted. A failure is logged; the answers that follow compute (and guard) the same work again.
   */
  slices<T>(steps: Generator<unknown, T>, stale: () => boolean, name = 'work'): Promise<Outcome<T>> {
    return this.scheduler.run(steps, stale, name);
  }

  /**
   * The analysis of an open document, parsed in slices (see `slices`): one run per document version
   * however many ask; undefined when it went stale (`stale`, or the document changed or closed).
   */
  async analyzed(doc: TextDocument, stale: () => boolean = () => false): Promise<Analysis | undefined> {
    const reading = this.firstRead();
    if (reading) await reading;
    const key = `${doc.version}|${doc.uri}`;
    let run = this.analyses.get(key);
    if (run) run.waiters.push(stale);
    else {
      // Its first waiter before it starts: a run nobody wants is not started (scheduler.ts).
      const waiters: (() => boolean)[] = [stale];
      const generation = this.generation;
      const gone = () => this.superseded(doc) || this.generation !== generation;
      const steps = this.service.analyzeSteps(doc.uri, doc.getText(), URI.toPath(doc.uri));
      run = {
        waiters,
        done: this.slices(steps, () => gone() || waiters.every((w) => w()), 'analysis').then((r) => (r.ok ? r.value : undefined)),
      };
      const own = run;
      // Only its own entry: after `forgetRuns` the key may hold a newer run, which stays shared.
      void run.done.finally(() => this.analyses.get(key) === own && this.analyses.delete(key));
      this.analyses.set(key, run);
    }
    const a = await run.done;
    return a && !stale() ? a : undefined;
  }

  private readonly analyses = new Map<string, { waiters: (() => boolean)[]; done: Promise<Analysis | undefined> }>();

  /** Counts `forgetRuns`: an analysis started before it is not shared after it, and is dropped at its next pause. */
  private generation = 0;

  /**
   * The engine was reset (settings, workspace folders): analyses still running were computed with
   * what the reset dropped (a run started before new settings would give the old settings' findings
   * to everyone who asks after them), so none is shared from now on, and each is dropped at its next pause.
   */
  forgetRuns(): void {
    this.generation++;
    this.analyses.clear();
  }

  /** A document whose analysis is being computed in slices (its own run pushes it to the index when done). */
  analyzing(uri: string): boolean {
    const doc = this.documents.get(uri);
    return !!doc && this.analyses.has(`${doc.version}|${uri}`);
  }

  /**
   * `prepare` for an open document, after its analysis (in slices too): stale once the document
   * changed or closed, or `token` was cancelled.
   */
  async ready(doc: TextDocument, token?: CancellationToken): Promise<boolean> {
    const stale = () => !!token?.isCancellationRequested || this.superseded(doc);
    if (!(await this.analyzed(doc, stale))) return !stale();
    // The analysis again: the same object unless the workspace changed meanwhile (then re-made from the same parse).
    const a = this.guard('analysis', undefined, () => this.analysisOf(doc));
    if (!a) return true;
    return this.prepare(a, stale);
  }

  /** The LSP error for a request dropped by `ready`: cancelled by the client, or its document changed. */
  dropped(token?: CancellationToken): ResponseError<void> {
    return token?.isCancellationRequested
      ? new ResponseError(LSPErrorCodes.RequestCancelled, 'request cancelled')
      : new ResponseError(LSPErrorCodes.ContentModified, 'the document changed; ask again');
  }

  /**
   * A request about an open document: `fn` runs once the document's expansions are ready (see
   * `prepare`); `fallback` for a document that is not open.
   */
  async whenReady<T>(
    uri: string,
    token: CancellationToken | undefined,
    fallback: T,
    fn: (doc: TextDocument) => T | Promise<T>,
  ): Promise<T> {
    const doc = this.documents.get(uri);
    if (!doc) return fallback;
    if (!(await this.ready(doc, token))) throw this.dropped(token);
    return fn(doc);
  }

  analysisOf(doc: TextDocument): Analysis {
    return this.service.analyze(doc.uri, doc.getText(), URI.toPath(doc.uri));
  }

  /** Open documents first, then files on disk (through the confined host). */
  textOf: TextOf = (fileOrUri) => {
    const uri = fileOrUri.includes('://') ? fileOrUri : URI.fromPath(fileOrUri);
    const open = this.documents.get(uri);
    if (open) return open;
    const p = URI.toPath(uri);
    const text = p ? this.host.readFile(p) : undefined;
    return text === undefined ? undefined : TextDocument.create(uri, 'yaml', 0, text);
  };
}
