/**
 * Is progressive sync enabled on the ApplicationSet controller? Detected from the workspace's
 * Argo CD configuration, in every form teams write it:
 * - `argocd-cmd-params-cm` key `applicationsetcontroller.enable.progressive.syncs` (wired into the
 *   controller's env var by the upstream manifests and the Helm chart);
 * - the controller Deployment's `--enable-progressive-syncs[=bool]` argument (pflag bool parsing) or
 *   env `ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS` (only true/false, any case:
 *   Argo CD `util/env/env.go` ParseBoolFromEnv; flag and env defined in
 *   `cmd/argocd-applicationset-controller/commands/applicationset_controller.go`);
 * - kustomize: strategic-merge patch files (they look like the resources themselves), inline
 *   `patches:`, JSON6902 patches, `configMapGenerator` literals;
 * - argo-cd Helm chart values (`configs.params`, `applicationSet.extraArgs`, `applicationSet.extraEnv`,
 *   `global.env`), also inline in an Argo CD Application's `helm.valuesObject` / `values` / `parameters`;
 * - the Argo CD Operator's `ArgoCD` resource (`spec.applicationSet.extraCommandArgs` / `env`;
 *   `spec.cmdParams` is copied to the ConfigMap but not wired to the controller → ignored).
 * The pre-rename "progressive rollouts" names are reported as ignored evidence.
 *
 * Precedence follows the controller: an explicit flag beats the env var, which beats the ConfigMap.
 * Within one level, any enabling evidence wins (repos often hold several overlays, one per
 * environment, and we cannot tell which controller runs the ApplicationSet).
 */
import { documentValues, parseDocuments, type YamlDocument, nodeAt, type JsonPath, yamlLimitMessage } from '../yaml';
import type { Json, Span } from '../types';
import type { IndexedFile, WorkspaceIndex } from '../workspace/index';
import { ARGOCD_CONFIG, ARGOCD_INSTALL } from '../workspace/interests';
import type { Enablement, EnablementEvidence } from '../../protocol';
import { argoValuesKeys, chartBeside, fluxSources, isArgoChartSource, isOciSource } from '../versions/detect';
import { fluxArgoChart, type FluxSourceLookup } from '../versions/fluxChart';
import { installOf, isInstallFolder, isSample, type Instance } from './instances';
import { dirname, relativePath } from '../paths';
import { isObj, own } from '../objects';
import { declaresAppSet } from '../kinds/appset';
import { envBool, flagBool } from './argoEnv';
import { parseControllerArgs } from './controllerArgs';
import { envFilePairs, fileSource, literalPair } from './kustomizeKv';
import { chartAt, findInstallers, folderDeployed, isArgoChart, joinPath, type Installers, type SelectedValues } from './installers';
import { checkHelmCharts, selectHelmChartValues } from './helmCharts';
import { installsArgoCd } from './upstreamManifests';
import { valuesFromCandidates } from './fluxValuesFrom';
import { checkTerraform, selectTerraformValues, terraformReleases } from './terraform';
import type { FormSink, Placement } from './sink';

export const CM_NAME = 'argocd-cmd-params-cm';
export const CM_KEY = 'applicationsetcontroller.enable.progressive.syncs';
export const FLAG = '--enable-progressive-syncs';
export const ENV = 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_SYNCS';
const OLD_CM_KEY = 'applicationsetcontroller.enable.progressive.rollouts';
const OLD_FLAG = '--enable-progressive-rollouts';
const OLD_ENV = 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_PROGRESSIVE_ROLLOUTS';
const RENAMED = 'renamed to "progressive syncs" in Argo CD 2.6 (argo-cd PR #12265); the controller no longer reads it';

/**
 * The other controller settings the engine models, each as its ConfigMap key, flag and env var
 * (Argo CD `cmd/argocd-applicationset-controller/commands/applicationset_controller.go`, wired from
 * `argocd-cmd-params-cm` in `manifests/base/applicationset-controller/argocd-applicationset-controller-deployment.yaml`).
 */
export const CONTROLLER_SETTINGS = [
  {
    name: 'newGitFileGlobbing',
    cm: 'applicationsetcontroller.enable.new.git.file.globbing',
    flag: '--enable-new-git-file-globbing',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_NEW_GIT_FILE_GLOBBING',
    bool: true,
  },
  { name: 'policy', cm: 'applicationsetcontroller.policy', flag: '--policy', env: 'ARGOCD_APPLICATIONSET_CONTROLLER_POLICY' },
  {
    name: 'policyOverride',
    cm: 'applicationsetcontroller.enable.policy.override',
    flag: '--enable-policy-override',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_POLICY_OVERRIDE',
    bool: true,
  },
  {
    name: 'scmProviders',
    cm: 'applicationsetcontroller.enable.scm.providers',
    flag: '--enable-scm-providers',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_ENABLE_SCM_PROVIDERS',
    bool: true,
  },
  {
    name: 'allowedScmProviders',
    cm: 'applicationsetcontroller.allowed.scm.providers',
    flag: '--allowed-scm-providers',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_ALLOWED_SCM_PROVIDERS',
  },
  {
    name: 'namespaces',
    cm: 'applicationsetcontroller.namespaces',
    flag: '--applicationset-namespaces',
    env: 'ARGOCD_APPLICATIONSET_CONTROLLER_NAMESPACES',
  },
  // Read by the application controller and the API server, not by the ApplicationSet controller
  // (`--application-namespaces`, util/security/application_namespaces.go IsNamespaceEnabled): an
  // ApplicationSet outside Argo CD's namespace creates its Applications in its own namespace, which must be
  // enabled here too. Only the ConfigMap key is read (the flag and env var belong to other Deployments).
  { name: 'applicationNamespaces', cm: 'application.namespaces', flag: '', env: '' },
] as const;

export type ControllerSettingName = (typeof CONTROLLER_SETTINGS)[number]['name'];

/** One value of a modelled controller setting, as written in one place. */
export interface SettingEvidence {
  setting: ControllerSettingName;
  value: string;
  level: EvidenceLevel;
  file: string;
  /** `argocd/argocd-cmd-params-cm.yaml:7` */
  where?: string;
  span?: Span;
  instance?: string;
  /** Internal: where it sits, for the span. */
  site?: Site;
}

/** Which controller input a piece of evidence sets; decides precedence. */
export type EvidenceLevel = 'flag' | 'env' | 'configmap';

/** Where a configuration lives, so a quick fix can edit it. */
export type ConfigTargetKind = 'configmap' | 'helm-values' | 'argocd-cr' | 'configmap-generator';

export interface ConfigTarget {
  kind: ConfigTargetKind;
  file: string;
  /** Index of the YAML document in the file. */
  docIndex: number;
  /** Key of the install it configures (see instances.ts). */
  instance?: string;
  /** Path of the list to extend inside the document (configMapGenerator literals), or the key an umbrella chart's argo-cd values sit under. */
  path?: JsonPath;
  /** Helm merge position of these values (the fix writes in the values Helm reads last). */
  rank?: number;
}

export interface DetailedEvidence extends EnablementEvidence {
  level?: EvidenceLevel;
  /** Span of the scalar that holds the setting, for quick fixes (only for plain YAML fields). */
  valueSpan?: Span;
  /** The replacement text that makes this piece of evidence enable the feature. */
  enableText?: string;
  /** Key of the install it configures (see instances.ts). */
  instance?: string;
  /** A remote kustomize base that could configure the controller but cannot be read offline. */
  unread?: true;
  /** Written but not deployed: what is missing (the file is built or applied by nothing). */
  undeployed?: string;
  /** Ignored because the kustomization beside its file does not list the file (the fix adds it to its resources). */
  unlisted?: true;
}

export interface EnablementDetails extends Enablement {
  evidence: DetailedEvidence[];
  /** Argo CD configuration resources found (edited by the "enable" quick fix when nothing decides). */
  targets: ConfigTarget[];
}

export const SEARCHED = [
  `ConfigMap ${CM_NAME} (data, kustomize configMapGenerator)`,
  'Deployment argocd-applicationset-controller (args, env), also as kustomize patches',
  'argo-cd Helm chart values (configs.params, applicationSet.extraArgs/extraEnv), also inline in Argo CD Applications',
  'ArgoCD resources of the Argo CD Operator (spec.applicationSet.extraCommandArgs/env)',
];

/** Bounds on what a single detection looks at (hostile workspaces). */
const MAX_EVIDENCE = 200;
const MAX_INLINE_YAML = 256 * 1024;

type Obj = { [key: string]: Json };
const scalarText = (v: Json | undefined): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** Internal: where a value sits in Helm's merge order (one chain per install). */
interface Ordered {
  chain?: string;
  rank?: number;
  slot?: string;
}

/** A values file read as one install's: under which install, keys, and merge position. */
interface Selection {
  key: string;
  namespace?: string;
  /** Where the argo-cd chart reads in it (`[]`, `['argo-cd']`, `['argo']`). */
  keys: string[][];
  chain?: string;
  rank: number;
  who: string;
}

/** Where a finding sits: a YAML path in a document of a file, or inside a string scalar there. */
interface Site {
  file: IndexedFile;
  docIndex: number;
  path: JsonPath;
  /** True when the finding is inside a string (inline Helm values, inline kustomize patch). */
  inner: boolean;
  /** The span, for a file that is not YAML (a Terraform file: `docIndex` -1). */
  span?: Span;
}

class Collector {
  /** Kustomize patch files referenced by path are read through the workspace index. */
  constructor(readonly workspace: WorkspaceIndex) {}
  evidence: (DetailedEvidence & { site?: Site } & Ordered)[] = [];
  settings: (SettingEvidence & Ordered)[] = [];
  targets: ConfigTarget[] = [];
  /** Files already read (a chart's values are reached from its Chart.yaml too). */
  scanned = new Set<string>();
  instances = new Map<string, Instance>();
  /** The install the resource being read belongs to (an Argo CD Application sets its own). */
  current: { key: string; namespace?: string } | undefined;
  /** `namespace:` of each kustomization folder. */
  kustomizeNamespaces = new Map<string, string>();
  /** What installs the charts and deploys the folders (installers.ts), read before the configuration. */
  installers: Installers = { charts: new Map(), refs: new Map(), deployed: [] };
  /** Values files an installing Application or HelmRelease selects: read as that install's, in its order. */
  selected = new Map<string, Selection>();
  /** Helm's merge order of the values being read: later ranks of one chain override earlier ones. */
  rank: { chain: string; rank: number } | undefined;
  /** Remote bases of kustomizations, said as "not read" only for kustomizations that are Argo CD installs. */
  remoteBases: { site: Site; ref: string; key: string; what?: string }[] = [];
  /** The configuration files being scanned (never re-asked of the index while it is read). */
  files: readonly IndexedFile[] = [];
  /** Workspace roots (an Application's `path:` is relative to its repository's root). */
  roots: readonly string[] = [];
  /** HelmRelease valuesFrom entries (`file#name#index`) found in the repository. */
  selectedFrom = new Set<string>();
  /** Namespaces that hold Argo CD Applications of the repository, each with the first file (install/outside.ts). */
  appNamespaces = new Map<string, string>();
  /** The argo-cd helm_releases of the Terraform files, read once per scan. */
  terraform: ReturnType<typeof terraformReleases> | undefined;
  /** The Flux sources a HelmRelease's `chartRef` may name (versions/fluxChart.ts). */
  fluxSources = (): FluxSourceLookup => (this.fluxLookup ??= fluxSources(this.workspace.matching(ARGOCD_INSTALL)));
  private fluxLookup: FluxSourceLookup | undefined;
  /** Params ConfigMap files that nothing deploys, in folders holding no other part of Argo CD (`notDeployed`). */
  byHand = new Set<string>();
  /** The Helm key the evidence being read sits under (`params.<key>`, `extraArgs`, ...), for overrides. */
  slot: string | undefined;

  private instanceOf(site: Site): Instance {
    const key = this.current?.key ?? installOf(site.file.path).key;
    let inst = this.instances.get(key);
    if (!inst) {
      const app = key.startsWith('app:');
      const where = app ? undefined : installOf(site.file.path);
      inst = { key, name: key, scope: app ? '' : where!.scope, watched: [], bases: where?.base ? [where.base] : [] };
      this.instances.set(key, inst);
    }
    if (!inst.namespace && this.current?.namespace) inst.namespace = this.current.namespace;
    return inst;
  }

  instanceKey(site: Site): string {
    return this.instanceOf(site).key;
  }

  /** Entries kept per install: [deciding evidence, ignored evidence, settings] (see `full`). */
  private counts = new Map<string, [number, number, number]>();
  /** Installs whose settings reached the bound (the controller findings then say nothing of them). */
  settingsTruncated = new Set<string>();
  /** Installs whose configuration was not all kept (MAX_EVIDENCE reached), with what was left out. */
  truncated = new Map<string, { site: Site; what: string }>();

  /**
   * Counts an entry of an install, false when its bound is reached. Evidence that decides reaching the
   * bound makes the install's progressive-sync verdict unknown (`truncated`, said as "not read"); settings
   * reaching it leave them unknown (`settingsTruncated`: lint's controller findings say nothing); ignored
   * evidence beyond it is only left out of the list (it decides nothing).
   */
  private full(site: Site, key: string, kind: 0 | 1 | 2): boolean {
    const n = this.counts.get(key) ?? [0, 0, 0];
    this.counts.set(key, n);
    if (n[kind] < MAX_EVIDENCE) {
      n[kind]++;
      return false;
    }
    if (kind === 2) this.settingsTruncated.add(key);
    if (kind === 0 && !this.truncated.has(key))
      this.truncated.set(key, {
        site,
        what: `the install model keeps at most ${MAX_EVIDENCE} places that set progressive syncs per install, and ${relativePath(this.roots, site.file.path)} holds more`,
      });
    return true;
  }

  add(site: Site, level: EvidenceLevel | undefined, effect: EnablementEvidence['effect'], description: string, enableText?: string) {
    const inst = this.instanceOf(site);
    if (this.full(site, inst.key, effect === 'ignored' ? 1 : 0)) return;
    this.evidence.push({ file: site.file.path, description, effect, level, site, enableText, instance: inst.key, ...this.order() });
  }

  private readonly unreadAt = new Set<string>();

  /** Configuration of the install being read that exists but was not read: the install's answers are unknown. */
  unread(site: Site, description: string) {
    const inst = this.instanceOf(site);
    // Once per install: the same source reached twice (two overlays of one base) is one note.
    const key = `${inst.key}\0${description}`;
    if (this.unreadAt.has(key)) return;
    this.unreadAt.add(key);
    this.evidence.push({ file: site.file.path, description, effect: 'ignored', site, instance: inst.key, unread: true });
  }

  /** The merge position of what is being read (see `applyOverrides`). */
  order(): Ordered {
    return this.rank && this.slot ? { chain: this.rank.chain, rank: this.rank.rank, slot: this.slot } : {};
  }

  target(kind: ConfigTargetKind, site: Site, path?: JsonPath) {
    if (!site.inner && !this.targets.some((t) => t.file === site.file.path && t.docIndex === site.docIndex)) {
      this.targets.push({
        kind,
        file: site.file.path,
        docIndex: site.docIndex,
        instance: this.instanceOf(site).key,
        ...(path ? { path } : {}),
        ...(this.rank ? { rank: this.rank.rank } : {}),
      });
    }
  }

  setting(site: Site, setting: ControllerSettingName, level: EvidenceLevel, value: string) {
    const key = this.instanceOf(site).key;
    if (this.full(site, key, 2)) return;
    this.settings.push({ setting, value, level, file: site.file.path, site, instance: key, ...this.order() });
    if (setting === 'namespaces') this.watch(site, value);
  }

  watch(site: Site, value: Json | undefined) {
    const list = scalarText(value);
    if (list)
      this.instanceOf(site).watched.push(
        ...list
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      );
  }
}

const at = (s: Site, ...p: JsonPath): Site => ({ ...s, path: [...s.path, ...p] });

/**
 * The first `max` entries of a list the model reads (a bound against hostile files). When an entry past
 * the bound could configure the controller (`relevant`), the install's answers become unknown: said as
 * "not read", with the bound, never silently dropped (install/completeness.ts).
 */
function bounded<T>(
  c: Collector,
  site: Site,
  list: readonly T[],
  max: number,
  what: string,
  relevant: (x: T) => boolean,
  kustomization = false,
): T[] {
  if (list.length > max && list.slice(max).some(relevant)) {
    const description = `not read: ${what} past the first ${max} (the install model reads no more), and one of them may set a controller setting`;
    // A kustomization's lists count only when it is an Argo CD install: decided at the end, as for remote bases.
    if (kustomization) c.remoteBases.push({ site, ref: what, key: c.current?.key ?? installOf(site.file.path).key, what: description });
    else c.unread(site, description);
  }
  return list.slice(0, max);
}

/** Words that name a flag the model reads (for `bounded`). */
const namesFlag = (a: Json | undefined) => {
  const t = scalarText(a);
  return t !== undefined && /--(enable-|policy|allowed-scm|applicationset-namespaces)/.test(t);
};

/** A value as written, quoted; control characters (a file's trailing newline) shown escaped. */
const quote = (raw: string) => {
  const shown = raw.length > 80 ? `${raw.slice(0, 80)}…` : raw;
  // Control characters escaped (a file's trailing newline); a value with double quotes (an `envs:` line
  // keeps them) in single quotes, so the quotes the controller gets show.
  return /[\n\r\t]/.test(shown) ? JSON.stringify(shown) : shown.includes('"') ? `'${shown}'` : `"${shown}"`;
};

/** The flags the arguments are read for, each with whether it is a bool flag (controllerArgs.ts). */
const KNOWN_FLAGS: ReadonlyMap<string, boolean> = new Map<string, boolean>([
  ...CONTROLLER_SETTINGS.filter((st) => st.flag).map((st): [string, boolean] => [st.flag, 'bool' in st]),
  [FLAG, true],
  [OLD_FLAG, true],
]);
/** String slice flags: a repeated flag adds to the list (pflag stringSlice Set); any other: the last one wins. */
const SLICE_FLAGS = new Set(['--applicationset-namespaces', '--allowed-scm-providers']);

function checkArgs(c: Collector, site: Site, args: Json | undefined, who: string) {
  if (Array.isArray(args))
    readArgs(
      c,
      (i) => at(site, i),
      bounded(c, site, args, 500, `${who}: arguments`, namesFlag).map((a) => scalarText(a)),
      who,
    );
}

/** One argument string; `site` points at it. */
function checkArg(c: Collector, site: Site, arg: Json | undefined, who: string) {
  readArgs(c, () => site, [scalarText(arg)], who);
}

/** An argument list as pflag reads it (controllerArgs.ts); `siteOf(i)` points at its `i`th item. */
function readArgs(c: Collector, siteOf: (item: number) => Site, items: (string | undefined)[], who: string) {
  const parsed = parseControllerArgs(items, KNOWN_FLAGS);
  // pflag sets a flag each time it is given: the last one wins, a string slice collects them all.
  const last = new Map<string, number>();
  parsed.forEach((p, i) => last.set(p.flag, i));
  const slices = new Map<string, string[]>();
  for (const p of parsed) if (SLICE_FLAGS.has(p.flag)) slices.set(p.flag, [...(slices.get(p.flag) ?? []), p.value]);
  parsed.forEach((p, i) => {
    if (last.get(p.flag) !== i) return;
    const st = CONTROLLER_SETTINGS.find((x) => x.flag === p.flag);
    if (st) c.setting(siteOf(p.item), st.name, 'flag', SLICE_FLAGS.has(p.flag) ? slices.get(p.flag)!.join(',') : p.value);
    // The replacement text of a fix is only offered where the item holds just this flag.
    const whole = items[p.flagItem]?.trim() === p.word && p.item === p.flagItem;
    const site = siteOf(p.flagItem);
    if (p.flag === FLAG) {
      if (!p.written) c.add(site, 'flag', 'enables', `${who} passes ${FLAG}`);
      else {
        const b = flagBool(p.value);
        if (b === undefined)
          c.add(
            site,
            undefined,
            'ignored',
            `${who} passes ${p.word}: not a boolean, the controller refuses to start`,
            whole ? FLAG : undefined,
          );
        else c.add(site, 'flag', b ? 'enables' : 'disables', `${who} passes ${p.word}`, whole && !b ? FLAG : undefined);
      }
    } else if (p.flag === OLD_FLAG) {
      c.add(
        site,
        undefined,
        'ignored',
        `${who} passes ${p.word}: the flag was ${RENAMED} (an unknown flag stops the controller)`,
        whole ? FLAG : undefined,
      );
    }
  });
}

function checkEnv(c: Collector, site: Site, env: Json | undefined, who: string) {
  if (Array.isArray(env))
    bounded(c, site, env, 500, `${who}: env entries`, (e) =>
      /^ARGOCD_APPLICATIONSET_CONTROLLER_/.test(String(own(e, 'name') ?? '')),
    ).forEach((e, i) => checkEnvVar(c, at(site, i), e, who));
}

/** One `{name, value}` entry; `site` points at the entry. */
function checkEnvVar(c: Collector, site: Site, e: Json | undefined, who: string) {
  const name = own(e, 'name');
  const st = name ? CONTROLLER_SETTINGS.find((x) => x.env === name) : undefined;
  const stValue = scalarText(own(e, 'value'));
  if (st && stValue !== undefined) c.setting(at(site, 'value'), st.name, 'env', stValue);
  if (name !== ENV && name !== OLD_ENV) return;
  const s = at(site, 'value');
  if (name === OLD_ENV) {
    c.add(s, undefined, 'ignored', `${who} sets ${OLD_ENV}: the variable was ${RENAMED}`);
    return;
  }
  const raw = scalarText(own(e, 'value'));
  if (raw === undefined) return; // valueFrom: the standard wiring from the ConfigMap
  const b = envBool(raw);
  if (b === undefined)
    c.add(
      s,
      undefined,
      'ignored',
      `${who} sets ${ENV}="${raw}": only true/false are recognised, the controller falls back to false`,
      '"true"',
    );
  else c.add(s, 'env', b ? 'enables' : 'disables', `${who} sets ${ENV}="${raw}"`, b ? undefined : '"true"');
}

/** A map of ConfigMap-style keys (ConfigMap data, Helm configs.params). */
function checkParams(c: Collector, site: Site, data: Json | undefined, who: string, ignoredWhy?: string) {
  if (!isObj(data)) return;
  if (!ignoredWhy)
    for (const st of CONTROLLER_SETTINGS) {
      const value = Object.prototype.hasOwnProperty.call(data, st.cm) ? scalarText(data[st.cm]) : undefined;
      c.slot = `params.${st.cm}`;
      if (value !== undefined) c.setting(at(site, st.cm), st.name, 'configmap', value);
    }
  for (const key of [CM_KEY, OLD_CM_KEY]) {
    if (Object.prototype.hasOwnProperty.call(data, key)) checkParam(c, at(site, key), key, data[key], who, ignoredWhy);
  }
}

/** One ConfigMap-style key and value; `site` points at the value. */
function checkParam(c: Collector, site: Site, key: string, value: Json | undefined, who: string, ignoredWhy?: string) {
  const st = CONTROLLER_SETTINGS.find((x) => x.cm === key);
  c.slot = `params.${key}`;
  if (st && !ignoredWhy) c.setting(site, st.name, 'configmap', scalarText(value) ?? '');
  if (key !== CM_KEY && key !== OLD_CM_KEY) return;
  const raw = scalarText(value) ?? '';
  if (key === OLD_CM_KEY) c.add(site, undefined, 'ignored', `${who} sets ${key}: the key was ${RENAMED}`);
  else if (ignoredWhy) c.add(site, undefined, 'ignored', `${who} sets ${key}: ${quote(raw)}, but ${ignoredWhy}`);
  else {
    const b = envBool(raw);
    if (b === undefined)
      c.add(
        site,
        undefined,
        'ignored',
        `${who} sets ${key}: ${quote(raw)}: only true/false are recognised, the controller falls back to false`,
        '"true"',
      );
    else c.add(site, 'configmap', b ? 'enables' : 'disables', `${who} sets ${key}: ${quote(raw)}`, b ? undefined : '"true"');
  }
}

function resourceName(v: Json): string {
  const n = own(own(v, 'metadata'), 'name');
  return typeof n === 'string' ? n : '';
}

const isControllerName = (n: string) => n === 'argocd-applicationset-controller' || n.endsWith('-applicationset-controller');

function checkPodSpec(c: Collector, site: Site, pod: Json | undefined, who: string) {
  for (const list of ['containers', 'initContainers']) {
    const cs = own(pod, list);
    if (!Array.isArray(cs)) continue;
    cs.forEach((ct, i) => {
      const s = at(site, list, i);
      checkArgs(c, at(s, 'command'), own(ct, 'command'), who);
      checkArgs(c, at(s, 'args'), own(ct, 'args'), who);
      checkEnv(c, at(s, 'env'), own(ct, 'env'), who);
    });
  }
}

/** A Kubernetes resource (or a strategic-merge patch of one). */
function checkResource(c: Collector, site: Site, v: Json, depth: number) {
  const kind = own(v, 'kind');
  const name = resourceName(v);
  const ns = own(own(v, 'metadata'), 'namespace');
  const outer = c.current;
  if (typeof ns === 'string' && ns && !outer?.key.startsWith('app:'))
    c.current = { key: outer?.key ?? installOf(site.file.path).key, namespace: ns };
  try {
    checkResourceIn(c, site, v, kind, name, depth);
  } finally {
    c.current = outer;
  }
}

function checkResourceIn(c: Collector, site: Site, v: Json, kind: Json | undefined, name: string, depth: number) {
  if (kind === 'ConfigMap' && name === CM_NAME) checkParamsConfigMap(c, site, v);
  else if ((kind === 'Deployment' || kind === 'StatefulSet') && isControllerName(name))
    checkPodSpec(c, at(site, 'spec', 'template', 'spec'), own(own(own(v, 'spec'), 'template'), 'spec'), `Deployment ${name}`);
  else if (kind === 'ArgoCD' && String(own(v, 'apiVersion') ?? '').startsWith('argoproj.io/')) checkArgoCDResource(c, site, v, name);
  else if (kind === 'Application' && String(own(v, 'apiVersion') ?? '').startsWith('argoproj.io/')) {
    const ns = scalarText(own(own(v, 'metadata'), 'namespace'));
    if (ns && !site.inner && !c.appNamespaces.has(ns)) c.appNamespaces.set(ns, site.file.path);
    checkArgoApplication(c, site, v, name, depth);
  } else if (kind === 'HelmRelease' && fluxArgoChart(v, c.fluxSources())) checkHelmRelease(c, site, v, name);
  else if (kind === 'Kustomization' || (kind === undefined && /(^|\/)kustomization\.ya?ml$/i.test(site.file.path))) {
    const kns = own(v, 'namespace');
    if (typeof kns === 'string' && kns && !site.inner) c.kustomizeNamespaces.set(dirname(site.file.path), kns);
    checkKustomization(c, site, v, depth);
  } else if (kind === undefined && !site.inner && /(^|\/)Chart\.ya?ml$/.test(site.file.path)) checkChartFile(c, site, v);
  else if (kind === undefined && own(v, 'apiVersion') === undefined) checkValuesFile(c, site, v);
}

/** The argocd-cmd-params-cm ConfigMap. */
function checkParamsConfigMap(c: Collector, site: Site, v: Json) {
  c.target('configmap', site);
  const notBuilt = site.inner ? undefined : notDeployed(c, site.file.path);
  const before = c.evidence.length;
  checkParams(c, at(site, 'data'), own(v, 'data'), `ConfigMap ${CM_NAME}`, notBuilt?.why);
  // The progressive-syncs key's evidence is ignored for what is missing (the renamed key's for its name):
  // it carries the facts, by its place, not its description. What would enable them, once deployed: the
  // lens and status bar say what is missing; a kustomization that does not list the file: the fix adds it.
  if (notBuilt)
    for (const e of c.evidence.slice(before)) {
      const path = e.site?.path;
      if (path?.[path.length - 1] !== CM_KEY) continue;
      if (notBuilt.unlisted) e.unlisted = true;
      const raw = scalarText(own(own(v, 'data'), CM_KEY));
      if (raw !== undefined && raw.toLowerCase() === 'true') e.undeployed = notBuilt.why;
    }
}

/** The Argo CD Operator's `ArgoCD` resource: spec.applicationSet and spec.cmdParams. */
function checkArgoCDResource(c: Collector, site: Site, v: Json, name: string) {
  c.target('argocd-cr', site);
  const spec = own(v, 'spec');
  const as = own(spec, 'applicationSet');
  checkArgs(
    c,
    at(site, 'spec', 'applicationSet', 'extraCommandArgs'),
    own(as, 'extraCommandArgs'),
    `ArgoCD ${name} (spec.applicationSet.extraCommandArgs)`,
  );
  checkEnv(c, at(site, 'spec', 'applicationSet', 'env'), own(as, 'env'), `ArgoCD ${name} (spec.applicationSet.env)`);
  // spec.sourceNamespaces: the namespaces the Operator lets Applications live in (it passes them as the
  // application controller's and API server's --application-namespaces; argocd-operator api/v1beta1
  // ArgoCDSpec.SourceNamespaces), read as application.namespaces.
  const sourceNs = own(spec, 'sourceNamespaces');
  if (Array.isArray(sourceNs) && sourceNs.length)
    c.setting(
      at(site, 'spec', 'sourceNamespaces'),
      'applicationNamespaces',
      'configmap',
      sourceNs
        .map((x) => scalarText(x) ?? '')
        .filter(Boolean)
        .join(','),
    );
  checkParams(
    c,
    at(site, 'spec', 'cmdParams'),
    own(spec, 'cmdParams'),
    `ArgoCD ${name} spec.cmdParams`,
    'the Operator does not pass this key to the ApplicationSet controller; use spec.applicationSet.extraCommandArgs: [--enable-progressive-syncs]',
  );
}

/** An Argo CD Application whose sources may install Argo CD (its Helm values and value files). */
function checkArgoApplication(c: Collector, site: Site, v: Json, name: string, depth: number) {
  const spec = own(v, 'spec');
  const sources: [Json | undefined, JsonPath][] = [[own(spec, 'source'), ['spec', 'source']]];
  const multi = own(spec, 'sources');
  if (Array.isArray(multi)) multi.forEach((s, i) => sources.push([s, ['spec', 'sources', i]]));
  // An Application that installs Argo CD is an install of its own, in its destination namespace;
  // one that installs a local argo-cd chart (`path:`) configures that chart's install.
  const dest = own(own(spec, 'destination'), 'namespace');
  const namespace = typeof dest === 'string' && dest ? dest : undefined;
  const appKey = `app:${site.file.path}#${name}`;
  const outer = { current: c.current, rank: c.rank };
  try {
    for (const [src, p] of sources) {
      if (!isObj(src)) continue;
      const path = isOciSource(src) ? undefined : scalarText(own(src, 'path'));
      const root = c.roots.find((r) => site.file.path.startsWith(r + '/')) ?? c.roots[0];
      const chartDir = path !== undefined && root ? joinPath(root, path) : undefined;
      const installers = chartDir ? c.installers.charts.get(chartDir) : undefined;
      if (chartDir && installers) {
        const key = installOf(`${chartDir}/values.yaml`).key;
        c.current = { key, namespace };
        c.rank = installers.length === 1 ? { chain: key, rank: 1000 } : undefined;
        checkHelmSource(c, at(site, ...p, 'helm'), own(src, 'helm'), depth, chartKeys(c, chartDir));
        noteUnread(c, at(site, ...p, 'helm', 'valueFiles'), installers.find((i) => i.appKey === appKey)?.valueFiles ?? [], name);
      } else {
        c.current = { key: appKey, namespace };
        c.rank = { chain: appKey, rank: 1000 };
        checkHelmSource(c, at(site, ...p, 'helm'), own(src, 'helm'), depth, [[]]);
        const refs = c.installers.refs.get(appKey);
        if (refs && isArgoChartSource(src)) noteUnread(c, at(site, ...p, 'helm', 'valueFiles'), refs.valueFiles, name);
      }
    }
  } finally {
    c.current = outer.current;
    c.rank = outer.rank;
  }
}

/** A Flux HelmRelease of the argo-cd chart: its valuesFrom sources and spec.values. */
function checkHelmRelease(c: Collector, site: Site, v: Json, name: string) {
  // Flux merges the valuesFrom sources in order, then spec.values (helm-controller
  // `internal/chartutil/values.go` ChartValuesFromReferences); the sources found in the repository
  // are read in `selectFluxValues`, the ones that are not are said here.
  // A HelmRelease of argo-cd is an install whatever it states (no chart version, values only from
  // valuesFrom); its spec.values, which Flux merges last, is where the enabling fix writes.
  const key = c.current?.key ?? installOf(site.file.path).key;
  c.target('helm-values', site, ['spec', 'values']);
  const unresolved = fluxArgoChart(v, c.fluxSources())?.unresolved;
  if (unresolved) c.unread(at(site, 'spec', 'chartRef'), `HelmRelease ${name} ${unresolved}`);
  const from = own(own(v, 'spec'), 'valuesFrom');
  if (Array.isArray(from))
    from.slice(0, 50).forEach((ref, i) => {
      if (c.selectedFrom.has(`${site.file.path}#${name}#${i}`)) return;
      const rk = String(own(ref, 'kind') ?? 'ConfigMap');
      // Values the model cannot see may set anything: the verdict is unknown, never "off".
      c.unread(
        at(site, 'spec', 'valuesFrom', i),
        `HelmRelease ${name} valuesFrom ${rk} ${String(own(ref, 'name') ?? '')}: not read (not in this repository; Flux reads it from the cluster)`,
      );
    });
  const outer = c.rank;
  c.rank = { chain: `${key}#${name}`, rank: 1000 };
  try {
    const values = own(own(v, 'spec'), 'values');
    if (isObj(values)) checkHelmValues(c, at(site, 'spec', 'values'), values, `HelmRelease ${name} values`);
  } finally {
    c.rank = outer;
  }
}

/** A Chart.yaml without a kind. */
function checkChartFile(c: Collector, site: Site, v: Json) {
  // A chart that is or wraps argo-cd: its values files are its configuration even when they do not
  // name a setting yet (the enabling fix writes there, under the dependency's name or alias).
  if (!isArgoChart(v)) return;
  const dir = dirname(site.file.path);
  for (const name of ['values.yaml', 'values.yml']) {
    const values = c.workspace.file(`${dir}/${name}`);
    if (values) scanFile(c, values);
  }
}

/** A YAML document without kind or apiVersion: Helm values, of a chart beside it or selected by an install. */
function checkValuesFile(c: Collector, site: Site, v: Json) {
  const chart = site.inner ? undefined : chartBeside(c.workspace, site.file.path);
  if (chart) checkValuesBesideChart(c, site, v, chart.path);
  else checkLooseValues(c, site, v);
}

/** Values with no chart beside them: of a folder an install selects from, or of an install found elsewhere. */
function checkLooseValues(c: Collector, site: Site, v: Json) {
  // A folder of values files an install selects from (values/prod.yaml): the others are read by no install.
  const dir = dirname(site.file.path);
  const sibling = site.inner ? undefined : [...c.selected.entries()].find(([p]) => dirname(p) === dir);
  if (sibling) {
    const why = `${sibling[1].who.replace(/ helm\.valueFiles .*| valuesFrom .*/, '')} selects ${relativePath(c.roots, sibling[0])} from this folder, not ${relativePath([dir], site.file.path)}`;
    // Said as the selecting install's evidence (the file is no install of its own).
    const outer = c.current;
    c.current = { key: sibling[1].key, namespace: sibling[1].namespace };
    try {
      for (const k of [[], ['argo-cd']])
        checkParams(
          c,
          at(site, ...k, 'configs', 'params'),
          own(own(k.length ? own(v, k[0]) : v, 'configs'), 'params'),
          'Helm values configs.params',
          why,
        );
    } finally {
      c.current = outer;
    }
    return;
  }
  checkHelmValues(c, site, v, 'Helm values');
  // An umbrella chart's values: the argo-cd dependency's values sit under its name.
  const sub = own(v, 'argo-cd');
  if (isObj(sub)) checkHelmValues(c, at(site, 'argo-cd'), sub, 'Helm values argo-cd:');
}

function checkValuesBesideChart(c: Collector, site: Site, v: Json, chartPath: string) {
  // A chart beside the values: the argo-cd chart itself reads them at the top, an umbrella chart's
  // argo-cd dependency under its name or alias (Helm's subchart values); any other chart not at all.
  const keys = isObj(v) ? argoValuesKeys(c.workspace, site.file, v as Obj) : [];
  if (!keys.length) return;
  const chartDir = dirname(chartPath);
  const installers = c.installers.charts.get(chartDir) ?? [];
  const base = site.file.path.slice(site.file.path.lastIndexOf('/') + 1);
  const isDefault = dirname(site.file.path) === chartDir && /^values\.ya?ml$/.test(base);
  if (installers.length && !isDefault) {
    // Helm reads the chart's values.yaml and the files the installing Application selects; another
    // values file beside the chart (values-dev.yaml) is read by no install of this repository.
    const chosen = [...new Set(installers.flatMap((i) => i.valueFiles.map((f) => f.written)))];
    const why = `no Application installing ${relativePath([dirname(chartDir)], chartDir)} selects ${relativePath([chartDir], site.file.path)} (${installers.map((i) => i.label).join(', ')} ${chosen.length ? `selects ${chosen.join(', ')}` : 'selects no values file'})`;
    for (const k of keys)
      checkParams(
        c,
        at(site, ...k, 'configs', 'params'),
        own(own(k.length ? own(v, k[0]) : v, 'configs'), 'params'),
        `Helm values ${k.length ? `${k[0]}.` : ''}configs.params`,
        why,
      );
    return;
  }
  const outer = { current: c.current, rank: c.rank };
  if (isDefault && installers.length) {
    c.current = { key: installOf(site.file.path).key, namespace: installers[0].namespace };
    if (installers.length === 1) c.rank = { chain: c.current.key, rank: 0 };
  }
  try {
    scanValuesDoc(c, site, v, keys, chartPath);
  } finally {
    c.current = outer.current;
    c.rank = outer.rank;
  }
}

/** A values document the argo-cd chart reads under `keys` (`[]` at the top, `['argo']` for an alias). */
function scanValuesDoc(c: Collector, site: Site, v: Json, keys: string[][], chartPath?: string) {
  for (const k of keys) {
    const sub = k.length ? own(v, k[0]) : v;
    if (k.length && !isObj(sub)) {
      // The dependency has no values yet: the enabling fix writes them under its key.
      if (!site.inner) c.target('helm-values', site, k);
      continue;
    }
    checkHelmValues(c, k.length ? at(site, k[0]) : site, sub as Json, k.length ? `Helm values ${k[0]}:` : 'Helm values', true);
  }
  if (chartPath && keys.length && !keys.some((k) => !k.length)) {
    const rel = relativePath([dirname(chartPath)], site.file.path);
    const ignored = `the argo-cd chart reads its values under "${keys[0][0]}:" (the dependency in ${chartPath.slice(chartPath.lastIndexOf('/') + 1)}), not at the top of ${rel}`;
    checkParams(c, at(site, 'configs', 'params'), own(own(v, 'configs'), 'params'), 'Helm values configs.params', ignored);
  }
}

/** Where the argo-cd chart of a chart folder reads its values: `[]` (the chart itself) or `[alias or 'argo-cd']`. */
function chartKeys(c: Collector, chartDir: string): string[][] {
  const v = chartAt(c.workspace, chartDir)?.docs[0]?.value;
  if (own(v, 'name') === 'argo-cd') return [[]];
  const deps = own(v, 'dependencies');
  return Array.isArray(deps) ? deps.filter((d) => own(d, 'name') === 'argo-cd').map((d) => [scalarText(own(d, 'alias')) || 'argo-cd']) : [];
}

function checkHelmValues(c: Collector, site: Site, v: Json, who: string, known = false) {
  const configs = own(v, 'configs');
  const as = own(v, 'applicationSet');
  const params = own(configs, 'params');
  const looksLikeChart = isObj(params) || (isObj(as) && (own(as, 'extraArgs') !== undefined || own(as, 'extraEnv') !== undefined));
  // Values of a known argo-cd chart (the chart beside them, or the install selecting them) are a
  // target even when empty; the target's path is where the values sit in the document.
  if (!site.inner && (looksLikeChart || known)) c.target('helm-values', site, site.path.length ? site.path : undefined);
  if (!looksLikeChart) return;
  checkParams(c, at(site, 'configs', 'params'), params, `${who} configs.params`);
  c.slot = 'extraArgs';
  checkArgs(c, at(site, 'applicationSet', 'extraArgs'), own(as, 'extraArgs'), `${who} applicationSet.extraArgs`);
  c.slot = 'extraEnv';
  checkEnv(c, at(site, 'applicationSet', 'extraEnv'), own(as, 'extraEnv'), `${who} applicationSet.extraEnv`);
  c.slot = 'globalEnv';
  checkEnv(c, at(site, 'global', 'env'), own(own(v, 'global'), 'env'), `${who} global.env`);
  c.slot = undefined;
}

/** An Application source's inline Helm values, in Helm's order: values/valuesObject, then parameters. */
function checkHelmSource(c: Collector, site: Site, helm: Json | undefined, depth: number, keys: string[][]) {
  if (!isObj(helm)) return;
  const base = c.rank?.rank ?? 1000;
  const step = (n: number) => {
    if (c.rank) c.rank = { ...c.rank, rank: base + n };
  };
  // Argo CD writes valuesObject (else values) to one values file after valueFiles, and passes
  // parameters as --set (reposerver/repository/repository.go helmTemplate).
  const vo = own(helm, 'valuesObject');
  step(1);
  if (isObj(vo)) for (const k of keys) sub(c, at(site, 'valuesObject'), vo, k, 'Application helm.valuesObject');
  const vs = own(helm, 'values');
  if (typeof vs === 'string' && !isObj(vo)) {
    for (const doc of parseInline(vs, depth))
      if (isObj(doc)) for (const k of keys) sub(c, { ...at(site, 'values'), inner: true }, doc, k, 'Application helm.values');
  }
  step(2);
  const prefix = keys[0]?.length ? `${keys[0][0]}.` : '';
  const params = own(helm, 'parameters');
  if (Array.isArray(params)) {
    params.forEach((p, i) => {
      const name = String(own(p, 'name') ?? '').replace(/\\/g, '');
      const value = scalarText(own(p, 'value'));
      if (value === undefined || !name.startsWith(prefix)) return;
      const local = name.slice(prefix.length);
      const s = at(site, 'parameters', i, 'value');
      if (local.startsWith('configs.params.'))
        checkParam(c, s, local.slice('configs.params.'.length), value, 'Application helm.parameters');
      else if (/^applicationSet\.extraArgs\[\d+\]$/.test(local)) {
        c.slot = 'extraArgs';
        checkArg(c, s, value, 'Application helm.parameters');
      }
    });
  }
  c.slot = undefined;
}

/** Values under an umbrella chart's dependency key (or at the top for the argo-cd chart itself). */
function sub(c: Collector, site: Site, v: Obj, k: string[], who: string) {
  if (!k.length) return checkHelmValues(c, site, v, who);
  const inner = own(v, k[0]);
  if (isObj(inner)) checkHelmValues(c, site.inner ? site : at(site, k[0]), inner, `${who} ${k[0]}:`);
}

/** The values files an Application selects that cannot be read: said, never silently skipped. */
function noteUnread(c: Collector, site: Site, files: readonly SelectedValues[], app: string) {
  files.forEach((f, i) => {
    // A file of the repository that the workspace index skipped (over its size limit, not a regular file)
    // exists: what it sets is unknown, so the install's answers are (never "not in the repository").
    const skipped = f.path ? c.workspace.notRead(f.path) : undefined;
    if (skipped) {
      c.unread(at(site, i), `Application ${app} helm.valueFiles ${f.written}: not read (${skipped})`);
      return;
    }
    // One the model cannot reach (another repository, the chart package, a URL, past the bound): unknown too.
    if (f.unread) {
      c.unread(at(site, Math.min(i, 49)), `Application ${app} helm.valueFiles ${f.written}: not read (${f.unread})`);
      return;
    }
    // A file of this repository that does not exist sets nothing (Argo CD fails to render without it).
    if (f.path && !c.workspace.file(f.path))
      c.add(at(site, i), undefined, 'ignored', `Application ${app} helm.valueFiles ${f.written}: not read (not in the repository)`);
  });
}

function parseInline(text: string, depth: number): Json[] {
  if (text.length > MAX_INLINE_YAML || depth > 2 || yamlLimitMessage(text)) return [];
  try {
    return documentValues(text) as Json[];
  } catch {
    return [];
  }
}

/** A kustomize resource that kustomize fetches (a git URL with `?ref=`, `github.com/…`, an http(s) URL). */
function isRemote(ref: string): boolean {
  return /^(https?:\/\/|git@|ssh:\/\/|git::|(github|gitlab|bitbucket)\.(com|org)\/)/i.test(ref) || /\?ref=|\/\/.*\?/.test(ref);
}

/** Joins a kustomization-relative path; refuses absolute paths and URLs (the host confines reads anyway). */
function resolveRelative(base: string, rel: string): string | undefined {
  if (!rel || rel.startsWith('/') || /^[a-z]+:\/\//i.test(rel)) return undefined;
  const parts = base.split('/');
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/') || '/';
}

interface PatchTarget {
  kind: string;
  name: string;
}

function checkKustomization(c: Collector, site: Site, v: Json, depth: number) {
  if (!site.inner) checkHelmCharts(sinkOf(c), site, v, c.current?.key ?? installOf(site.file.path).key);
  checkKustomizePatches(c, site, v, depth);
  noteRemoteBases(c, site, v);
  const gens = own(v, 'configMapGenerator');
  if (Array.isArray(gens))
    gens.forEach((g, i) => {
      if (own(g, 'name') !== CM_NAME) return;
      c.target('configmap-generator', site, ['configMapGenerator', i, 'literals']);
      checkGeneratorEnvs(c, site, g, i);
      checkGeneratorFiles(c, site, g, i);
      checkGeneratorLiterals(c, site, g, i);
    });
}

/** The patches of a kustomization that concern the controller or the params ConfigMap. */
function checkKustomizePatches(c: Collector, site: Site, v: Json, depth: number) {
  const dir = dirname(site.file.path);
  const lists: [string, Json | undefined][] = [
    ['patches', own(v, 'patches')],
    ['patchesJson6902', own(v, 'patchesJson6902')],
    ['patchesStrategicMerge', own(v, 'patchesStrategicMerge')],
  ];
  for (const [field, list] of lists) {
    if (!Array.isArray(list)) continue;
    // A patch past the bound counts when it may concern the controller: no target (a file or an inline
    // strategic-merge patch names its own), or the controller or the params ConfigMap as its target.
    const mayConcern = (e: Json) => {
      const t = own(e, 'target');
      return t === undefined || json6902Applies({ kind: String(own(t, 'kind') ?? ''), name: String(own(t, 'name') ?? '') });
    };
    bounded(c, at(site, field), list, 200, `kustomize ${field}`, mayConcern, true).forEach((entry, i) => {
      const s = at(site, field, i);
      // patchesStrategicMerge entries are paths or inline YAML strings.
      const patch = typeof entry === 'string' ? (entry.includes('\n') ? entry : undefined) : scalarText(own(entry, 'patch'));
      const pathRef = typeof entry === 'string' ? (entry.includes('\n') ? undefined : entry) : scalarText(own(entry, 'path'));
      const t = own(entry, 'target');
      const target: PatchTarget = { kind: String(own(t, 'kind') ?? ''), name: String(own(t, 'name') ?? '') };
      if (patch !== undefined) {
        const inner: Site = { ...(typeof entry === 'string' ? s : at(s, 'patch')), inner: true };
        for (const doc of parseInline(patch, depth + 1)) checkPatchDoc(c, inner, doc, target, depth + 1);
      } else if (pathRef !== undefined) {
        const p = resolveRelative(dir, pathRef);
        // A YAML patch file only matters here as JSON6902 operations on the controller or the params
        // ConfigMap (see below): other targets are not read at all (most kustomizations patch apps).
        if (p && /\.ya?ml$/i.test(p) && !json6902Applies(target)) return;
        const file = p ? c.workspace.file(p) : undefined;
        // YAML patch files are indexed on their own (strategic merge patches are found as resources);
        // only JSON6902 operation lists need the kustomization's target to make sense.
        if (!file) return;
        file.docs.forEach((d) => {
          if (Array.isArray(d.value)) checkJson6902(c, { file, docIndex: d.index, path: [], inner: false }, d.value, target);
          else if (!/\.ya?ml$/i.test(file.path))
            checkPatchDoc(c, { file, docIndex: d.index, path: [], inner: false }, d.value, target, depth + 1);
        });
      }
    });
  }
}

function noteRemoteBases(c: Collector, site: Site, v: Json) {
  // Remote bases are fetched by kustomize at build time: offline we cannot read them. The Argo projects'
  // own manifests (argoproj/argo-cd, argocd-autopilot's base, image updater, …) leave the controller's
  // settings at their defaults, so only another repository's base could be what enables them: said as
  // "not read", never silently.
  for (const field of ['resources', 'bases', 'components']) {
    const list = own(v, field);
    if (!Array.isArray(list)) continue;
    const remoteOther = (r: Json) => {
      const ref = scalarText(r);
      return !!ref && isRemote(ref) && !/argoproj(-labs)?\//i.test(ref);
    };
    bounded(c, at(site, field), list, 200, `kustomize ${field}`, remoteOther, true).forEach((r, i) => {
      const ref = scalarText(r);
      // Argo CD's own manifests (install/upstreamManifests.ts): the kustomization is an install.
      if (ref && installsArgoCd(ref)) c.instanceKey(at(site, field, i));
      if (!ref || !isRemote(ref) || /argoproj(-labs)?\//i.test(ref)) return;
      c.remoteBases.push({ site: at(site, field, i), ref, key: c.current?.key ?? installOf(site.file.path).key });
    });
  }
}

/** The `envs:` files (and the older single `env:`) of the params ConfigMap generator `g` (the `i`th). */
function checkGeneratorEnvs(c: Collector, site: Site, g: Json, i: number) {
  const envs = own(g, 'envs');
  const lists: [string, Json[]][] = [
    ['envs', Array.isArray(envs) ? envs : []],
    ['env', typeof own(g, 'env') === 'string' ? [own(g, 'env') as Json] : []],
  ];
  for (const [field, list] of lists)
    bounded(
      c,
      { ...at(site, 'configMapGenerator', i, field), inner: true },
      list,
      20,
      `kustomize configMapGenerator ${field} files`,
      () => true,
    ).forEach((e, j) => {
      const s: Site = {
        ...(field === 'env' ? at(site, 'configMapGenerator', i, 'env') : at(site, 'configMapGenerator', i, 'envs', j)),
        inner: true,
      };
      const text = generatorSource(c, s, e, `envs ${String(e)}`);
      if (text === undefined) return;
      // kustomize api/kv keyValuesFromLines: the value is everything after the first "=", quotes kept (kustomizeKv.ts).
      const isSetting = (pair: { key: string }) => pair.key === CM_KEY || CONTROLLER_SETTINGS.some((st) => st.cm === pair.key);
      for (const pair of bounded(c, s, envFilePairs(text), 500, `lines of ${String(e)}`, isSetting))
        checkParam(c, s, pair.key, pair.value, `kustomize configMapGenerator ${CM_NAME} (${field} ${String(e)}, line ${pair.line + 1})`);
    });
}

/**
 * The text of a generator's `envs:`/`files:` source, or undefined: a path kustomize cannot resolve is
 * left alone (kustomize fails the build), a file in the repository that the workspace index skipped is
 * said as "not read" (the verdict is then unknown, never decided without it).
 */
function generatorSource(c: Collector, site: Site, entry: Json, what: string): string | undefined {
  if (typeof entry !== 'string') return undefined;
  const p = resolveRelative(dirname(site.file.path), entry);
  if (!p) return undefined;
  const f = c.workspace.file(p);
  if (f) return f.text;
  const why = c.workspace.notRead(p);
  if (why) c.unread(site, `kustomize configMapGenerator ${CM_NAME} (${what}): not read (${why})`);
  return undefined;
}

/** The `files:` entries of the params ConfigMap generator `g`. */
function checkGeneratorFiles(c: Collector, site: Site, g: Json, i: number) {
  // One key per file, its content verbatim (kustomize api/kv keyValuesFromFileSources): a trailing newline
  // is part of the value, for every setting (`false\n` is not a boolean, `create-only\n` not a policy).
  const fileList = own(g, 'files');
  if (Array.isArray(fileList))
    bounded(c, { ...at(site, 'configMapGenerator', i, 'files'), inner: true }, fileList, 50, 'kustomize configMapGenerator files', (e) => {
      const k = typeof e === 'string' ? fileSource(e)?.key : undefined;
      return k === CM_KEY || CONTROLLER_SETTINGS.some((st) => st.cm === k);
    }).forEach((e, j) => {
      const entry = typeof e === 'string' ? fileSource(e) : undefined;
      if (!entry) return;
      const s: Site = { ...at(site, 'configMapGenerator', i, 'files', j), inner: true };
      const text = generatorSource(c, s, entry.path, `files ${String(e)}`);
      if (text === undefined) return;
      checkParam(c, s, entry.key, text, `kustomize configMapGenerator ${CM_NAME} (files ${String(e)})`);
    });
}

/** The `literals:` of the params ConfigMap generator `g`: one pair of matching surrounding quotes removed (kustomizeKv.ts). */
function checkGeneratorLiterals(c: Collector, site: Site, g: Json, i: number) {
  const lits = own(g, 'literals');
  if (!Array.isArray(lits)) return;
  lits.forEach((l, j) => {
    const pair = typeof l === 'string' ? literalPair(l) : undefined;
    if (!pair) return;
    const behavior = String(own(g, 'behavior') ?? 'create');
    checkParam(
      c,
      { ...at(site, 'configMapGenerator', i, 'literals', j), inner: true },
      pair.key,
      pair.value,
      `kustomize configMapGenerator ${CM_NAME} (behavior ${behavior})`,
    );
  });
}

function checkPatchDoc(c: Collector, site: Site, doc: Json, target: PatchTarget, depth: number) {
  if (Array.isArray(doc)) checkJson6902(c, site, doc, target);
  else if (isObj(doc)) {
    // An inline strategic-merge patch may leave kind/name to the target.
    const kind = own(doc, 'kind') ?? target.kind;
    const name = resourceName(doc) || target.name;
    const withId: Obj = { ...doc };
    Object.defineProperty(withId, 'kind', { value: kind, enumerable: true });
    Object.defineProperty(withId, 'metadata', {
      value: { ...(isObj(own(doc, 'metadata')) ? (own(doc, 'metadata') as Obj) : {}), name },
      enumerable: true,
    });
    checkResource(c, site, withId, depth);
  }
}

const onControllerTarget = (t: PatchTarget) => (t.kind === 'Deployment' || t.kind === 'StatefulSet') && isControllerName(t.name);
const onConfigMapTarget = (t: PatchTarget) => t.kind === 'ConfigMap' && t.name === CM_NAME;
const json6902Applies = (t: PatchTarget) => onControllerTarget(t) || onConfigMapTarget(t);

/** JSON6902 operations against the controller Deployment or the params ConfigMap. */
function checkJson6902(c: Collector, site: Site, ops: Json[], target: PatchTarget) {
  const onDeployment = onControllerTarget(target);
  const onConfigMap = onConfigMapTarget(target);
  if (!onDeployment && !onConfigMap) return;
  const who = `kustomize JSON6902 patch of ${target.kind} ${target.name}`;
  bounded(c, site, ops, 500, who, (op) => own(op, 'op') === 'add' || own(op, 'op') === 'replace').forEach((op, i) => {
    const kindOp = own(op, 'op');
    if (kindOp !== 'add' && kindOp !== 'replace') return;
    const p = String(own(op, 'path') ?? '');
    const value = own(op, 'value');
    const s = at(site, i, 'value');
    if (onDeployment) {
      if (/\/(args|command)$/.test(p)) checkArgs(c, s, value, who);
      else if (/\/(args|command)\/(-|\d+)$/.test(p)) checkArg(c, s, value, who);
      else if (/\/env$/.test(p)) checkEnv(c, s, value, who);
      else if (/\/env\/(-|\d+)$/.test(p)) checkEnvVar(c, s, value, who);
    } else if (p === '/data') checkParams(c, s, value, who);
    else if (p.startsWith('/data/')) checkParam(c, s, p.slice(6).replace(/~1/g, '/').replace(/~0/g, '~'), value, who);
  });
}

/** The lists of a kustomization that make a file part of its build. */
const KUSTOMIZE_LISTS = ['resources', 'bases', 'components', 'patchesStrategicMerge', 'patches', 'crds'];

/**
 * "Written but not deployed": a params ConfigMap the controller never reads because nothing builds or
 * applies its file. In a folder with a kustomization: the kustomization must list it (resources,
 * patches, …). In a plain folder: something must deploy the folder — an Application's or Flux
 * Kustomization's path (installers.ts), a kustomization above that lists the file — or the folder must
 * be the install's own (named like one, `argocd/`, `bootstrap/`…, or holding other parts of Argo CD's
 * install), which is applied as a whole, or hold nothing else (taken as the install's configuration,
 * applied by hand). A ConfigMap dropped beside the ApplicationSets, in a folder nothing deploys, is
 * written, not deployed.
 */
function notDeployed(c: Collector, file: string): { why: string; unlisted?: true } | undefined {
  const dir = dirname(file);
  const base = file.slice(dir.length + 1);
  const folder = (p: string) => p.split('/').slice(-2).join('/');
  const restart = 'the ApplicationSet controller reads its parameters only when it starts, so restart it after the change';
  const k = kustomizationIn(c, dir);
  if (k) {
    if (listedBy(k.value, base)) return undefined;
    return {
      why: `${folder(file)} is not part of ${folder(k.path)}: nothing deploys it (add it to its resources; ${restart})`,
      unlisted: true,
    };
  }
  if (folderDeployed(c.installers, dir)) return undefined;
  let up = dir;
  for (let n = 0; n < 3 && up.lastIndexOf('/') > 0; n++) {
    up = dirname(up);
    const above = kustomizationIn(c, up);
    if (above && listedBy(above.value, file.slice(up.length + 1))) return undefined;
  }
  if (holdsInstallParts(c, dir, file)) return undefined;
  // Nothing deploys the ConfigMap and no other part of Argo CD lies beside it: applied by hand, if at
  // all. Such a folder is an install only where the repository holds no other (see `looseInstances`).
  if (isInstallFolder(dir.slice(dir.lastIndexOf('/') + 1))) return void c.byHand.add(file);
  // A folder of its own is taken as the install's configuration, applied by hand; one that holds the
  // ApplicationSets is theirs, and nothing applies a ConfigMap dropped there.
  // Samples (examples/, docs/, …) are applied by hand as a whole.
  if (!holdsApplicationSets(c, dir, file) || isSample({ key: dir }, c.roots)) return void c.byHand.add(file);
  const rel = relativePath(c.roots, file);
  return {
    why: `${rel} is written but not deployed: no kustomization lists it and no Application or Flux Kustomization deploys ${relativePath(c.roots, dir)}/ (apply it, e.g. kubectl apply -f ${rel}, or add it to the install; ${restart})`,
  };
}

function kustomizationIn(c: Collector, dir: string): { path: string; value: Json | undefined } | undefined {
  for (const name of ['kustomization.yaml', 'kustomization.yml', 'Kustomization']) {
    const k = c.workspace.file(`${dir}/${name}`);
    if (k) return { path: k.path, value: k.docs[0]?.value };
  }
  return undefined;
}

/** True when a kustomization lists `rel` (relative to its folder) in one of the lists kustomize builds. */
function listedBy(v: Json | undefined, rel: string): boolean {
  return KUSTOMIZE_LISTS.some((field) => {
    const list = own(v, field);
    return (
      Array.isArray(list) &&
      list.some((e) => {
        const ref = typeof e === 'string' ? e : scalarText(own(e, 'path'));
        return ref !== undefined && ref.replace(/^\.\//, '') === rel;
      })
    );
  });
}

function holdsApplicationSets(c: Collector, dir: string, self: string): boolean {
  return c.workspace
    .paths()
    .filter((p) => p !== self && dirname(p) === dir && /\.ya?ml$/i.test(p))
    .slice(0, 200)
    .some((p) => declaresAppSet(c.workspace.file(p)?.text ?? ''));
}

/**
 * True when the folder holds another part of Argo CD's install (its Deployments, ConfigMaps, the
 * Operator's ArgoCD): in another file, or in the params ConfigMap's own file beside it — a file is
 * applied whole, so a ConfigMap written in the same file as the controller's Deployment is deployed
 * with it (the Deployment's own flags count as deployed).
 */
function holdsInstallParts(c: Collector, dir: string, self: string): boolean {
  return c.files.some(
    (f) =>
      dirname(f.path) === dir &&
      f.docs.some((d) => {
        const kind = own(d.value, 'kind');
        const name = resourceName(d.value);
        if (f.path === self && kind === 'ConfigMap' && name === CM_NAME) return false;
        return (
          kind === 'ArgoCD' || ((kind === 'Deployment' || kind === 'StatefulSet' || kind === 'ConfigMap') && name.startsWith('argocd-'))
        );
      }),
  );
}

/** Reads one file's documents, once per scan (a chart's values are also reached from its Chart.yaml). */
function scanFile(c: Collector, file: IndexedFile) {
  if (c.scanned.has(file.path)) return;
  c.scanned.add(file.path);
  const sel = c.selected.get(file.path);
  // A values file an install selects that cannot be read as values (binary, not YAML, an alias bomb):
  // what it sets is unknown, and so the install's verdict (Helm would not render it either).
  const bad = sel
    ? (file.unread[0]?.why ??
      (file.docs.length === 0 && /^[ \t]*[^#\s]/m.test(file.text)
        ? file.text.includes('\0')
          ? 'it is not a text file'
          : 'it does not parse as YAML'
        : undefined))
    : undefined;
  if (sel && bad) {
    const outer = c.current;
    c.current = { key: sel.key, namespace: sel.namespace };
    try {
      c.unread({ file, docIndex: 0, path: [], inner: false }, `${sel.who}: not read (${bad})`);
    } finally {
      c.current = outer;
    }
  }
  for (const d of file.docs) {
    if (!isObj(d.value)) continue;
    const site: Site = { file, docIndex: d.index, path: [], inner: false };
    if (!sel) {
      checkResource(c, site, d.value, 0);
      continue;
    }
    // A values file an install selects: that install's, under the chart's keys, at its merge position.
    const outer = { current: c.current, rank: c.rank };
    c.current = { key: sel.key, namespace: sel.namespace };
    c.rank = sel.chain ? { chain: sel.chain, rank: sel.rank } : undefined;
    try {
      scanValuesDoc(c, site, d.value, sel.keys);
    } finally {
      c.current = outer.current;
      c.rank = outer.rank;
    }
  }
}

/**
 * The values files the installs select (installers.ts), and the Flux HelmReleases' `valuesFrom`
 * sources found in the repository: a ConfigMap or Secret whose key holds the values, or a kustomize
 * `configMapGenerator`/`secretGenerator` whose `files:` entry is the values file.
 */
function selectValues(c: Collector, files: readonly IndexedFile[]) {
  for (const [dir, installers] of c.installers.charts) {
    const key = installOf(`${dir}/values.yaml`).key;
    const keys = chartKeys(c, dir);
    for (const inst of installers)
      inst.valueFiles.forEach((f, i) => {
        if (f.path)
          c.selected.set(f.path, {
            key,
            namespace: inst.namespace,
            keys,
            chain: installers.length === 1 ? key : undefined,
            rank: i + 1,
            who: `${inst.label} helm.valueFiles ${f.written}`,
          });
      });
  }
  for (const [appKey, r] of c.installers.refs)
    r.valueFiles.forEach((f, i) => {
      if (f.path)
        c.selected.set(f.path, {
          key: appKey,
          keys: [[]],
          chain: appKey,
          rank: i + 1,
          who: `Application ${r.name} helm.valueFiles ${f.written}`,
        });
    });
  selectHelmChartValues(sinkOf(c), files);
  selectTerraformValues(sinkOf(c), (c.terraform = terraformReleases(c.workspace)));
  // Flux HelmReleases of argo-cd and their valuesFrom sources.
  for (const file of files)
    for (const d of file.docs) {
      const v = d.value;
      const spec = own(v, 'spec');
      if (own(v, 'kind') !== 'HelmRelease' || !fluxArgoChart(v, c.fluxSources())) continue;
      const name = resourceName(v);
      const ns = scalarText(own(own(v, 'metadata'), 'namespace'));
      const key = installOf(file.path).key;
      const from = own(spec, 'valuesFrom');
      if (!Array.isArray(from)) continue;
      from.slice(0, 50).forEach((ref, i) => {
        const kind = String(own(ref, 'kind') ?? 'ConfigMap');
        const refName = scalarText(own(ref, 'name'));
        const valuesKey = scalarText(own(ref, 'valuesKey')) ?? 'values.yaml';
        if (!refName || own(ref, 'targetPath') !== undefined) return;
        const found =
          valuesSource(c, files, kind, refName, valuesKey, ns) ??
          valuesSource(c, valuesFromCandidates(c.workspace, file.path), kind, refName, valuesKey, ns);
        if (!found) return;
        c.selectedFrom.add(`${file.path}#${name}#${i}`);
        const who = `HelmRelease ${name} valuesFrom ${kind} ${refName} (${valuesKey})`;
        const chain = `${key}#${name}`;
        if ('file' in found) {
          c.selected.set(found.file.path, { key, namespace: ns, keys: [[]], chain, rank: i + 1, who });
          return;
        }
        // A key of a ConfigMap/Secret in a manifest: its text is the values document.
        const outer = { current: c.current, rank: c.rank };
        c.current = { key, namespace: ns };
        c.rank = { chain, rank: i + 1 };
        try {
          for (const doc of parseInline(found.text, 1)) if (isObj(doc)) checkHelmValues(c, { ...found.site, inner: true }, doc, who);
        } finally {
          c.current = outer.current;
          c.rank = outer.rank;
        }
      });
    }
}

/** The sink through which the readers of single install forms (helmCharts.ts, terraform.ts) report (install/sink.ts). */
function sinkOf(c: Collector): FormSink {
  const within = (at: Placement, read: () => void) => {
    const outer = { current: c.current, rank: c.rank, slot: c.slot };
    c.current = { key: at.key, namespace: at.namespace };
    c.rank = at.chain !== undefined && at.rank !== undefined ? { chain: at.chain, rank: at.rank } : undefined;
    try {
      read();
    } finally {
      c.current = outer.current;
      c.rank = outer.rank;
      c.slot = outer.slot;
    }
  };
  return {
    workspace: c.workspace,
    select: (path, at, who) =>
      c.selected.set(path, { key: at.key, namespace: at.namespace, keys: [[]], chain: at.chain, rank: at.rank, who }),
    skip: (path) => c.scanned.add(path),
    install: (site, at) => within(at, () => c.instanceKey(site)),
    values: (site, at, v, who, known) => within(at, () => isObj(v) && checkHelmValues(c, site, v, who, known)),
    param: (site, at, key, value, who) => within(at, () => checkParam(c, site, key, value, who)),
    arg: (site, at, value, who) =>
      within(at, () => {
        c.slot = 'extraArgs';
        checkArg(c, site, value, who);
      }),
    unread: (site, at, description) => within(at, () => c.unread(site, description)),
    ignored: (site, at, description) => within(at, () => c.add(site, undefined, 'ignored', description)),
    target: (site, at, path) => within(at, () => c.target('helm-values', site, path)),
    parse: (text) => parseInline(text, 1),
  };
}

/** Where a HelmRelease's valuesFrom reference is defined in the repository. */
function valuesSource(
  c: Collector,
  files: readonly IndexedFile[],
  kind: string,
  name: string,
  key: string,
  namespace: string | undefined,
): { file: IndexedFile } | { text: string; site: Site } | undefined {
  for (const file of files)
    for (const d of file.docs) {
      const v = d.value;
      const site: Site = { file, docIndex: d.index, path: [], inner: false };
      if (own(v, 'kind') === kind && resourceName(v) === name) {
        const ns = scalarText(own(own(v, 'metadata'), 'namespace'));
        if (namespace && ns && ns !== namespace) continue;
        const data = scalarText(own(own(v, 'data'), key));
        const stringData = scalarText(own(own(v, 'stringData'), key));
        if (kind === 'ConfigMap' && data !== undefined) return { text: data, site: at(site, 'data', key) };
        if (kind === 'Secret' && stringData !== undefined) return { text: stringData, site: at(site, 'stringData', key) };
        if (kind === 'Secret' && data !== undefined) {
          const text = decodeBase64(data);
          if (text !== undefined) return { text, site: at(site, 'data', key) };
        }
      }
      // kustomize generators: `files: [values.yaml=argocd-values.yaml]` or `files: [values.yaml]`.
      const gens = own(v, kind === 'Secret' ? 'secretGenerator' : 'configMapGenerator');
      if (!Array.isArray(gens) || !/(^|\/)kustomization\.ya?ml$/i.test(file.path)) continue;
      for (const g of gens) {
        if (own(g, 'name') !== name) continue;
        const entries = own(g, 'files');
        for (const e of Array.isArray(entries) ? entries : []) {
          const { key: k, path: p } = fileEntry(typeof e === 'string' ? e : '');
          const abs = p ? joinPath(dirname(file.path), p) : undefined;
          const target = k === key && abs ? c.workspace.file(abs) : undefined;
          if (target) return { file: target };
        }
      }
    }
  return undefined;
}

/** A kustomize generator `files:` entry: `key=path`, or `path` whose key is its base name (kustomize api/kv). */
function fileEntry(e: string): { key: string; path: string } {
  const eq = e.indexOf('=');
  const path = eq >= 0 ? e.slice(eq + 1) : e;
  return { key: eq >= 0 ? e.slice(0, eq) : path.slice(path.lastIndexOf('/') + 1), path };
}

function decodeBase64(s: string): string | undefined {
  const t = s.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(t) || t.length > MAX_INLINE_YAML) return undefined;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(t), (ch) => ch.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/**
 * Helm merges values files in order, so of one install's chain only the last place that sets a key
 * counts: the earlier ones are kept as evidence, marked overridden (and their settings dropped).
 */
function applyOverrides(c: Collector) {
  const last = new Map<string, { rank: number; who: string }>();
  const items: (Ordered & { file: string })[] = [...c.evidence.filter((e) => e.effect !== 'ignored'), ...c.settings];
  for (const e of items as (Ordered & { file: string; description?: string })[]) {
    if (e.chain === undefined || e.rank === undefined) continue;
    const k = `${e.chain}|${e.slot}`;
    const best = last.get(k);
    if (!best || e.rank > best.rank) last.set(k, { rank: e.rank, who: e.file });
  }
  const overridden = (e: Ordered) => {
    if (e.chain === undefined || e.rank === undefined) return undefined;
    const best = last.get(`${e.chain}|${e.slot}`);
    return best && best.rank > e.rank ? best.who : undefined;
  };
  for (const e of c.evidence) {
    const by = e.effect === 'ignored' ? undefined : overridden(e as Ordered);
    if (by === undefined) continue;
    e.effect = 'ignored';
    delete e.level;
    delete e.enableText;
    e.description += `, but Helm reads ${relativePath(c.roots, by)} after it, which sets it again (the later values win)`;
  }
  c.settings = c.settings.filter((s) => overridden(s as Ordered) === undefined);
}

export interface WorkspaceScan {
  evidence: DetailedEvidence[];
  /** The other controller settings the engine models (git file globbing, policy, SCM providers, namespaces). */
  settings: SettingEvidence[];
  targets: ConfigTarget[];
  instances: Instance[];
  /** Folders an Application's or Flux Kustomization's path deploys (installers.ts). */
  deployed: Installers['deployed'];
  /** Namespaces that hold Argo CD Applications of the repository, each with the first file that does. */
  appNamespaces: { namespace: string; file: string }[];
  /** Installs whose controller settings reached the model's bound: their settings are not all known. */
  settingsTruncated: string[];
  /**
   * Bounds the workspace listing reached (YAML files, folder entries, depth, Terraform files), one
   * sentence each: files never read, any of which may install or configure Argo CD, so an answer
   * about the configuration is unknown (install/completeness.ts).
   */
  listingCaps?: string[];
}

/**
 * Scans the workspace's YAML files that may hold Argo CD configuration (see `ARGOCD_CONFIG`).
 * `provisional`: from the files read so far while the language server reads the workspace
 * (`WorkspaceIndex.matchingProvisional`), for consumers whose answer has a safe default.
 */
export function scanWorkspace(workspace: WorkspaceIndex, roots: readonly string[] = [], provisional = false): WorkspaceScan {
  const c = new Collector(workspace);
  c.roots = roots;
  const files = provisional ? workspace.matchingProvisional(ARGOCD_CONFIG) : workspace.matching(ARGOCD_CONFIG);
  c.files = files;
  c.installers = findInstallers(files, workspace, roots);
  selectValues(c, files);
  for (const file of files) scanFile(c, file);
  checkTerraform(sinkOf(c), c.terraform ?? []);
  // Selected values files that name no setting yet are still where the fix writes.
  for (const path of c.selected.keys()) {
    const f = workspace.file(path);
    if (f) scanFile(c, f);
  }
  // A remote base is only Argo CD's configuration when its kustomization is an install: one the model
  // already knows, or one named or namespaced like Argo CD (`argocd/`, `namespace: argocd`).
  for (const r of c.remoteBases) {
    const dir = dirname(r.site.file.path);
    const ns = c.kustomizeNamespaces.get(dir) ?? '';
    if (!c.instances.has(r.key) && !/argo-?cd|gitops/i.test(dir.slice(dir.lastIndexOf('/') + 1)) && !/argo-?cd|gitops/i.test(ns)) continue;
    c.evidence.push({
      file: r.site.file.path,
      description:
        r.what ??
        `not read: remote base ${r.ref} (kustomize fetches it when it builds; it cannot be read offline and may configure the ApplicationSet controller)`,
      effect: 'ignored',
      site: r.site,
      instance: c.instanceKey(r.site),
      unread: true,
    });
  }
  // An install whose entries reached the bound: its answers are unknown, and say why.
  for (const [key, t] of c.truncated)
    c.evidence.push({
      file: t.site.file.path,
      description: `not read: ${t.what}`,
      effect: 'ignored',
      instance: key,
      unread: true,
    });
  applyOverrides(c);
  // The fix writes in the values Helm reads last (highest rank first; the sort is stable).
  c.targets.sort((a, b) => (b.rank ?? -1) - (a.rank ?? -1));
  resolveSpans(c.evidence);
  resolveSpans(c.settings);
  for (const inst of c.instances.values()) {
    if (!inst.key.startsWith('app:')) {
      inst.name = relativePath(roots, inst.key);
      inst.namespace ??= c.kustomizeNamespaces.get(inst.key) ?? inst.bases.map((b) => c.kustomizeNamespaces.get(b)).find(Boolean);
    } else
      inst.name = `Application ${inst.key.slice(inst.key.lastIndexOf('#') + 1)} (${relativePath(roots, inst.key.slice(4, inst.key.lastIndexOf('#')))})`;
  }
  looseInstances(c);
  // Bases referenced by an overlay exist as installs even when they hold no evidence of their own.
  for (const inst of [...c.instances.values()]) {
    for (const b of inst.bases)
      if (!c.instances.has(b))
        c.instances.set(b, { key: b, name: relativePath(roots, b), scope: installOf(b + '/x').scope, watched: [], bases: [] });
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const evidence = c.evidence.map(({ site, chain, rank, slot, ...e }) => {
    if (site && e.span) e.where = `${relativePath(roots, e.file)}:${lineOf(site.file.text, e.span.start)}`;
    return e;
  });
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const settings = c.settings.map(({ site, chain, rank, slot, ...e }) => {
    if (site && e.span) e.where = `${relativePath(roots, e.file)}:${lineOf(site.file.text, e.span.start)}`;
    return e;
  });
  return {
    evidence,
    settings,
    targets: c.targets,
    instances: [...c.instances.values()],
    deployed: c.installers.deployed,
    appNamespaces: [...c.appNamespaces].map(([namespace, file]) => ({ namespace, file })),
    settingsTruncated: [...c.settingsTruncated],
    // Only once the listing is complete: a provisional scan's consumers have a safe default of their own.
    ...(provisional ? {} : { listingCaps: workspace.listingCaps() }),
  };
}

/**
 * Installs defined only by params ConfigMaps that nothing in the repository deploys, in folders that hold
 * no other part of Argo CD (a copy kept for reference, a snippet): "applied by hand, if at all". Such a
 * folder is the install's configuration when the repository holds no other install; beside a real one it
 * must not make ApplicationSets ambiguous (install/instances.ts leaves it out of the candidates then).
 */
function looseInstances(c: Collector) {
  const files = new Map<string, Set<string>>();
  const note = (instance: string | undefined, file: string) => {
    if (instance) files.set(instance, (files.get(instance) ?? new Set()).add(file));
  };
  for (const e of c.evidence) note(e.instance, e.file);
  for (const s of c.settings) note(s.instance, s.file);
  for (const t of c.targets) note(t.instance, t.file);
  for (const inst of c.instances.values()) {
    const own = files.get(inst.key);
    if (inst.key.startsWith('app:') || !own?.size || [...own].some((f) => !c.byHand.has(f))) continue;
    inst.loose = `${[...own].map((f) => relativePath(c.roots, f)).join(', ')}: a ${CM_NAME} that nothing in the repository deploys, with no other part of Argo CD beside it`;
  }
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Re-parses the files that hold evidence to find precise spans (rare, so not cached further). */
function resolveSpans(evidence: { site?: Site; span?: Span; valueSpan?: Span; enableText?: string }[]) {
  const parsed = new Map<string, YamlDocument[]>();
  for (const e of evidence) {
    const site = e.site;
    if (!site) continue;
    if (site.span) {
      // Not YAML (a Terraform file): the reader gave the span.
      e.span = site.span;
      delete e.enableText;
      continue;
    }
    let docs = parsed.get(site.file.path);
    if (!docs) {
      docs = parseDocuments(site.file.text);
      parsed.set(site.file.path, Array.isArray(docs) ? docs : []);
    }
    const doc = docs[site.docIndex];
    if (!doc) continue;
    const n = nodeAt(doc, site.path);
    const span = n.value ?? n.key;
    if (span) e.span = span;
    if (n.exact && !site.inner && n.value && n.ast?.kind === 'scalar') e.valueSpan = n.value;
    else delete e.enableText;
  }
}

/** Combines evidence into a state: flag > env > ConfigMap; within a level any enabling evidence wins. */
export function decide(evidence: DetailedEvidence[]): 'enabled' | 'disabled' | 'not-found' {
  for (const level of ['flag', 'env', 'configmap'] as const) {
    const at = evidence.filter((e) => e.level === level && e.effect !== 'ignored');
    if (at.some((e) => e.effect === 'enables')) return 'enabled';
    if (at.length) return 'disabled';
  }
  return 'not-found';
}

/** The evidence that decided a state (the first at the deciding level). */
export function firstDeciding(evidence: DetailedEvidence[], state: 'enabled' | 'disabled' | 'not-found'): DetailedEvidence | undefined {
  if (state === 'not-found') return undefined;
  for (const level of ['flag', 'env', 'configmap'] as const) {
    const e = evidence.find((x) => x.level === level && x.effect === (state === 'enabled' ? 'enables' : 'disables'));
    if (e) return e;
  }
  return undefined;
}
