/**
 * What the facade hands the fronts (engine/index.ts): plain data, never an engine context. An analysis
 * is an opaque handle the fronts hold and give back, as vscode-json-languageservice's JSONDocument;
 * the types that cross to the client are in protocol.ts.
 */
import type { Span } from '../types';
import type { Expansion } from '../expand/types';
import type { HelmValuesOrigin } from '../kinds/documents';

declare const analysed: unique symbol;

/** A document as the engine analysed it: the fronts hold it and hand it back to the facade; what it holds is the engine's. */
export interface DocumentAnalysis {
  readonly [analysed]: true;
}

/** One ApplicationSet of an analysed file. */
export interface AppSetSummary {
  name: string;
  /** `metadata.namespace`, or '' when absent. */
  namespace: string;
  /** Its document's position among the file's `---` documents. */
  index: number;
  /** Its document in the file. */
  span: Span;
  /** The document as read (plain JSON values). */
  value: unknown;
  /** For an ApplicationSet written as argocd-apps chart values: where in the values it is. */
  helmValues?: HelmValuesOrigin;
}

/** The Applications an ApplicationSet generates, as the preview computes them: the expansion without the renders it lends its next version. */
export type Applications = Omit<Expansion, 'renders'>;

/** Where an ApplicationSet writes what `appset diff --format sarif` points at. */
export interface RolloutSites {
  /** The `spec.generators` key. */
  generators: Span;
  /** Each step of the rollout plan (`spec.strategy.rollingSync.steps[i]`). */
  steps: Span[];
}

/** The workspace index as the fronts drive it: its version and reading progress, no files. */
export interface WorkspaceState {
  /** Bumped on every change of what the index holds. */
  readonly version: number;
  readonly scanned: { entries: number; complete: boolean };
  readonly counts: { listed: number; statted: number; read: number; cacheSkips: number; parsed: number };
  /** Deferred mode: answers may still come from part of the workspace (see WorkspaceIndex.reading). */
  readonly reading: boolean;
  /** Reads more of a deferred workspace (see WorkspaceIndex.warm); true when all of it is read. */
  warm(budget: number): boolean;
  /** Deferred mode: from now on, the files an earlier run found to pass an interest are read when an answer first asks for it (see WorkspaceIndex.readKnownWhenAsked). */
  readKnownWhenAsked(): void;
  /** Deferred mode: whether an earlier run knew more than `files` files here (see WorkspaceIndex.knownLarger). */
  knownLarger(files: number): boolean;
  /** After `warm` finished: whether answers given before may change (validate again). */
  settle(): boolean;
  /** What the scan left out (caps, files over the size limit, FIFOs). */
  scanNotes(onlyIfScanned?: boolean): string[];
  /** A file (or, without a path, everything) changed on disk. */
  invalidate(path?: string): void;
}

/** Open editor documents as overlays of the workspace index (openDocuments.ts). */
export interface OpenDocumentsOf<A> {
  sync(path: string | undefined, text: string, analysis: () => A): boolean;
  opened(path: string | undefined, text: string): boolean;
  remember(path: string | undefined, a: A): void;
  resync(docs: { path: string | undefined; text: string }[]): void;
  /** The document's file was deleted on disk: it is no longer in the repository, whatever its tab holds. */
  deletedOnDisk(path: string | undefined): boolean;
  /** The document's file is on disk again (saved, restored): its text overlays it again. */
  onDisk(path: string | undefined, text: string): boolean;
  close(path: string | undefined): void;
  /** A tab sent as text only (`appsetTools/inputDocument`: a git generator's `config.json`), opened or changed. */
  input(path: string | undefined, text: string): boolean;
  /** That tab closed: its file on disk counts again. */
  inputClosed(path: string | undefined): boolean;
  /** That tab's text, while it is open. */
  inputText(path: string | undefined): string | undefined;
}
