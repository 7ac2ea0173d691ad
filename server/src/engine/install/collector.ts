/**
 * The one collector of the install scan (scan.ts): what every format reader (scanKustomize.ts,
 * scanHelmValues.ts, scanApplications.ts, scanFlux.ts, scanOperator.ts, scanManifests.ts) finds goes
 * here — evidence, controller settings, fix targets, installs — each entry counted against the bounds.
 *
 * Which install a reading belongs to, its rank in Helm's merge order and the Helm key it sits under are
 * not state of the collector: each reader receives them as a `Place` value and hands its callees a new
 * one, so nothing is set and restored around a call.
 */
import type { Json } from '../types';
import type { IndexedFile, WorkspaceIndex } from '../workspace/index';
import { ARGOCD_INSTALL } from '../workspace/interests';
import { documentValues, type JsonPath, yamlLimitMessage } from '../yaml';
import { fluxSources } from '../versions/detect';
import type { FluxSourceLookup } from '../versions/fluxChart';
import { installOf, type Instance } from './instances';
import { findInstallers, type Installers } from './installers';
import { relativePath } from '../paths';
import { own } from '../objects';
import type { terraformReleases } from './terraform';
import type { FormSite } from './sink';
import type { ConfigTarget, ConfigTargetKind, ControllerSettingName, DetailedEvidence, EvidenceLevel, SettingEvidence } from './evidence';
import type { EnablementEvidence } from '@appset-tools/protocol';

/** Bounds on what a single detection looks at (hostile workspaces). */
const MAX_EVIDENCE = 200;
export const MAX_INLINE_YAML = 256 * 1024;

export type Obj = { [key: string]: Json };
export const scalarText = (v: Json | undefined): string | undefined =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

/** Where a finding sits: a YAML path in a document of a file, or inside a string scalar there (`inner`). */
export type Site = FormSite;

export const at = (s: Site, ...p: JsonPath): Site => ({ ...s, path: [...s.path, ...p] });

/**
 * What is being read: the install it belongs to (none: the install of the file's folder; an Argo CD
 * Application names its own), its rank in Helm's merge order (later ranks of one chain override earlier
 * ones, see overrides.ts) and the Helm key it sits under (`params.<key>`, `extraArgs`, …).
 */
export interface Place {
  readonly install?: { readonly key: string; readonly namespace?: string };
  readonly rank?: { readonly chain: string; readonly rank: number };
  readonly slot?: string;
}

/** The place of a file read on its own: its folder's install, no merge order. */
export const TOP: Place = {};

/** Internal: where a value sits in Helm's merge order (one chain per install). */
export interface Ordered {
  chain?: string;
  rank?: number;
  slot?: string;
}

/** A values file read as one install's: under which install, keys, and merge position. */
export interface Selection {
  key: string;
  namespace?: string;
  /** Where the argo-cd chart reads in it (`[]`, `['argo-cd']`, `['argo']`). */
  keys: string[][];
  chain?: string;
  rank: number;
  who: string;
}

/** The readers that read a resource or a file anew (a kustomize patch is a resource; a Chart.yaml leads to its values). */
export interface Rereaders {
  resource(c: Collector, place: Place, site: Site, v: Json, depth: number): void;
  file(c: Collector, file: IndexedFile, place: Place): void;
}

export class Collector {
  constructor(
    /** Kustomize patch files referenced by path are read through the workspace index. */
    readonly workspace: WorkspaceIndex,
    /** Workspace roots (an Application's `path:` is relative to its repository's root). */
    readonly roots: readonly string[],
    /** The configuration files being scanned (never re-asked of the index while it is read). */
    readonly files: readonly IndexedFile[],
    readonly reread: Rereaders,
  ) {
    this.installers = findInstallers(files, workspace, roots);
  }
  evidence: (DetailedEvidence & { site?: Site } & Ordered)[] = [];
  settings: (SettingEvidence & Ordered)[] = [];
  targets: ConfigTarget[] = [];
  /** Files already read (a chart's values are reached from its Chart.yaml too). */
  scanned = new Set<string>();
  instances = new Map<string, Instance>();
  /** `namespace:` of each kustomization folder. */
  kustomizeNamespaces = new Map<string, string>();
  /** What installs the charts and deploys the folders (installers.ts), read before the configuration. */
  readonly installers: Installers;
  /** Values files an installing Application or HelmRelease selects: read as that install's, in its order. */
  selected = new Map<string, Selection>();
  /** Remote bases of kustomizations, said as "not read" only for kustomizations that are Argo CD installs. */
  remoteBases: { site: Site; ref: string; key: string; what?: string }[] = [];
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

  /** The install a place's reading belongs to: the one it names, else its file's folder's. */
  installKey(place: Place, site: Site): string {
    return place.install?.key ?? installOf(site.file.path).key;
  }

  private instanceOf(place: Place, site: Site): Instance {
    const key = this.installKey(place, site);
    let inst = this.instances.get(key);
    if (!inst) {
      const app = key.startsWith('app:');
      const where = app ? undefined : installOf(site.file.path);
      inst = { key, name: key, scope: app ? '' : where!.scope, watched: [], bases: where?.base ? [where.base] : [] };
      this.instances.set(key, inst);
    }
    if (!inst.namespace && place.install?.namespace) inst.namespace = place.install.namespace;
    return inst;
  }

  /** The install exists (whatever it sets): its key. */
  instanceKey(place: Place, site: Site): string {
    return this.instanceOf(place, site).key;
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

  add(
    place: Place,
    site: Site,
    level: EvidenceLevel | undefined,
    effect: EnablementEvidence['effect'],
    description: string,
    enableText?: string,
  ) {
    const inst = this.instanceOf(place, site);
    if (this.full(site, inst.key, effect === 'ignored' ? 1 : 0)) return;
    this.evidence.push({ file: site.file.path, description, effect, level, site, enableText, instance: inst.key, ...order(place) });
  }

  private readonly unreadAt = new Set<string>();

  /** Configuration of the install being read that exists but was not read: the install's answers are unknown. */
  unread(place: Place, site: Site, description: string) {
    const inst = this.instanceOf(place, site);
    // Once per install: the same source reached twice (two overlays of one base) is one note.
    const key = `${inst.key}\0${description}`;
    if (this.unreadAt.has(key)) return;
    this.unreadAt.add(key);
    this.evidence.push({ file: site.file.path, description, effect: 'ignored', site, instance: inst.key, unread: true });
  }

  target(place: Place, kind: ConfigTargetKind, site: Site, path?: JsonPath) {
    if (!site.inner && !this.targets.some((t) => t.file === site.file.path && t.docIndex === site.docIndex)) {
      this.targets.push({
        kind,
        file: site.file.path,
        docIndex: site.docIndex,
        instance: this.instanceOf(place, site).key,
        ...(path ? { path } : {}),
        ...(place.rank ? { rank: place.rank.rank } : {}),
      });
    }
  }

  setting(place: Place, site: Site, setting: ControllerSettingName, level: EvidenceLevel, value: string) {
    const key = this.instanceOf(place, site).key;
    if (this.full(site, key, 2)) return;
    this.settings.push({ setting, value, level, file: site.file.path, site, instance: key, ...order(place) });
    if (setting === 'namespaces') this.watch(place, site, value);
  }

  private watch(place: Place, site: Site, value: Json | undefined) {
    const list = scalarText(value);
    if (list)
      this.instanceOf(place, site).watched.push(
        ...list
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      );
  }
}

/** The merge position of what is being read (see overrides.ts): only with a rank and a Helm key. */
const order = (place: Place): Ordered =>
  place.rank && place.slot ? { chain: place.rank.chain, rank: place.rank.rank, slot: place.slot } : {};

/**
 * The first `max` entries of a list the model reads (a bound against hostile files). When an entry past
 * the bound could configure the controller (`relevant`), the install's answers become unknown: said as
 * "not read", with the bound, never silently dropped (install/completeness.ts).
 */
export function bounded<T>(
  c: Collector,
  place: Place,
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
    if (kustomization) c.remoteBases.push({ site, ref: what, key: c.installKey(place, site), what: description });
    else c.unread(place, site, description);
  }
  return list.slice(0, max);
}

/** A YAML text held in a string (inline values, an inline patch), bounded in size and nesting. */
export function parseInline(text: string, depth: number): Json[] {
  if (text.length > MAX_INLINE_YAML || depth > 2 || yamlLimitMessage(text)) return [];
  try {
    return documentValues(text) as Json[];
  } catch {
    return [];
  }
}

export function resourceName(v: Json): string {
  const n = own(own(v, 'metadata'), 'name');
  return typeof n === 'string' ? n : '';
}
