/**
 * Is progressive sync enabled on the ApplicationSet controller that runs an ApplicationSet? Decided
 * from the install model (install/scan.ts reads the configuration, install/instances.ts says which
 * install runs the ApplicationSet). Precedence follows the controller: an explicit flag beats the env
 * var, which beats the ConfigMap; within one level, any enabling evidence wins.
 */
import type { InstanceMapping, ProgressiveSyncOverride } from '../host';
import type { EngineInputs } from '../inputs';
import type { Enablement } from '@appset-tools/protocol';
import { inMappingConfig, mappingFor, type Instance } from '../install/instances';
import { relativePath } from '../paths';
import { lineNumber } from '../yaml';
import { ARGOCD_CONFIG } from '../workspace/interests';
import { SEARCHED, type DetailedEvidence, type EnablementDetails, type WorkspaceScan } from '../install/scan';
import { installModel, runningChoice, type InstallModel } from '../install/model';
import { decide, firstDeciding } from '../install/scan';
export { decide } from '../install/scan';
import { installReport, installReportLines } from '../install/report';
import { unreadLines } from '../install/completeness';
import { outsideArgoCD } from '../install/outside';
import { argoCdNamed } from '../install/names';

export {
  CM_KEY,
  CM_NAME,
  ENV,
  FLAG,
  SEARCHED,
  type ConfigTarget,
  type ConfigTargetKind,
  type DetailedEvidence,
  type EnablementDetails,
  type EvidenceLevel,
  type WorkspaceScan,
} from '../install/scan';
export { getScan } from '../install/model';

/** The ApplicationSet whose controller is asked about: its file and `metadata.namespace`. */
export interface AppSetLocation {
  path: string;
  namespace?: string;
}

export interface DetectOptions {
  override?: ProgressiveSyncOverride;
  /** Without it, the whole workspace's configuration counts (any enabling evidence wins). */
  appset?: AppSetLocation;
  mappings?: readonly InstanceMapping[];
  roots?: readonly string[];
  /** A mapping's name that runs every ApplicationSet (CLI `--instance`), instead of matching paths. */
  instance?: string;
}

const RANK = { 'not-found': 0, disabled: 1, enabled: 2 } as const;

/** Enablement, from the install model, for one ApplicationSet (or the whole workspace). */
export function decideFor(model: InstallModel, opts: DetectOptions = {}): EnablementDetails {
  const scan = model.scan;
  const override = opts.override ?? 'auto';
  const { instance, notes, instanceOverride, mapping0, perInstance, undecided, ...found } = opts.appset
    ? narrowToInstall(model, opts.appset, opts)
    : { evidence: scan.evidence, targets: scan.targets, notes: [] as string[] };
  let evidence = found.evidence;
  const targets = found.targets;
  if (override === 'enabled' || override === 'disabled' || instanceOverride) {
    const value = instanceOverride ?? (override as 'enabled' | 'disabled');
    const what = instanceOverride
      ? `${mapping0?.origin ?? 'appsetTools.instances'} ("${instance?.name}") says progressiveSyncs "${value}"`
      : `the appsetTools.progressiveSyncs setting is "${value}"`;
    const setting: DetailedEvidence = { file: 'setting', description: what, effect: value === 'enabled' ? 'enables' : 'disables' };
    return {
      state: value,
      source: 'setting',
      evidence: [setting, ...evidence],
      searched: [],
      targets,
      instance,
      decidedBy: setting,
      notes,
    };
  }
  let state = decide(evidence);
  if (perInstance && perInstance.length > 1) {
    // Tied installs that disagree: the least enabled one speaks (a staging install never vouches for production).
    const states = perInstance.map((p) => ({ p, s: decide(p.ev) }));
    const worst = states.reduce((a, b) => (RANK[b.s] < RANK[a.s] ? b : a));
    if (states.some((x) => x.s !== worst.s)) {
      state = worst.s;
      notes.push(
        `${states.map((x) => `${argoCdNamed(x.p.inst.name)}: ${x.s === 'not-found' ? 'not enabled' : x.s}`).join('; ')} — map this ApplicationSet to its instance in appsetTools.instances to decide`,
      );
      evidence = worst.p.ev;
    }
  }
  // Whether the install the repository deploys replaces the bootstrap cannot be decided and the two say
  // different things: the answer is not known (install/supersession.ts).
  // Not known: what was read is kept as evidence, `unread` says why it is not the answer.
  const unknown = (unread: string[], extra: Partial<EnablementDetails>): EnablementDetails => ({
    state: 'not-found',
    source: 'detected',
    evidence,
    searched: [],
    targets,
    instance,
    notes,
    unread,
    ...extra,
  });
  if (undecided && undecided.states.some((x) => x !== state)) return unknown([undecided.why], { undecided: undecided.why });
  // Configuration of the install that exists but was not read: unknown, whatever the rest says
  // (install/completeness.ts); what was read is kept as `partial`, never as the answer. Files the
  // workspace listing never reached (a bound: 500 Terraform files, 5,000 YAML files) may hold an
  // install or its configuration too, so they make it unknown as well, with the bound as the reason.
  const capped = scan.listingCaps ?? [];
  if (evidence.some((e) => e.unread) || capped.length) {
    const decided = firstDeciding(evidence, state);
    return unknown(
      [...unreadLines(evidence, (e) => e.where ?? e.file), ...capped],
      state !== 'not-found' ? { partial: { state, ...(decided ? { where: decided.where ?? decided.file } : {}) } } : {},
    );
  }
  return {
    state,
    source: 'detected',
    evidence,
    searched: state === 'not-found' ? SEARCHED : [],
    targets,
    instance,
    decidedBy: firstDeciding(evidence, state),
    notes,
    ...(state !== 'enabled' && enabledOnceDeployed(evidence) ? { undeployed: evidence.find((e) => e.undeployed)!.undeployed } : {}),
  };
}

/**
 * "Not deployed yet" explains the state only when deploying what is written would enable progressive
 * syncs: a deployed flag or env var that turns them off decides whatever an undeployed ConfigMap says
 * (flag > env > ConfigMap), and then the answer is "off", with that flag as the reason.
 */
function enabledOnceDeployed(evidence: DetailedEvidence[]): boolean {
  if (!evidence.some((e) => e.undeployed)) return false;
  // What is undeployed is always the params ConfigMap (install/scanManifests.ts checkParamsConfigMap): its level, once deployed.
  return decide(evidence.map((e) => (e.undeployed ? { ...e, level: 'configmap' as const, effect: 'enables' as const } : e))) === 'enabled';
}

/** The evidence and fix targets of the install that runs one ApplicationSet, and that install. */
interface Narrowed {
  evidence: DetailedEvidence[];
  targets: WorkspaceScan['targets'];
  instance?: Enablement['instance'];
  notes: string[];
  /** The instances mapping's own `progressiveSyncs`, which wins over any evidence. */
  instanceOverride?: 'enabled' | 'disabled';
  mapping0?: InstanceMapping;
  /** Tied installs, each with its own evidence (when no mapping chose one). */
  perInstance?: { inst: Instance; ev: DetailedEvidence[] }[];
  /** Installs the repository deploys that may or may not replace the bootstrap that runs it: their states and why. */
  undecided?: { states: ReturnType<typeof decide>[]; why: string };
}

/** What an install's configuration says of progressive syncs, in words. */
const says = (s: ReturnType<typeof decide>) =>
  s === 'enabled'
    ? 'enables progressive syncs'
    : s === 'disabled'
      ? 'turns progressive syncs off'
      : "leaves progressive syncs at the controller's default, off";

/**
 * Narrows the workspace's evidence to the install that runs `appset`: the instances mapping that
 * `--instance` names or that covers its path, else the installs `install/instances.ts` chooses.
 */
function narrowToInstall(model: InstallModel, appset: NonNullable<DetectOptions['appset']>, opts: DetectOptions): Narrowed {
  const scan = model.scan;
  const roots = opts.roots ?? [];
  let evidence = scan.evidence;
  let targets = scan.targets;
  let instance: Enablement['instance'];
  const notes: string[] = [];
  let instanceOverride: 'enabled' | 'disabled' | undefined;
  let mapping0: InstanceMapping | undefined;
  let perInstance: { inst: Instance; ev: DetailedEvidence[] }[] | undefined;
  let undecided: Narrowed['undecided'];
  const chosen = opts.instance ? (opts.mappings ?? []).find((m) => m.name === opts.instance) : undefined;
  const mapping = chosen ?? mappingFor(opts.mappings ?? [], roots, appset.path);
  if (mapping) {
    evidence = evidence.filter((e) => inMappingConfig(mapping, roots, e.file));
    targets = targets.filter((t) => inMappingConfig(mapping, roots, t.file));
    instance = {
      name: mapping.name,
      mapped: true,
      why: chosen
        ? `chosen with --instance ("${mapping.name}")`
        : mapping.origin?.startsWith('--')
          ? `given with ${mapping.origin}`
          : `mapped in ${mapping.origin ?? 'appsetTools.instances'} ("${mapping.name}")`,
    };
    instanceOverride = mapping.progressiveSyncs;
    mapping0 = mapping;
  } else {
    // The one choice of the install that runs it, a superseded bootstrap set aside (install/supersession.ts).
    const choice = runningChoice(model, appset, roots);
    const keys = (i: Instance) => [i.key, ...i.bases];
    const found = scan.evidence;
    const stateOf = (i: Instance) => decide(found.filter((e) => e.instance !== undefined && keys(i).includes(e.instance)));
    perInstance = choice.instances.map((inst) => ({
      inst,
      ev: evidence.filter((e) => e.instance !== undefined && keys(inst).includes(e.instance)),
    }));
    const chosen = new Set(choice.instances.flatMap(keys));
    evidence = evidence.filter((e) => e.instance !== undefined && chosen.has(e.instance));
    targets = targets.filter((t) => t.instance !== undefined && chosen.has(t.instance));
    const ns = [...new Set(choice.instances.map((i) => i.namespace).filter(Boolean))];
    instance = choice.instances.length
      ? { name: choice.instances.map((i) => i.name).join(', '), namespace: ns.length === 1 ? ns[0] : undefined, why: choice.why }
      : {
          name: '',
          ...(choice.rejected.length ? { rejected: true as const } : {}),
          why: choice.rejected.length
            ? `no Argo CD install in the repository runs it: ${choice.rejected
                .slice(0, 3)
                .map((r) => `${argoCdNamed(r.inst.name)} was found, but ${r.why}`)
                .join('; ')}`
            : 'no Argo CD install in the workspace governs its folder',
        };
    // Installs of the repository were found, none runs ApplicationSets in this namespace, and Applications
    // kept there show an Argo CD installed outside the repository (install/outside.ts): that one runs it,
    // and nothing in the repository configures it — the same answer as a repository with no install.
    const outside =
      !choice.instances.length && appset.namespace && choice.otherNamespace.length
        ? outsideArgoCD(scan, appset.namespace, roots)
        : undefined;
    if (outside)
      instance = {
        name: '',
        why: `the Argo CD in namespace ${appset.namespace} is installed outside this repository (${outside.file} keeps Applications there)`,
      };
    // The bootstrap set aside is named, with what it says when that differs from the install that replaces it.
    for (const b of choice.setAside ?? []) {
      const runs = choice.instances.map((i) => `${argoCdNamed(i.name)} ${says(stateOf(i))}`).join('; ');
      const differs = choice.instances.some((i) => stateOf(i) !== stateOf(b));
      notes.push(
        `${argoCdNamed(b.name)} is a bootstrap applied from outside (nothing in the repository deploys it), set aside: the install the repository deploys replaces it once synced${differs ? `; it ${says(stateOf(b))}, ${runs}, and the deployed one decides` : ''}`,
      );
    }
    if (choice.undecided) {
      const { bootstrap, deployed } = choice.undecided;
      const states = deployed.map(stateOf);
      const missing = [bootstrap, ...deployed].filter((i) => !i.namespace).map((i) => argoCdNamed(i.name));
      undecided = {
        states,
        why: `which Argo CD runs it is not known: ${argoCdNamed(bootstrap.name)}, applied from outside, ${says(stateOf(bootstrap))}, and ${deployed.map((d) => `${argoCdNamed(d.name)}, which the repository deploys, ${says(stateOf(d))}`).join('; ')}; the deployed one replaces the bootstrap once synced only when both run in the same namespace, and ${missing.join(', ')} ${missing.length === 1 ? 'states' : 'state'} no namespace (set it, or map this ApplicationSet to its install in appsetTools.instances)`,
      };
    }
    for (const o of choice.otherNamespace) {
      notes.push(
        `${o.name} configures the controller in namespace ${o.namespace}, and this ApplicationSet is in ${appset.namespace}${o.watched.length ? '' : ' (not listed in its applicationsetcontroller.namespaces)'}`,
      );
    }
  }
  return { evidence, targets, instance, notes, instanceOverride, mapping0, perInstance, undecided };
}

/** Workspace-wide enablement (any install); used for file-level findings in configuration files. */
export function getEnablement(inputs: EngineInputs): EnablementDetails {
  return decideFor(installModel(inputs), { override: inputs.settings.progressiveSyncs ?? 'auto', roots: inputs.host.roots() });
}

/** Enablement for the controller that runs the ApplicationSet at `appset` (its file and namespace). */
export function enablementAt(inputs: EngineInputs, appset: AppSetLocation): EnablementDetails {
  const en = decideFor(installModel(inputs), {
    override: inputs.settings.progressiveSyncs ?? 'auto',
    appset,
    mappings: inputs.settings.instances ?? [],
    roots: inputs.host.roots(),
    instance: inputs.settings.instance || undefined,
  });
  if (en.state === 'enabled') return en;
  const refused = invalidConfiguration(inputs);
  return refused.length ? { ...en, notes: [...(en.notes ?? []), ...refused] } : en;
}

/** Names the controller's settings, as the install model reads them (the params ConfigMap, its keys, env vars, flags). */
const NAMES_CONTROLLER_SETTINGS =
  /argocd-cmd-params-cm|progressive|PROGRESSIVE|applicationsetcontroller|APPLICATIONSET_CONTROLLER|applicationset-controller/;

/** True when a text may configure the ApplicationSet controller (a file the install model reads for its settings). */
export function mayConfigureController(text: string): boolean {
  return NAMES_CONTROLLER_SETTINGS.test(text);
}

/**
 * Argo CD configuration files that are not valid YAML, in words: such a document is refused by kubectl,
 * kustomize and Argo CD alike (sigs.k8s.io/yaml rejects a key written twice), so nothing in it configures
 * the controller — said, so "nothing configures it" never hides a file the user wrote (issue 37).
 */
function invalidConfiguration(inputs: EngineInputs): string[] {
  const out: string[] = [];
  for (const f of inputs.workspace.matching(ARGOCD_CONFIG)) {
    if (!f.invalid.length || !mayConfigureController(f.text)) continue;
    const e = f.invalid[0];
    const where = `${relativePath(inputs.host.roots(), f.path)}:${lineNumber(f.text, e.span.start)}`;
    const line = f.text.slice(e.span.start, (f.text.indexOf('\n', e.span.start) + 1 || f.text.length + 1) - 1);
    const key = line.slice(0, line.indexOf(':') < 0 ? line.length : line.indexOf(':')).trim();
    const what = e.code === 'DUPLICATE_KEY' ? `writes the key ${key} twice` : `is not valid YAML (${e.why})`;
    out.push(
      `${where} ${what}: kubectl, kustomize and Argo CD refuse such a file, so nothing in it configures the ApplicationSet controller`,
    );
    if (out.length >= 3) break;
  }
  return out;
}

/** One line per install found (and the override): what it says and which file decided — for the server log. */
export function describeInstances(inputs: EngineInputs): string[] {
  const out: string[] = [];
  const override = inputs.settings.progressiveSyncs ?? 'auto';
  if (override !== 'auto') out.push(`appsetTools.progressiveSyncs is "${override}": it overrides every install below`);
  for (const m of inputs.settings.instances ?? []) {
    const rel = (l: readonly string[]) => l.map((p) => (p.startsWith('/') ? relativePath(inputs.host.roots(), p) : p)).join(', ');
    out.push(
      `${m.origin ?? 'appsetTools.instances'} "${m.name}": ApplicationSets ${rel(m.applicationSets)} → ${m.progressiveSyncs ? `progressiveSyncs "${m.progressiveSyncs}"` : `configuration in ${rel(m.config ?? []) || '(none)'}`}`,
    );
  }
  // The same lines as `appset instances` and the status bar's tooltip: one model, one wording.
  out.push(...installReportLines(installReport(inputs, [])));
  return out;
}
