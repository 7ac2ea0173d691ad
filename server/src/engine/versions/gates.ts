/**
 * The controller behaviours that changed between supported Argo CD releases, each with the release
 * line where the new behaviour starts and the upstream change it comes from (the first tag of
 * argoproj/argo-cd containing the master commit; patch releases of older lines may have had it
 * backported). One home for every version comparison: code asks `since(target, 'gate')`.
 * README's table of differences is checked against this list by a unit test.
 */
import { atLeast, RELEASES, type ReleaseLine } from './releases';
import type { TemplateLibraries } from '../../gotemplate';

export interface Gate {
  since: ReleaseLine;
  /** What differs, in the README's words. */
  what: string;
  /** Upstream source of the behaviour (argoproj/argo-cd). */
  source: string;
}

export const GATES = {
  argoTemplateFunctions: {
    since: '2.10',
    what: '`toYaml`, `fromYaml`, `fromYamlArray` and `slugify` exist; before, a template using them fails to parse ("function not defined")',
    source: 'applicationset/utils/utils.go (PRs #15063, #15188)',
  },
  sprig330: {
    since: '2.13',
    what: 'sprig v3.3.0: `sha512sum` exists; before, sprig v3.2.3 has no such function',
    source: 'go.mod (Masterminds/sprig/v3)',
  },
  camelcasePascal: {
    since: '2.13',
    what: '`camelcase` is xstrings v1.5.0 ToPascalCase (`fooBar` → `FooBar`, `HTTP_SERVER` → `HttpServer`); before, xstrings v1.3.3 ToCamelCase lower-cases every letter not after `_`, `-` or a space (`fooBar` → `Foobar`)',
    source: 'go.mod (Masterminds/sprig/v3, huandu/xstrings)',
  },
  goElseWith: {
    since: '2.13',
    what: 'built with Go 1.23+: `{{else with …}}` parses; before, it fails to parse (`unexpected <with> in else`)',
    source: 'Dockerfile (golang image)',
  },
  semverLessThanEqual: {
    since: '2.13',
    what: "semver v3.3.0+: a `semver` value has `.LessThanEqual` and `.GreaterThanEqual`; before (v3.2.1), calling them fails (`can't evaluate field`)",
    source: 'go.mod (Masterminds/semver/v3)',
  },
  clusterProjectParam: {
    since: '2.14',
    what: 'the cluster generator sets the `project` parameter (the cluster Secret\'s project, "" for in-cluster); before, `project` is not a parameter',
    source: 'applicationset/generators/cluster.go (PR #20338)',
  },
  goRangeInt: {
    since: '2.14',
    what: "built with Go 1.24+: `{{range 3}}` (an integer) iterates 0, 1, 2; before, it fails (`range can't iterate over 3`); 2.14.0–2.14.13 were built with Go 1.23 and behave as before",
    source: 'Dockerfile (golang image)',
  },
  semverStrict: {
    since: '2.14',
    what: 'semver v3.3.1 (2.14–3.1): `semver`/`semverCompare` reject leading zeros (`01.2.3`, `1.2.3-01` are "Invalid Semantic Version"); v3.2.1/v3.3.0 before and v3.4.0 from 3.2 accept `01.2.3` as 1.2.3',
    source: 'go.mod (Masterminds/semver/v3)',
  },
  nestedSelectorsAlways: {
    since: '3.0',
    what: 'selectors of generators inside a nested matrix/merge always apply and `applyNestedSelectors` is ignored; before, they are dropped unless `spec.applyNestedSelectors: true`',
    source: 'applicationset/generators/matrix.go, merge.go (PR #21492)',
  },
  gitFilesEmptyArray: {
    since: '3.2',
    what: 'a git files generator file holding an empty list `[]` yields no parameter sets; before, it yields one set with only the path parameters',
    source: 'applicationset/generators/git.go (PR #23513)',
  },
  semverGroupPrerelease: {
    since: '3.2',
    what: 'semver v3.4.0: a prerelease version satisfies an AND group in which any constraint names a prerelease (`>=1.0.0-0, <2.0.0` admits `1.5.0-rc1`), also for `!=`; before, only a constraint that itself names one (and a plain `!=` admits any prerelease); semver errors are lower-case (before: `Invalid Semantic Version`)',
    source: 'go.mod (Masterminds/semver/v3)',
  },
  templateNameBase: {
    since: '3.3',
    what: 'template errors name the template `base` (`template: base:1:2: executing "base" at …`); before, the name is empty (`template: :1:2: executing "" at …`)',
    source: 'applicationset/utils/utils.go (PR #25576)',
  },
  postSelectorStringMaps: {
    since: '3.4',
    what: 'in goTemplate mode a post-selector sees cluster labels/annotations and `values` as `metadata.labels.<key>` …; before, those maps are one opaque value and selectors on their keys match nothing',
    source: 'applicationset/generators/generator_spec_processor.go (PR #26717)',
  },
  emptyNameRejected: {
    since: 'master',
    what: 'a generated Application with an empty `metadata.name` is reported by the ApplicationSet ("contains an application with no name") and skipped; before, its create fails at the API server ("resource name may not be empty")',
    source: 'applicationset/controllers/applicationset_controller.go (PR #28833)',
  },
  noStepsHalts: {
    since: 'master',
    what: 'RollingSync with `steps: []` (progressive syncs on) stops the reconcile with "No steps defined for rollout"; before, every Application syncs at once',
    source: 'applicationset/controllers/applicationset_controller.go (PR #27820)',
  },
} satisfies Record<string, Gate>;

export type GateId = keyof typeof GATES;

/** True when release line `target` has the behaviour of gate `id` (the newer behaviour). */
export function has(target: ReleaseLine, id: GateId): boolean {
  return atLeast(target, GATES[id].since);
}

/** The Go and library versions release line `target` was built with (schemas/argocd-versions.json). */
export function templateLibraries(target: ReleaseLine): TemplateLibraries {
  const libs = (RELEASES.find((r) => r.version === target) ?? RELEASES.at(-1)!).libraries;
  return {
    goMinor: Number(libs.go.split('.')[1]),
    semver: libs.semver as TemplateLibraries['semver'],
    xstrings: libs.xstrings as TemplateLibraries['xstrings'],
  };
}

/** How release line `target` renders templates: the functions it lacks, its root template name, its libraries. */
export function templateBehaviour(target: ReleaseLine): { missingFunctions: string[]; templateName: string; libraries: TemplateLibraries } {
  const missing: string[] = [];
  if (!has(target, 'argoTemplateFunctions')) missing.push('fromYaml', 'fromYamlArray', 'slugify', 'toYaml');
  if (!has(target, 'sprig330')) missing.push('sha512sum');
  return { missingFunctions: missing, templateName: has(target, 'templateNameBase') ? 'base' : '', libraries: templateLibraries(target) };
}
