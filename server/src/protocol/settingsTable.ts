/**
 * The one table of the editor settings (`appsetTools.*`, read by the language server through
 * `workspace/configuration`). Each entry is the VS Code contribution as package.json declares it
 * (type, default, bounds, description) plus `docs`, the meaning docs/editors.md shows.
 * `scripts/settings-table.ts` writes package.json's `contributes.configuration` and docs/editors.md's
 * settings table from it, the engine's and the server's defaults are read from it, and
 * test/unit/settings-table.test.ts fails when any of them disagrees. Add a setting here.
 * Plain data: imports nothing, so the engine, the server and the scripts can all read it.
 */

/**
 * What the progressive-syncs override may be. One list for its three readers: the editor setting (below),
 * `.appset-tools.yaml`'s `progressiveSyncs` (`engine/config/keys.ts`) and `--progressive-syncs`
 * (`cli/common.ts`), and the quick fix's command argument (`lsp/handlers/commandArgs.ts`).
 */
export const PROGRESSIVE_SYNCS = ['auto', 'enabled', 'disabled'] as const;
export type ProgressiveSyncOverride = (typeof PROGRESSIVE_SYNCS)[number];

export function isProgressiveSyncOverride(v: unknown): v is ProgressiveSyncOverride {
  return (PROGRESSIVE_SYNCS as readonly unknown[]).includes(v);
}

export const SETTINGS = {
  'validate.enable': {
    type: 'boolean',
    default: true,
    description: 'Validate ApplicationSet documents in YAML files.',
    docs: 'validate ApplicationSet documents',
  },
  'validate.yamlSyntax': {
    type: 'boolean',
    default: true,
    description:
      "Report YAML syntax errors in ApplicationSet files. When Red Hat's YAML extension is installed and this is not set, they are left to it, so no error is shown twice.",
    docs: "report YAML syntax errors in ApplicationSet files; in VS Code left to Red Hat's YAML extension when it is installed, unless set",
  },
  'validate.debounceMs': {
    type: 'number',
    default: 200,
    minimum: 0,
    description: 'Delay (ms) after the last keystroke before diagnostics are recomputed.',
    docs: 'delay after the last keystroke before diagnostics are recomputed',
  },
  maxApplications: {
    type: 'integer',
    default: 10000,
    minimum: 1,
    maximum: 1_000_000,
    description: 'Stop expanding an ApplicationSet after this many Applications (a diagnostic says so).',
    docs: 'stop expanding an ApplicationSet after this many Applications (a diagnostic says so)',
  },
  inventoryFiles: {
    type: 'array',
    items: { type: 'string' },
    default: [],
    description:
      'Extra files (workspace-relative or absolute, globs allowed) with cluster Secrets or cluster inventories for the cluster generator.',
    docs: 'extra files with cluster Secrets or cluster inventories (workspace-relative or absolute, globs allowed)',
  },
  repoMappings: {
    type: 'object',
    additionalProperties: { type: 'string' },
    default: {},
    description: 'Map git repoURLs to local folders for the git generator, e.g. {"https://github.com/org/repo.git": "../repo"}.',
    docs: 'git or OCI `repoURL` → local folder, for the git generator (a checkout) and the oci generator (the artifact\'s content); the folder may lie outside the workspace (e.g. `"../repo"`): a folder named here is read deliberately, and a mapping to a folder that does not exist is an error on the generator\'s `repoURL`',
  },
  progressiveSyncs: {
    type: 'string',
    enum: PROGRESSIVE_SYNCS,
    default: 'auto',
    enumDescriptions: [
      'Detect from the configuration of the Argo CD that runs each ApplicationSet',
      'I have enabled it outside this repository',
      'The controller runs without progressive syncs',
    ],
    description: 'Whether the ApplicationSet controller has progressive syncs enabled.',
    docs: '`auto` detects from the workspace; `enabled` / `disabled` override',
  },
  newGitFileGlobbing: {
    type: 'boolean',
    default: false,
    description: 'The controller runs with --enable-new-git-file-globbing (changes git files generator pattern semantics).',
    docs: 'the controller runs with `--enable-new-git-file-globbing`',
  },
  blastRadiusThreshold: {
    type: 'integer',
    default: 10,
    minimum: 1,
    maximum: 1_000_000,
    description:
      'Minimum number of Applications for the AllAtOnce blast-radius finding (a warning when the destinations look like production).',
    docs: 'minimum Applications for the AllAtOnce blast-radius finding (a warning when the destinations look like production)',
  },
  maxWaveSize: {
    type: 'integer',
    default: 10,
    minimum: 1,
    maximum: 1_000_000,
    description:
      'A RollingSync wave that syncs more Applications at once gets a policy note (rollout/large-wave); the careful proposed strategy never exceeds it.',
    docs: 'a RollingSync wave that syncs more Applications at once gets the `rollout/large-wave` note; the careful strategy never exceeds it',
  },
  minutesPerSync: {
    type: 'integer',
    default: 3,
    minimum: 1,
    maximum: 10_000,
    description:
      "Minutes one sync is assumed to take, health included: the proposed RollingSync strategies say their number of waves and, at this pace, their total time; the rollout view's timeline is computed at this pace.",
    docs: "minutes one sync is assumed to take, health included: the proposed strategies say their number of waves and, at this pace, their total time; the rollout view's timeline is computed at this pace",
  },
  instances: {
    type: 'array',
    default: [],
    description: 'Which Argo CD runs which ApplicationSets, when the repository holds several (see README "Which Argo CD instance").',
    items: {
      type: 'object',
      required: ['applicationSets'],
      properties: {
        name: { type: 'string', description: 'Shown in findings, e.g. "prod".' },
        applicationSets: {
          type: 'array',
          items: { type: 'string' },
          description: 'Workspace-relative globs or folders of the ApplicationSet files this Argo CD runs.',
        },
        config: { type: 'array', items: { type: 'string' }, description: 'Workspace-relative files or folders holding its configuration.' },
        progressiveSyncs: {
          type: 'string',
          enum: ['enabled', 'disabled'],
          description: 'The answer when its configuration lives outside the repository.',
        },
      },
    },
    docs: 'which Argo CD runs which ApplicationSets: `[{ "name": "prod", "applicationSets": ["clusters/prod/**"], "config": ["argocd/overlays/prod", "argocd/base"], "progressiveSyncs": "enabled" }]` (`config` and `progressiveSyncs` optional; see "Which Argo CD instance")',
  },
  argocdVersion: {
    type: 'string',
    default: 'auto',
    pattern: '^(auto|master|stable|latest|v?[0-9]+\\.[0-9]+(\\.[0-9]+)?)$',
    description:
      'The Argo CD version ApplicationSets are checked against (fields, template functions, controller behaviour): "auto" detects it from the repository\'s Argo CD install (kustomize ?ref=, Helm chart, image tag, Operator spec.version) and otherwise assumes the newest release; or a version such as "3.2", "v2.14.5", "master", or "stable"/"latest" (the newest release).',
    docs: "the Argo CD version ApplicationSets are checked against: `auto` detects it from the repository's install, else `2.4` … `3.6`, `v3.2.5` (a patch release: gates that start at a patch follow it), `master` (see *Argo CD versions*)",
  },
  impactBaseline: {
    type: 'string',
    default: 'HEAD',
    description:
      'What the "This change" lens compares the ApplicationSets with: "HEAD" (the last commit), "merge-base" (the merge base with the default branch, as a pull request is reviewed), another git revision (a branch, tag or commit), or "off".',
    docs: 'what the "This change" lens compares with: `HEAD` (the last commit), `merge-base` (the merge base with the default branch: `origin/HEAD`, else `main` or `master`), another revision, or `off` (see docs/previews.md, *This change*)',
  },
  'trace.server': {
    type: 'string',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    description: 'Trace the communication between VS Code and the language server.',
    docs: 'trace LSP traffic in the output channel',
  },
} as const;

export type SettingName = keyof typeof SETTINGS;

/** The settings that take a whole number, each within its table bounds wherever it is given (editor, `.appset-tools.yaml`, CLI flag). */
export type WholeNumberSetting = 'maxApplications' | 'blastRadiusThreshold' | 'maxWaveSize' | 'minutesPerSync';

/**
 * The one rule of a whole-number setting: an integer within the table's `minimum` and `maximum`. The
 * language server, the repository configuration and the CLI flags all ask it (`minutesPerSync: 1e300`
 * was taken from `.appset-tools.yaml` while `--minutes-per-sync` refused it).
 */
export function isWholeNumberSetting(name: WholeNumberSetting, v: unknown): v is number {
  const e = SETTINGS[name];
  return typeof v === 'number' && Number.isInteger(v) && v >= e.minimum && v <= e.maximum;
}

/** What the setting takes, in words: `a whole number from 1 to 10000`. */
export function wholeNumberRange(name: WholeNumberSetting): string {
  return `a whole number from ${SETTINGS[name].minimum} to ${SETTINGS[name].maximum}`;
}
