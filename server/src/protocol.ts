/**
 * The contract between the language server and its clients, beyond standard LSP: custom request
 * names with their params and results, the command ids that lenses and quick fixes carry, and the
 * preview document scheme. Both the server and the VS Code client import this module, so `tsc`
 * checks both sides against one definition.
 *
 * Invariant (checked by test/unit/architecture.test.ts): no runtime imports. Types may be
 * re-exported from the engine with `export type`, which the bundler erases.
 */
import type { EnablementState } from './engine/rollout/types';
export type { RolloutPlan, PlanStep, PlanWave, Enablement, EnablementEvidence, EnablementState } from './engine/rollout/types';

/**
 * Node options the language server is meant to be started with: the VS Code client passes them, the
 * README's editor setups put them before `dist/server.js`. A young generation of at most 2 MiB per
 * semi-space keeps the garbage of a burst of keystrokes from growing the process (bench/results.md
 * measures the server with and without them). The server also tunes what can be set once it runs
 * (heapFlags.ts).
 */
export const SERVER_NODE_OPTIONS: readonly string[] = ['--max-semi-space-size=2'];

/**
 * Command ids carried by code lenses and quick fixes, and the text commands. Every one except
 * restartServer runs in the server (`workspace/executeCommand`, listed in SERVER_COMMANDS), so any
 * LSP editor can run them; the VS Code client adds its UI on top (middleware), never logic.
 */
export const Commands = {
  /** Lens: the preview of generated Applications. Args: [documentUri, offset?]. Returns the preview YAML; the server also shows a one-line summary. */
  showPreview: 'appsetTools.showPreview',
  /** Lens: the RollingSync plan. Args: [documentUri, offset?]. Returns the plan as text; the server also shows a one-line summary. */
  showRollout: 'appsetTools.showRollout',
  /** Restarts the language server (client only). */
  restartServer: 'appsetTools.restartServer',
  /** Quick fix: sets the `appsetTools.progressiveSyncs` override for the server session. Args: ['enabled' | 'disabled' | 'auto']. */
  setProgressiveSyncs: 'appsetTools.setProgressiveSyncs',
  /** The preview YAML as text, nothing shown. Args: [documentUri, offset?]. */
  preview: 'appsetTools.preview',
  /** The RollingSync plan as text, nothing shown. Args: [documentUri, offset?]. */
  rolloutPlan: 'appsetTools.rolloutPlan',
  /** Opens a file at a character offset (the server asks the editor with window/showDocument). Args: [absolute path or URI, offset]. */
  openLocation: 'appsetTools.openLocation',
} as const;
export type CommandId = (typeof Commands)[keyof typeof Commands];

/** The commands the server executes (advertised in `executeCommandProvider`). */
export const SERVER_COMMANDS: readonly CommandId[] = [
  Commands.showPreview,
  Commands.showRollout,
  Commands.setProgressiveSyncs,
  Commands.preview,
  Commands.rolloutPlan,
  Commands.openLocation,
];

/** Custom request methods. */
export const Requests = {
  preview: 'appsetTools/preview',
  rolloutPlan: 'appsetTools/rolloutPlan',
  /** The ApplicationSets of a document and whether their controller runs progressive syncs (params: DocumentRequestParams; result: FileInfo | null). */
  fileInfo: 'appsetTools/fileInfo',
} as const;

/** Server → client notifications. */
export const Notifications = {
  /** Something the lenses and diagnostics depend on changed (another file, settings): views should ask again. No params. */
  resultsChanged: 'appsetTools/resultsChanged',
} as const;

/** One ApplicationSet of a document, for the editor's status bar and context keys. */
export interface FileInfoAppSet {
  name: string;
  /** Character offsets of its YAML document. */
  start: number;
  end: number;
  /** A RollingSync strategy with steps is written. */
  rollingSync: boolean;
  /** Progressive syncs on the controller that runs it. */
  enablement: {
    state: EnablementState;
    /** One line: `Progressive syncs enabled by argocd/argocd-cmd-params-cm.yaml:12`, `Ignored: progressive syncs are off, …`. */
    text: string;
    /** Which install, and why it was chosen. */
    instance?: string;
    /** The file (absolute path) and offset that decided, when a file did. */
    file?: string;
    offset?: number;
    /** The install model's lines for the install(s) that run it (version, settings, file:line), as `appset instances` prints them. */
    install?: string[];
  };
}

export interface FileInfo {
  appsets: FileInfoAppSet[];
}

/** Params of every document request: the document, and an offset inside the ApplicationSet wanted (else the first). */
export interface DocumentRequestParams {
  uri: string;
  offset?: number;
}

/** Result of `appsetTools/preview` (null when the document holds no ApplicationSet). */
export interface PreviewResult {
  /** The ApplicationSet's metadata.name. */
  name: string;
  /** Every generated Application as multi-document YAML, with a header saying how exact it is. */
  yaml: string;
  /** Number of Applications. */
  apps: number;
  notes: string[];
  exact: boolean;
}

/** URI scheme of the read-only preview documents the VS Code client opens. */
export const PREVIEW_SCHEME = 'appset-preview';
