/**
 * The contract between the language server and its clients, beyond standard LSP: custom request
 * names with their params and results, the command ids that lenses and quick fixes carry, and the
 * preview document scheme. Both the server and the VS Code client import this module, so `tsc`
 * checks both sides against one definition.
 *
 * Invariant (checked by test/unit/architecture.test.ts): no runtime imports. Types may be
 * re-exported from the engine with `export type`, which the bundler erases.
 */
export type {
  RolloutPlan,
  PlanStep,
  PlanWave,
  Enablement,
  EnablementEvidence,
  EnablementState,
} from './engine/rollout/types';

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
  /** Opens a file at a character offset (client only). Args: [absolute path or URI, offset]. */
  openLocation: 'appsetTools.openLocation',
} as const;
export type CommandId = (typeof Commands)[keyof typeof Commands];

/** The commands the server executes (advertised in `executeCommandProvider`). */
export const SERVER_COMMANDS: readonly CommandId[] = [Commands.showPreview, Commands.showRollout, Commands.setProgressiveSyncs, Commands.preview, Commands.rolloutPlan];

/** Custom request methods. */
export const Requests = {
  preview: 'appsetTools/preview',
  rolloutPlan: 'appsetTools/rolloutPlan',
} as const;

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
