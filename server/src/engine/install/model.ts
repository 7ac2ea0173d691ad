/**
 * The one model of the Argo CD installations in a repository: every install, where it is defined,
 * the namespaces it runs ApplicationSets in, its version and how that is known, and the controller
 * settings the engine models. Progressive-sync enablement (rollout/enablement.ts), the target version
 * (install/target.ts), the git files generator's globbing (generators/git.ts) and `appset instances`
 * all read it, and choose the install that runs an ApplicationSet with the same rule
 * (install/instances.ts), so they cannot disagree.
 */
import type { EngineInputs, SourceText } from '../inputs';
import type { InstanceMapping } from '../host';
import type { WorkspaceIndex } from '../workspace/index';
import { detectInstalls, type InstallEvidence } from '../versions/detect';
import { chooseInstances, inMappingConfig, installOf, installSource, isSample, mappingFor, type Instance } from './instances';
import { relativePath } from '../paths';
import { envBool, envStrings, flagBool, flagStrings } from './argoEnv';
import { linkKustomizeBases } from './kustomizeBases';
import { terraformVersions } from './terraform';
import { appSetDeploys, appSetDeploysAhead, type Installers } from './installers';
import { APPSET_FILES, ARGOCD_CONFIG, ARGOCD_INSTALL } from '../workspace/interests';
import { supersede, type RunningChoice } from './supersession';
import { scanWorkspace, CONTROLLER_SETTINGS, type ControllerSettingName, type SettingEvidence, type WorkspaceScan } from './scan';

/** The install an InstallEvidence belongs to: the Application that installs the chart, else its folder. */
export function versionInstance(e: InstallEvidence): string {
  return e.instance ?? installOf(e.file).key;
}

export interface InstallModel {
  /** Enablement evidence, settings and targets, with every install (also those known only by their version). */
  scan: WorkspaceScan;
  /** Version evidence, each with its install key. */
  versions: InstallEvidence[];
  /** The folders the repository's ApplicationSets deploy through their templates, read on first ask. */
  appSetDeploys(): Installers['deployed'];
}

/** Builds the model: the configuration scan plus the installs the version detector found. */
export function buildModel(workspace: WorkspaceIndex, roots: readonly string[], provisional = false): InstallModel {
  const scan = scanWorkspace(workspace, roots, provisional);
  // Terraform's helm_release of argo-cd states its chart version too (install/terraform.ts).
  const versions = [...detectInstalls(workspace), ...terraformVersions(workspace.terraformFiles())];
  const byKey = new Map(scan.instances.map((i) => [i.key, i]));
  for (const v of versions) {
    const key = versionInstance(v);
    let inst = byKey.get(key);
    if (!inst) {
      const app = key.startsWith('app:');
      const where = app ? undefined : installOf(v.file);
      inst = {
        key,
        name: app
          ? `Application ${key.slice(key.lastIndexOf('#') + 1)} (${relativePath(roots, installSource(key))})`
          : relativePath(roots, key),
        scope: app ? '' : where!.scope,
        watched: [],
        bases: where?.base ? [where.base] : [],
      };
      byKey.set(key, inst);
      scan.instances.push(inst);
      for (const b of inst.bases)
        if (!byKey.has(b)) {
          const base: Instance = { key: b, name: relativePath(roots, b), scope: installOf(b + '/x').scope, watched: [], bases: [] };
          byKey.set(b, base);
          scan.instances.push(base);
        }
    }
    if (!inst.namespace && v.namespace) inst.namespace = v.namespace;
    // An install that states its version is more than a ConfigMap applied by hand.
    delete inst.loose;
  }
  // A kustomize base found as an install of its own is part of the overlay that builds it.
  linkKustomizeBases(scan.instances, workspace);
  let deploys: Installers['deployed'] | undefined;
  const appSetFiles = () => (provisional ? workspace.matchingProvisional(APPSET_FILES) : workspace.matching(APPSET_FILES));
  return { scan, versions, appSetDeploys: () => (deploys ??= appSetDeploys(appSetFiles(), roots)) };
}

/**
 * Reads about `chars` characters of the files the install model reads that are not read yet (a longer file
 * alone): its configuration scan's and the version detector's files, parsed and kept, then the
 * ApplicationSet files, for their template paths (installers.ts `appSetDeploysAhead`); true when all are.
 * The language server calls it in steps before it logs the installs (`describeInstances`): the log then
 * parses nothing, where it parsed every ApplicationSet file of the repository in one block (issue 39).
 */
export function parseInstallFilesAhead(workspace: WorkspaceIndex, roots: readonly string[], chars: number): boolean {
  return workspace.parseAhead([ARGOCD_CONFIG, ARGOCD_INSTALL], chars) && appSetDeploysAhead(workspace.matching(APPSET_FILES), roots, chars);
}

const models = new WeakMap<WorkspaceIndex, { version: number; roots: string; model: InstallModel }>();
const provisionalModels = new WeakMap<WorkspaceIndex, { version: number; roots: string; model: InstallModel }>();

/**
 * The repository's install model, built once per workspace index version. `provisional`: a consumer
 * whose answer has a safe default without an install (the target version: the newest release) takes,
 * while the language server still reads the workspace, the model of the files read so far, so that its
 * first answer does not read the whole workspace; `WorkspaceIndex.settle()` reports when the files the
 * model was built from differ from the full answer, and the server re-validates. Enablement and the
 * install report never pass it: there an absent setting is itself a finding.
 */
export function installModel(inputs: Pick<EngineInputs, 'host' | 'workspace'>, provisional = false): InstallModel {
  const soFar = provisional && inputs.workspace.reading;
  const cache = soFar ? provisionalModels : models;
  const roots = inputs.host.roots();
  const key = roots.join('\u0000');
  const hit = cache.get(inputs.workspace);
  if (hit && hit.version === inputs.workspace.version && hit.roots === key) return hit.model;
  const model = buildModel(inputs.workspace, roots, soFar);
  cache.set(inputs.workspace, { version: inputs.workspace.version, roots: key, model });
  return model;
}

/** The workspace's Argo CD configuration (with every install of the model), scanned once per index version. */
export function getScan(inputs: Pick<EngineInputs, 'host' | 'workspace'>): WorkspaceScan {
  return installModel(inputs).scan;
}

/** Keys of an install and the bases its overlay builds on. */
export const installKeys = (i: Instance): string[] => [i.key, ...i.bases];

export interface Governing {
  /** The installs that run the ApplicationSet (several when tied); empty when none. */
  installs: Instance[];
  /** The explicit mapping that decided, if any (its config paths say which files count). */
  mapping?: InstanceMapping;
  /** True when `mapping` was chosen with `--instance`. */
  chosen?: boolean;
  choice?: RunningChoice;
  /** Whether a file's configuration belongs to the governing install(s). */
  owns(file: string, instance: string | undefined): boolean;
}

/** Which install(s) run an ApplicationSet: mapping > folder > namespace > the repository's installs (install/instances.ts). */
export function governing(
  model: InstallModel,
  appset: { path: string; namespace?: string },
  opts: { mappings?: readonly InstanceMapping[]; instance?: string; roots: readonly string[] },
): Governing {
  const mappings = opts.mappings ?? [];
  const chosen = opts.instance ? mappings.find((m) => m.name === opts.instance) : undefined;
  const mapping = chosen ?? mappingFor(mappings, opts.roots, appset.path);
  if (mapping) return { installs: [], mapping, chosen: !!chosen, owns: (file) => inMappingConfig(mapping, opts.roots, file) };
  const choice = runningChoice(model, appset, opts.roots);
  const keys = new Set(choice.instances.flatMap(installKeys));
  return { installs: choice.instances, choice, owns: (_file, instance) => instance !== undefined && keys.has(instance) };
}

/**
 * The installs that run an ApplicationSet without a mapping: the folder rule (install/instances.ts), then a
 * bootstrap applied from outside set aside for the install the repository deploys (install/supersession.ts).
 * Enablement, the version, the report and the controller settings all come through here.
 */
export function runningChoice(model: InstallModel, appset: { path: string; namespace?: string }, roots: readonly string[]): RunningChoice {
  return supersede(model, chooseInstances(model.scan.instances, appset.path, appset.namespace, roots), appset.namespace, roots);
}

/**
 * `governing` for an ApplicationSet read with `inputs`' settings (`instances` mappings, the chosen
 * `instance`) and workspace roots: the one reading of those settings every consumer shares.
 */
export function governingFor(
  model: InstallModel,
  inputs: Pick<EngineInputs, 'settings' | 'host'>,
  appset: { path: string; namespace?: string },
): Governing {
  // The answer depends only on the model (never modified once built), the mappings, the chosen instance,
  // the roots, the path and the namespace: the ApplicationSets of one file share it (the controller
  // settings, the sync policy and the target version each asked it again for each of them; issue 39).
  const mappings = inputs.settings.instances ?? NO_MAPPINGS;
  const instance = inputs.settings.instance || undefined;
  const roots = inputs.host.roots();
  let perModel = governed.get(model);
  if (!perModel) governed.set(model, (perModel = new WeakMap()));
  let perMappings = perModel.get(mappings);
  if (!perMappings) perModel.set(mappings, (perMappings = new Map()));
  const key = `${instance ?? ''}\u0000${roots.join('\u0001')}\u0000${appset.path}\u0000${appset.namespace ?? ''}\u0000${appset.namespace === undefined}`;
  let gov = perMappings.get(key);
  if (!gov) perMappings.set(key, (gov = governing(model, appset, { mappings, instance, roots })));
  return gov;
}

/** No `instances` mappings (the key of `governed` when the settings have none). */
const NO_MAPPINGS: readonly InstanceMapping[] = [];
/** `governingFor`'s answers per model, mappings and (instance, roots, path, namespace). */
const governed = new WeakMap<InstallModel, WeakMap<readonly InstanceMapping[], Map<string, Governing>>>();

export interface SettingValue {
  value: string;
  level: SettingEvidence['level'];
  where: string;
}

/**
 * A controller setting of the governing install(s), as the controller resolves it: flag > env >
 * ConfigMap; installs tied that disagree give no value (the caller keeps its default and says so).
 */
export function settingOf(
  model: InstallModel,
  gov: Governing,
  name: ControllerSettingName,
  levels: readonly SettingEvidence['level'][] = ['flag', 'env', 'configmap'],
): SettingValue | undefined {
  // Kept per governing answer (shared by the ApplicationSets of a file, `governingFor`) and model.
  let kept = settingsOf.get(gov);
  if (!kept || kept.model !== model) settingsOf.set(gov, (kept = { model, values: new Map() }));
  const key = `${name}\u0000${levels.join()}`;
  if (kept.values.has(key)) return kept.values.get(key);
  const v = resolveSetting(model, gov, name, levels);
  kept.values.set(key, v);
  return v;
}
const settingsOf = new WeakMap<Governing, { model: InstallModel; values: Map<string, SettingValue | undefined> }>();

function resolveSetting(
  model: InstallModel,
  gov: Governing,
  name: ControllerSettingName,
  levels: readonly SettingEvidence['level'][],
): SettingValue | undefined {
  const own = model.scan.settings.filter((s) => s.setting === name && gov.owns(s.file, s.instance));
  for (const level of levels) {
    const at = own.filter((s) => s.level === level);
    if (!at.length) continue;
    // Values compared as written: the controller reads them untrimmed (argoEnv.ts).
    const values = new Set(at.map((s) => s.value));
    if (values.size > 1) return undefined;
    return { value: at[0].value, level, where: at[0].where ?? at[0].file };
  }
  return undefined;
}

/** Whether an install sits in a sample folder (examples/, test/, docs/): governs its own folder only. */
export { isSample };

/** The setting table, for the fronts that list every setting (`appset instances`). */
export const SETTING_NAMES: readonly ControllerSettingName[] = CONTROLLER_SETTINGS.map((s) => s.name);

/**
 * A boolean setting as the controller reads it (argoEnv.ts): a flag's value with strconv.ParseBool (not a
 * boolean: pflag fails, `fallback` here; lint says the controller does not start), else ParseBoolFromEnv
 * (exactly true/false in any case, untrimmed; anything else or empty: the default, `fallback`).
 */
export function settingBool(v: SettingValue | undefined, fallback: boolean): boolean {
  if (!v) return fallback;
  return (v.level === 'flag' ? flagBool(v.value) : envBool(v.value)) ?? fallback;
}

/** A list setting: a flag's value as pflag's CSV, else StringsFromEnv (split on "," and trimmed; empty: none). */
export function settingList(v: SettingValue | undefined): string[] {
  if (!v) return [];
  return v.level === 'flag' ? flagStrings(v.value) : (envStrings(v.value) ?? []);
}

/**
 * Which git file globbing the controller that runs an ApplicationSet uses: the setting
 * (`appsetTools.newGitFileGlobbing`, `--new-git-globbing`) when on, else the governing install's
 * `--enable-new-git-file-globbing` / env / `applicationsetcontroller.enable.new.git.file.globbing`,
 * else the controller's default (off). `why` says which, for the preview's notes.
 */
export function gitFileGlobbing(file: SourceText, namespace: string | undefined): { on: boolean; why: string } {
  if (file.settings.newGitFileGlobbing) return { on: true, why: 'the newGitFileGlobbing setting is on' };
  const model = installModel(file);
  const gov = governingFor(model, file, { path: file.path ?? '', namespace });
  const v = settingOf(model, gov, 'newGitFileGlobbing');
  if (v) return { on: settingBool(v, false), why: `set by ${v.where}` };
  return {
    on: false,
    why: "the controller's default: no applicationsetcontroller.enable.new.git.file.globbing in the install that runs it",
  };
}
