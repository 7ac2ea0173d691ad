/** The repository configuration (`.appset-tools.yaml`) as the engine uses it. */
import type { EngineDiagnostic, Severity } from '../types';
import type { EngineSettings } from '../host';

/** A code's severity as `.appset-tools.yaml` sets it, or `off`. */
export type SeverityOverride = Severity | 'off';

export interface PolicyConfig {
  /** `policy/max-sync-at-once`: most Applications one commit may sync at the same time. */
  maxSyncAtOnce?: number;
  /** `policy/rolling-sync-required`: Applications matching any of these label sets must roll out with RollingSync. */
  requireRollingSync?: Record<string, string>[];
  /** `policy/strategy-ignored`: a RollingSync strategy while progressive syncs are not enabled is an error. */
  requireProgressiveSyncs?: boolean;
  /** `appset diff`: most Applications one change may delete together with their resources (0: none). */
  maxDeletes?: number;
  /** `policy/change-at-once` (the editor's change impact, `appset diff`): most Applications one change may make sync at the same time. */
  maxChangeAtOnce?: number;
  /** `policy/change-at-once`: most clusters one change's Applications may sync on at the same time. */
  maxChangeClustersAtOnce?: number;
}

export interface RepoConfig {
  /** Absolute path of the config file ('' when none was found). */
  path: string;
  /** Its folder: relative paths in it are resolved against this. */
  dir: string;
  text: string;
  /** Settings it sets (paths already absolute). */
  settings: Partial<EngineSettings>;
  /** Per-code severity, `area/*` patterns included. */
  severity: Map<string, SeverityOverride>;
  /** Absolute paths or globs of files to leave alone. */
  ignore: string[];
  policy: PolicyConfig;
  /** Problems in the config file itself (code `config/invalid`), located in it. */
  diagnostics: EngineDiagnostic[];
}

export const CONFIG_FILE = '.appset-tools.yaml';

export function emptyConfig(): RepoConfig {
  return { path: '', dir: '', text: '', settings: {}, severity: new Map(), ignore: [], policy: {}, diagnostics: [] };
}
