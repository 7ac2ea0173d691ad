/**
 * The controller behaviours that changed between supported Argo CD releases, each with the release
 * (line, or patch release for a backport: `2.9.1`) where the new behaviour starts and the upstream
 * change it comes from. One home for every version comparison: code asks `has(target, 'gate')`.
 * This table is the data docs/versions.md's table of behaviours is generated from
 * (`node --import tsx scripts/versions-tables.ts`); a unit test checks that they agree. Fields
 * added by a release are the other half of the gating (schemas/argocd-versions.json, fields.ts).
 */
import { atLeastVersion, RELEASES, splitVersion, type ReleaseLine, type ReleaseLibraries, type ReleaseVersion } from './releases';
import type { TemplateLibraries, TemplateReason } from '@appset-tools/gotemplate';

export interface Gate {
  /** The first release with the new behaviour: a line (`3.3`) or a patch release (`2.9.1`, `2.14.14`). */
  since: string;
  /** What differs, in the documentation's words. */
  what: string;
  /** Upstream source of the behaviour (argoproj/argo-cd): file and pull request. */
  source: string;
  /**
   * The upstream commit (argoproj/argo-cd, abbreviated): the one on the branch of `since` where
   * known (a backport's cherry-pick), else the master commit; for changes merged after the source
   * snapshot (master 37ee0097, 2026-08-22) the merged pull request's `refs/pull/N/merge` commit.
   */
  commit: string;
}

export const GATES = {
  argoYamlFunctions: {
    since: '2.9.1',
    what: '`toYaml`, `fromYaml` and `fromYamlArray` exist (backported into 2.9.1); before, a template using them fails to parse ("function not defined")',
    source: 'applicationset/utils/utils.go (PR #15063, cherry-picked to release-2.9 as #16289)',
    commit: 'b8efc8b1ab',
  },
  slugify: {
    since: '2.10',
    what: '`slugify` exists; before, a template using it fails to parse ("function not defined")',
    source: 'applicationset/utils/utils.go (PR #15188)',
    commit: 'ebb8649c4e',
  },
  sprig330: {
    since: '2.13',
    what: 'sprig v3.3.0: `sha512sum` exists; before, sprig v3.2.3 has no such function',
    source: 'go.mod (Masterminds/sprig/v3, PR #19737)',
    commit: '1f8add5907',
  },
  camelcasePascal: {
    since: '2.13',
    what: '`camelcase` is xstrings v1.5.0 ToPascalCase (`fooBar` → `FooBar`, `HTTP_SERVER` → `HttpServer`); before, xstrings v1.3.3 ToCamelCase lower-cases every letter not after `_`, `-` or a space (`fooBar` → `Foobar`)',
    source: 'go.mod (Masterminds/sprig/v3, huandu/xstrings, PR #19737)',
    commit: '1f8add5907',
  },
  goElseWith: {
    since: '2.13',
    what: 'built with Go 1.23+: `{{else with …}}` parses; before, it fails to parse (`unexpected <with> in else`)',
    source: 'Dockerfile (golang image, PR #19838)',
    commit: '44d56954b7',
  },
  semverLessThanEqual: {
    since: '2.13',
    what: "semver v3.3.0+: a `semver` value has `.LessThanEqual` and `.GreaterThanEqual`; before (v3.2.1), calling them fails (`can't evaluate field`)",
    source: 'go.mod (Masterminds/semver/v3, PR #19705)',
    commit: '40186209cd',
  },
  clusterProjectParam: {
    since: '2.14',
    what: 'the cluster generator sets the `project` parameter (the cluster Secret\'s project, "" for in-cluster); before, `project` is not a parameter',
    source: 'applicationset/generators/cluster.go (PR #20338)',
    commit: '27eebaa53c',
  },
  semverStrict: {
    since: '2.14',
    what: 'semver v3.3.1 (2.14–3.1): `semver`/`semverCompare` reject leading zeros (`01.2.3`, `1.2.3-01` are "Invalid Semantic Version"); v3.2.1/v3.3.0 before and v3.4.0 from 3.2 accept `01.2.3` as 1.2.3',
    source: 'go.mod (Masterminds/semver/v3, PR #20852)',
    commit: '29ac23827a',
  },
  goRangeInt: {
    since: '2.14.14',
    what: "built with Go 1.24+: `{{range 3}}` (an integer) iterates 0, 1, 2; before, it fails (`range can't iterate over 3`). 2.14.0–2.14.13 were built with Go 1.23",
    source: 'Dockerfile (golang image; release-2.14 PR #23294)',
    commit: '3c68b26d7a',
  },
  nestedSelectorsAlways: {
    since: '3.0',
    what: 'selectors of generators inside a nested matrix/merge always apply and `applyNestedSelectors` is ignored; before, they are dropped unless `spec.applyNestedSelectors: true`',
    source: 'applicationset/generators/matrix.go, merge.go (PR #21492)',
    commit: '5d147a3ae6',
  },
  gitFilesEmptyArray: {
    since: '3.2',
    what: 'a git files generator file holding an empty list `[]` yields no parameter sets; before, it yields one set with only the path parameters',
    source: 'applicationset/generators/git.go (PR #23513)',
    commit: '460111f7bc',
  },
  semverGroupPrerelease: {
    since: '3.2',
    what: 'semver v3.4.0: a prerelease version satisfies an AND group in which any constraint names a prerelease (`>=1.0.0-0, <2.0.0` admits `1.5.0-rc1`), also for `!=`; before, only a constraint that itself names one (and a plain `!=` admits any prerelease); semver errors are lower-case (before: `Invalid Semantic Version`)',
    source: 'go.mod (Masterminds/semver/v3, PR #23603)',
    commit: '0a0176f4fd',
  },
  deletionOrderFinalizerAdded: {
    since: '3.3',
    what: 'with `deletionOrder: Reverse` (progressive syncs on) the controller adds the `resources-finalizer.argocd.argoproj.io` finalizer to the ApplicationSet itself; in 3.2, without that finalizer in `metadata.finalizers`, deleting the ApplicationSet deletes its Applications all at once, not in reverse step order',
    source: 'applicationset/controllers/applicationset_controller.go (PR #25125)',
    commit: 'e5829757e7',
  },
  templateNameBase: {
    since: '3.3',
    what: 'template errors name the template `base` (`template: base:1:2: executing "base" at …`); before, the name is empty (`template: :1:2: executing "" at …`)',
    source: 'applicationset/utils/utils.go (PR #25576)',
    commit: '482440b131',
  },
  postSelectorStringMaps: {
    since: '3.4',
    what: 'in goTemplate mode a post-selector sees cluster labels/annotations and `values` as `metadata.labels.<key>` …; before, those maps are one opaque value and selectors on their keys match nothing',
    source: 'applicationset/generators/generator_spec_processor.go (PR #26717)',
    commit: '330077c5a8',
  },
  emptyNameRejected: {
    since: '3.6',
    what: 'a generated Application with an empty `metadata.name` is reported by the ApplicationSet ("contains an application with no name") and skipped; before, its create fails at the API server ("resource name may not be empty")',
    source: 'applicationset/controllers/applicationset_controller.go (PR #28833)',
    commit: '4891d4f474',
  },
  noStepsHalts: {
    since: '3.6',
    what: 'RollingSync with `steps: []` (progressive syncs on) stops the reconcile with "No steps defined for rollout"; before, every Application syncs at once',
    source: 'applicationset/controllers/applicationset_controller.go (PR #27820)',
    commit: '5899f89f74',
  },
  rollingSyncRefresh: {
    since: '3.6',
    what: 'RollingSync has a refresh gate: on a change to existing Applications (not for a new ApplicationSet) nothing progresses until at least `--refresh-grace-period-seconds` (default 30, a minimum) after the latest change, then, with no upper bound, until every Application has reconciled since it; once per change, not before each step; step membership and `maxUpdate` are unchanged',
    source: 'applicationset/progressivesync/progressive_sync.go (PR #27467)',
    commit: '4783ec4f97',
  },
  tplFunction: {
    since: '3.6',
    what: '`tpl` exists (Helm-like: renders a string as a template with the given data, at most 3 calls deep); before, a template using it fails to parse ("function not defined")',
    source: 'applicationset/utils/template_functions.go, utils.go (PR #26614)',
    commit: '0c1fbdd295',
  },
  ociGenerator: {
    since: '3.6',
    what: 'the `oci` generator (directories and files of an OCI artifact, as the git generator reads a repository), also inside matrix and merge; before, the field is unknown and dropped',
    source: 'applicationset/generators/oci.go, pkg/apis/application/v1alpha1/applicationset_types.go (PR #26121)',
    commit: 'aa5bd348be',
  },
} satisfies Record<string, Gate>;

export type GateId = keyof typeof GATES;

/** True when `target` (a release line, or a line and patch) has the behaviour of gate `id` (the newer behaviour). */
export function has(target: ReleaseLine | ReleaseVersion, id: GateId): boolean {
  return atLeastVersion(target, GATES[id].since);
}

/** The Go and library versions the release (and patch, when known) was built with (schemas/argocd-versions.json). */
export function releaseLibraries(target: ReleaseLine | ReleaseVersion): ReleaseLibraries {
  const { line, patch } = typeof target === 'string' ? { line: target, patch: undefined } : target;
  const r = RELEASES.find((x) => x.version === line) ?? RELEASES.at(-1)!;
  if (patch === undefined || !r.patches) return r.libraries;
  let libs = r.patches[0][1];
  for (const [first, l] of r.patches) if (patch >= first) libs = l;
  return libs;
}

/**
 * The template libraries as the renderer models them. semver before v3.2.1 (v3.1.1 and v3.2.0 in
 * 2.4–2.7; sprig v2's semver v1.5.0 in 2.5) is rendered as v3.2.1, the oldest modelled: their
 * differences are not modelled (docs/versions.md says so).
 */
export function templateLibraries(target: ReleaseLine | ReleaseVersion): TemplateLibraries {
  const libs = releaseLibraries(target);
  const semver = (['3.2.1', '3.3.0', '3.3.1', '3.4.0'] as const).find((v) => v === libs.semver) ?? '3.2.1';
  return {
    goMinor: Number(libs.go.split('.')[1]),
    semver,
    xstrings: libs.xstrings === '1.5.0' ? '1.5.0' : '1.3.3',
  };
}

/** The template functions each gate adds: a release before the gate lacks them. */
const GATED_FUNCTIONS: [GateId, string[]][] = [
  ['argoYamlFunctions', ['fromYaml', 'fromYamlArray', 'toYaml']],
  ['slugify', ['slugify']],
  ['sprig330', ['sha512sum']],
  ['tplFunction', ['tpl']],
];

/** The gate that added template function `name` (undefined when every release has it). */
export function functionGate(name: string): GateId | undefined {
  return GATED_FUNCTIONS.find(([, names]) => names.includes(name))?.[0];
}

/** How `target` renders templates: the functions it lacks, its root template name, its libraries. */
export function templateBehaviour(target: ReleaseLine | ReleaseVersion): Readonly<TemplateBehaviour> {
  // The same for every ApplicationSet of a release (each expansion asks): made once per line and patch,
  // and shared (never modified: the renderer only reads it).
  const { line, patch } = typeof target === 'string' ? { line: target, patch: undefined } : target;
  const key = `${line}/${patch ?? ''}`;
  let b = behaviours.get(key);
  if (!b) {
    const missing: string[] = [];
    for (const [gate, names] of GATED_FUNCTIONS) if (!has(target, gate)) missing.push(...names);
    b = {
      missingFunctions: missing.sort(),
      templateName: has(target, 'templateNameBase') ? 'base' : '',
      libraries: templateLibraries(target),
    };
    if (behaviours.size < 64) behaviours.set(key, b);
  }
  return b;
}

interface TemplateBehaviour {
  missingFunctions: readonly string[];
  templateName: string;
  libraries: TemplateLibraries;
}
const behaviours = new Map<string, TemplateBehaviour>();

/** `since` as people read it: `Argo CD 3.6`, `Argo CD 2.9.1`. */
export function sinceLabel(since: string): string {
  const [line, patch] = splitVersion(since);
  return line === 'master' ? 'Argo CD master' : `Argo CD ${line}${patch ? `.${patch}` : ''}`;
}

/**
 * When a template error is what the target release does and a newer one does not (a function it
 * lacks, its Go toolchain or semver library), the words that say so: which release has the other
 * behaviour and which version was assumed and why. Undefined for errors every release makes.
 */
export function versionCause(reason: TemplateReason | undefined, target: ReleaseVersion & { why: string }): string | undefined {
  const checked = `checked against ${target.why}`;
  const fn = reason?.kind === 'undefined-function' ? reason.name : undefined;
  const gate = fn ? functionGate(fn) : undefined;
  if (fn && gate && !has(target, gate)) return `"${fn}" exists since ${sinceLabel(GATES[gate].since)}; ${checked}`;
  if (reason?.kind === 'range-int' && !has(target, 'goRangeInt'))
    return `ranging over an integer needs Go 1.24, which builds ${sinceLabel(GATES.goRangeInt.since)} and newer; ${checked}`;
  if (reason?.kind === 'else-with' && !has(target, 'goElseWith'))
    return `{{else with}} needs Go 1.23, which builds ${sinceLabel(GATES.goElseWith.since)} and newer; ${checked}`;
  const field = reason?.kind === 'no-field' ? reason.field : undefined;
  if ((field === 'LessThanEqual' || field === 'GreaterThanEqual') && !has(target, 'semverLessThanEqual'))
    return `semver v3.3.0 of ${sinceLabel(GATES.semverLessThanEqual.since)} and newer has it; ${checked}`;
  if (reason?.kind === 'invalid-semver' && has(target, 'semverStrict') && !has(target, 'semverGroupPrerelease'))
    return `semver v3.3.1 of Argo CD 2.14–3.1 rejects leading zeros, ${sinceLabel(GATES.semverGroupPrerelease.since)} accepts them again; ${checked}`;
  return undefined;
}
