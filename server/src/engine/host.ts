/**
 * The outside world as the engine sees it. Every file, git and settings access of the engine goes
 * through one `EngineHost`, so the same engine runs in the language server, the CLI and the tests,
 * and so reads can be confined to the workspace in one place (see `host/nodeHost.ts`).
 *
 * Architecture invariant: engine code never imports `fs`, `child_process` or `vscode`; it asks the host.
 * Paths given to and returned by the host are absolute, normalised, with `/` separators.
 */
import { SETTINGS, type ProgressiveSyncOverride } from '@appset-tools/protocol/settingsTable';

export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  /** Modification time in ms, used as a cache key. */
  mtimeMs: number;
  size: number;
  /** The path itself is a symbolic link (the other fields describe its target). */
  isSymbolicLink?: boolean;
  /** Identity of the target (device and inode), so walks can notice a folder they already visited. */
  id?: string;
}

export interface GitRemote {
  /** The work tree root (absolute path) that has this remote. */
  root: string;
  name: string;
  url: string;
}

export interface EngineHost {
  /** Workspace folders (absolute paths). Reads outside them are refused. */
  roots(): string[];
  /** Reads a UTF-8 file inside the workspace; undefined when missing, too large, or outside the workspace. */
  readFile(path: string): string | undefined;
  stat(path: string): FileStat | undefined;
  /** Entries (names only) of a directory inside the workspace; undefined when not a readable directory. */
  readDir(path: string): string[] | undefined;
  /** Git remotes of the work trees found at or below the workspace roots. */
  gitRemotes(): GitRemote[];
  /** Current settings (already merged with defaults). */
  settings(): EngineSettings;
  /** Optional log sink for non-fatal problems. */
  log?(message: string): void;
  /**
   * Set where the host reads only the opened repository (VS Code for the Web: no local checkouts of
   * other repositories, no git history): the reason, which a finding that needs one says instead of
   * the desktop's advice.
   */
  readonly onlyOpenedRepository?: string;
}

export type { ProgressiveSyncOverride };

/** An explicit "these ApplicationSets run on that Argo CD" (settings / `.appset-tools.yaml`). */
export interface InstanceMapping {
  /** Shown in findings, e.g. `prod`. */
  name: string;
  /** Workspace-relative globs (or folders) of ApplicationSet files this instance runs. */
  applicationSets: string[];
  /** Workspace-relative files or folders holding this instance's configuration. */
  config?: string[];
  /** The answer when its configuration lives outside the repository. */
  progressiveSyncs?: 'enabled' | 'disabled';
  /** Where the mapping was written, for the "why" (default `appsetTools.instances`). */
  origin?: string;
}

export interface EngineSettings {
  /** Maximum number of Applications one ApplicationSet may expand to before the preview stops. */
  maxApplications: number;
  /** Extra files (absolute or workspace-relative, globs allowed) holding cluster Secrets or inventories. */
  inventoryFiles: string[];
  /** repoURL → local folder (absolute or workspace-relative). */
  repoMappings: Record<string, string>;
  /** Whether progressive syncs are enabled on the controller: detect, or force. */
  progressiveSyncs: ProgressiveSyncOverride;
  /** Use the controller's new git file globbing (`--enable-new-git-file-globbing`). */
  newGitFileGlobbing: boolean;
  /** Minimum number of Applications for the AllAtOnce blast-radius finding (a warning for production destinations). */
  blastRadiusThreshold: number;
  /**
   * The Argo CD version ApplicationSets are checked against: `auto` (detected from the repository's
   * install, else the newest release), `2.8` … `3.5`, `v3.2.5`, or `master`.
   */
  argocdVersion: string;
  /** Explicit ApplicationSet → Argo CD instance mappings. */
  instances: InstanceMapping[];
  /** A rollout wave that syncs more Applications than this gets a policy note. */
  maxWaveSize: number;
  /** Minutes one sync is assumed to take, for the total time of a proposed rollout (an assumption, said as one). */
  minutesPerSync: number;
  /** The name of a mapping in `instances` that runs every ApplicationSet, whatever its path (CLI `--instance`); '' = by path. */
  instance: string;
  /** What the editor's "this change" lens compares with: `HEAD`, `merge-base`, another git revision, or `off`. */
  impactBaseline: string;
}

/** The defaults of the settings table (settingsTable.ts), which package.json and the docs show too. */
export const DEFAULT_SETTINGS: EngineSettings = {
  maxApplications: SETTINGS.maxApplications.default,
  inventoryFiles: [...SETTINGS.inventoryFiles.default],
  repoMappings: { ...SETTINGS.repoMappings.default },
  progressiveSyncs: SETTINGS.progressiveSyncs.default,
  newGitFileGlobbing: SETTINGS.newGitFileGlobbing.default,
  blastRadiusThreshold: SETTINGS.blastRadiusThreshold.default,
  argocdVersion: SETTINGS.argocdVersion.default,
  instances: [...SETTINGS.instances.default],
  maxWaveSize: SETTINGS.maxWaveSize.default,
  minutesPerSync: SETTINGS.minutesPerSync.default,
  impactBaseline: SETTINGS.impactBaseline.default,
  instance: '',
};

/** A host with no workspace: nothing can be read. Used for single-text checks and tests. */
export function emptyHost(settings: Partial<EngineSettings> = {}): EngineHost {
  const s = { ...DEFAULT_SETTINGS, ...settings };
  return {
    roots: () => [],
    readFile: () => undefined,
    stat: () => undefined,
    readDir: () => undefined,
    gitRemotes: () => [],
    settings: () => s,
  };
}
