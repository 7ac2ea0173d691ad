/**
 * Our own documentation of every ApplicationSet field (the CRD carries none): what the field does,
 * its default, the values the controller understands and the trap people fall into. Shown on hover
 * and in completion items; `test/unit/field-docs.test.ts` walks every field path of the schema and of
 * the CRD and fails when one has no entry, so a new field cannot stay undocumented.
 *
 * Keys are field paths with list indexes dropped, shortened the way `canonicalPath` does: a generator
 * field starts at its kind (`clusters.selector`), an Application-template field at `template`
 * (`template.spec.project`). A path with no entry of its own takes the entry of its longest suffix
 * that has one (`pullRequest.github.tokenRef.secretName` → `tokenRef.secretName`), so fields shared by
 * several parents (label selectors, Secret references, Helm/Kustomize options under `source`,
 * `sources[]` and the hydrator's `drySource`) are written once.
 *
 * Behaviour comes from Argo CD's source (paths in argoproj/argo-cd): `pkg/apis/application/v1alpha1/
 * applicationset_types.go` and `types.go` (fields), `applicationset/` (generators, rendering, progressive
 * syncs); see also /work/shared/research/argocd-appset-semantics.md.
 */
import type { JsonPath } from '../yaml';

export interface FieldDoc {
  /** What it does, in a sentence or two. */
  doc: string;
  /** The default when the field is absent. */
  default?: string;
  /** The values the controller understands (when the CRD does not list them). */
  values?: string[];
  /** The mistake people make with it. */
  trap?: string;
}

type Entry = string | FieldDoc;

const SELECTOR_OPS = ['In', 'NotIn', 'Exists', 'DoesNotExist'];
const REQUEUE =
  'How often, in seconds, the controller runs this generator again to notice changes outside the cluster; `0` turns polling off.';

const DOCS: Record<string, Entry> = {
  // -- The resource ------------------------------------------------
  apiVersion: { doc: 'The API group and version of the resource.', values: ['argoproj.io/v1alpha1'] },
  kind: { doc: 'The resource kind.', values: ['ApplicationSet'] },
  metadata: 'The ApplicationSet object’s own name, namespace, labels and annotations (not those of the Applications it generates).',
  'metadata.name': 'The ApplicationSet’s name; the generated Applications are owned by it and deleted with it.',
  'metadata.namespace': {
    doc: 'Where the ApplicationSet lives. Generated Applications are always created in this namespace, whatever the template says.',
    trap: 'Outside the Argo CD namespace it needs the controller’s `--applicationset-namespaces` (apps in any namespace).',
  },
  'metadata.labels': 'Labels of the ApplicationSet itself; they are not copied to the generated Applications.',
  'metadata.annotations': 'Annotations of the ApplicationSet itself; they are not copied to the generated Applications.',
  'metadata.finalizers': 'Finalizers of the ApplicationSet itself (the controller adds one when `deletionOrder: Reverse` is in effect).',
  spec: 'What to generate: generators produce parameter sets, and the template turns each one into an Application.',

  // -- spec --------------------------------------------------------
  'spec.generators': {
    doc: 'The generators. Each entry runs on its own and their parameter sets are concatenated; each parameter set becomes one Application.',
    trap: 'Two entries that produce the same Application name make the whole ApplicationSet fail (duplicate names).',
  },
  'spec.template': {
    doc: 'The Application written once for every parameter set: `{{ }}` in its strings is filled from the parameters.',
    trap: '`metadata.namespace` is ignored: Applications are always created in the ApplicationSet’s namespace.',
  },
  'spec.templatePatch': {
    doc: 'A template string, rendered per Application, whose YAML or JSON result is merged into the generated Application (objects merge, lists are replaced). Use it for conditional or looped fields, which the YAML structure cannot hold.',
    trap: 'Needs `goTemplate: true` to be useful; it cannot change `spec.project`; a block scalar (`|`) keeps it a string.',
  },
  'spec.goTemplate': {
    doc: 'Renders templates with Go text/template and the Sprig functions instead of plain `{{param}}` substitution. It also changes the parameters’ shape: nested (`.path.basename`, `.metadata.labels.env`) and typed instead of flat strings.',
    default: 'false',
    values: ['true', 'false'],
    trap: 'Switching it changes every reference: `{{name}}` becomes `{{ .name }}`, `{{path[0]}}` becomes `{{ index .path.segments 0 }}`.',
  },
  'spec.goTemplateOptions': {
    doc: 'Options for Go templates. Only the `missingkey` option is understood; it decides what a reference to a missing parameter renders.',
    default: 'none (a missing parameter renders as `<no value>`)',
    values: ['missingkey=error', 'missingkey=zero', 'missingkey=default', 'missingkey=invalid'],
    trap: 'Add `["missingkey=error"]`: without it a misspelt parameter silently becomes `<no value>` in names and paths. Ignored unless `goTemplate: true`.',
  },
  'spec.syncPolicy': 'What the controller may do to the Applications it generated.',
  'spec.syncPolicy.applicationsSync': {
    doc: 'Limits the controller’s changes to generated Applications: `create-only` never updates or deletes, `create-update` never deletes, `create-delete` never updates, `sync` does all three.',
    default: 'the controller’s `--policy` (`sync` when it sets none)',
    trap: 'Ignored when the controller sets its own `--policy` without `--enable-policy-override`; with `create-only`/`create-delete` a RollingSync cannot trigger syncs of existing Applications.',
  },
  'spec.syncPolicy.preserveResourcesOnDeletion': {
    doc: 'When true, generated Applications get no resources finalizer, so deleting an Application (or the ApplicationSet) leaves its Kubernetes resources running.',
    default: 'false (deleting an Application deletes its resources)',
    trap: 'Without it, removing an element from a generator deletes that Application and everything it deployed.',
  },
  'spec.strategy': {
    doc: 'How changes reach the generated Applications: all at once (default) or step by step with RollingSync.',
    default: 'AllAtOnce',
    trap: 'Ignored, without any warning, unless the ApplicationSet controller runs with progressive syncs enabled.',
  },
  'spec.strategy.type': {
    doc: 'The strategy: `AllAtOnce` updates every Application together; `RollingSync` syncs them step by step.',
    default: 'AllAtOnce',
    values: ['AllAtOnce', 'RollingSync'],
    trap: 'Case-sensitive: any other value (`rollingSync`) silently behaves as AllAtOnce.',
  },
  'spec.strategy.rollingSync':
    'The steps of a RollingSync. Auto-sync is turned off on every generated Application; the controller syncs them itself, step by step.',
  'spec.strategy.rollingSync.steps': {
    doc: 'Ordered steps. A step starts when every Application of the previous steps is Healthy. An Application belongs to the first step whose expressions all match its labels.',
    trap: 'Applications no step selects are never synced by the rollout (they must be synced by hand). With no steps, Argo CD up to 3.5 syncs everything at once; the next release stops with an error and changes nothing.',
  },
  'spec.strategy.rollingSync.steps.matchExpressions': {
    doc: 'Which Applications this step syncs, by the labels of the generated Applications (`template.metadata.labels`); all expressions must match. Empty: every Application.',
    trap: 'They select Application labels, not cluster labels: copy the cluster label into `template.metadata.labels` to use it here.',
  },
  'spec.strategy.rollingSync.steps.matchExpressions.key': 'An Application label key (from the rendered `template.metadata.labels`).',
  'spec.strategy.rollingSync.steps.matchExpressions.operator': {
    doc: 'How the label value is compared with `values`.',
    values: ['In', 'NotIn'],
    trap: 'Only `In` and `NotIn` work here (case-sensitive); `Exists`/`DoesNotExist` never match an Application that has the label.',
  },
  'spec.strategy.rollingSync.steps.matchExpressions.values': 'The label values `In`/`NotIn` compare against.',
  'spec.strategy.rollingSync.steps.maxUpdate': {
    doc: 'How many Applications of this step may sync at the same time: an integer, or a percentage string like `"25%"` of the step’s Applications (rounded down, at least 1 unless `"0%"`). A new one starts as soon as one becomes Healthy.',
    default: 'unlimited (the whole step at once)',
    trap: '`0` means the step is never synced by the rollout; a quoted number like `"3"` is invalid and means 1.',
  },
  'spec.strategy.deletionOrder': {
    doc: 'When the ApplicationSet is deleted with RollingSync: `Reverse` deletes its Applications one at a time, last step first (each gone before the next); `AllAtOnce` deletes them together.',
    default: 'AllAtOnce',
    values: ['AllAtOnce', 'Reverse'],
    trap: 'Only applies when the ApplicationSet itself is deleted, and only while it carries the resources-finalizer.argocd.argoproj.io finalizer: the controller adds it when progressive syncs are on (Argo CD 3.3+); with them off, the reverse deletion still runs if metadata.finalizers has it (Argo CD 3.2+).',
  },
  'spec.preservedFields': 'Labels and annotations of generated Applications whose live values the controller keeps when it updates them.',
  'spec.preservedFields.annotations':
    'Annotation keys the controller keeps as they are on the live Application (e.g. set by hand or another tool).',
  'spec.preservedFields.labels': 'Label keys the controller keeps as they are on the live Application.',
  'spec.ignoreApplicationDifferences': {
    doc: 'Parts of the generated Applications the controller leaves alone when they were changed on the live object (e.g. a targetRevision changed by hand).',
    trap: 'Paths are of the whole Application (`/spec/source/targetRevision`); a change to another item of the same list still overwrites the list.',
  },
  'spec.ignoreApplicationDifferences.name': 'Only for the Application with this name; empty: every generated Application.',
  'spec.ignoreApplicationDifferences.jsonPointers':
    'JSON pointers into the Application to leave alone, e.g. `/spec/source/targetRevision`.',
  'spec.ignoreApplicationDifferences.jqPathExpressions': 'jq paths into the Application to leave alone, e.g. `.spec.source.helm.values`.',
  'spec.applyNestedSelectors': {
    doc: 'Deprecated. In Argo CD 2.x it made `selector`s of generators nested inside a matrix/merge apply.',
    default: 'false',
    trap: 'Ignored since Argo CD 3.0: nested selectors always apply.',
  },

  // -- Generators --------------------------------------------------
  'git.requeueAfterSeconds': { doc: REQUEUE, default: '180 (the controller’s requeue setting)' },
  'clusterDecisionResource.requeueAfterSeconds': { doc: REQUEUE, default: '180 (the controller’s requeue setting)' },
  'pullRequest.requeueAfterSeconds': { doc: REQUEUE, default: '1800 (30 minutes)' },
  'scmProvider.requeueAfterSeconds': { doc: REQUEUE, default: '1800 (30 minutes)' },
  'plugin.requeueAfterSeconds': { doc: REQUEUE, default: '1800 (30 minutes)' },
  template: {
    doc: 'A template for this generator’s Applications only, merged over `spec.template`: fields set here win, maps are merged, lists are replaced.',
    trap: 'A `false`, `0` or empty string here cannot override a value of spec.template; inside a matrix or merge only the top-level generator’s template is used.',
  },
  selector: {
    doc: 'Post-selector: keeps only the parameter sets whose parameters match (nested keys flattened with dots, e.g. `values.env`).',
    trap: 'It filters parameter sets after the generator ran; to choose clusters by their Secret labels use `clusters.selector`.',
  },
  matchLabels: 'Key/value pairs that must all be present (each is the same as an `In` expression with one value).',
  matchExpressions: 'Expressions that must all match.',
  'matchExpressions.key': 'The label (or parameter) key to test.',
  'matchExpressions.operator': {
    doc: 'How the key is tested.',
    values: SELECTOR_OPS,
    trap: 'Case-sensitive; `In`/`NotIn` need values, `Exists`/`DoesNotExist` take none.',
  },
  'matchExpressions.values': 'Values for `In` and `NotIn`.',
  'selector.matchLabels': 'Parameters that must have exactly these values (flattened keys such as `metadata.labels.env`, `values.tier`).',
  'selector.matchExpressions.key':
    'A parameter key, flattened with dots (`metadata.labels.env`, `values.tier`); list items are `key.0`, `key.1`.',

  list: 'One parameter set per element, written inline.',
  'list.elements': {
    doc: 'The elements: each object is one parameter set; its keys are the parameters.',
    trap: 'Without goTemplate every value must be a string (a number or a map fails the generator), except `values`, whose entries become `values.<key>`.',
  },
  'list.elementsYaml': {
    doc: 'A string holding a YAML list of more elements, added after `elements`; usually a template fed by a matrix sibling (`{{ .key.components | toJson }}`).',
    trap: 'Mostly useful with goTemplate inside a matrix; the string must be (or render to) a YAML list of objects.',
  },

  clusters: {
    doc: 'One parameter set per Argo CD cluster (cluster Secret with `argocd.argoproj.io/secret-type: cluster`): `name`, `nameNormalized`, `server`, `project`, `metadata.labels`, `metadata.annotations`.',
    trap: 'Without a selector it includes the local `in-cluster` entry, which has no labels.',
  },
  'clusters.selector': {
    doc: 'Which cluster Secrets are read, by their labels. Without it every cluster Secret is read and the local in-cluster entry is added.',
    trap: 'It is not a post-selector: it matches the Secrets’ labels before any parameter set exists.',
  },
  'clusters.selector.matchLabels': 'Labels the cluster Secret must have with exactly these values.',
  'clusters.selector.matchExpressions.key': 'A label key of the cluster Secret.',
  'clusters.values': {
    doc: 'Extra parameters added to every cluster’s parameter set as `values.<key>`; each value may use the cluster’s parameters (`{{name}}`).',
    trap: 'A value cannot use another value: `{{values.a}}` inside values stays unrendered.',
  },
  'clusters.flatList': {
    doc: 'When true, the generator yields a single parameter set whose `clusters` parameter lists every selected cluster, instead of one parameter set per cluster.',
    default: 'false',
    trap: 'Then `.name`/`.server` no longer exist; iterate `.clusters` (goTemplate).',
  },

  git: 'Parameter sets from a git repository: one per matching directory (`directories`) or per matching file (`files`, whose keys become parameters).',
  'git.repoURL': 'The repository to read. The controller needs credentials for it in Argo CD.',
  'git.revision': {
    doc: 'Branch, tag or commit to read (required; `HEAD` is the default branch).',
    trap: 'Changes land when the controller polls (every 3 minutes by default) unless a webhook is configured.',
  },
  'git.directories': {
    doc: 'Directory patterns: one parameter set per matching directory, with `path.path`, `path.basename`, `path.basenameNormalized`, `path.segments` (goTemplate) / `path[N]` (fasttemplate).',
    trap: '`*` does not cross `/` (`apps/*` matches one level; there is no `**`). Directories whose name starts with `.` are skipped unless the repo server includes hidden directories.',
  },
  'git.directories.path': 'A glob for directories, relative to the repository root.',
  'git.directories.exclude': {
    doc: 'When true, directories matching `path` are removed from the result, whatever order the entries have.',
    default: 'false',
  },
  'git.files': {
    doc: 'File patterns: each matching YAML/JSON file gives one parameter set (or one per item when the file holds a list); its keys become parameters, plus `path.*` for the file’s folder.',
    trap: 'The path parameters describe the file’s folder, not the file (`path.filename` has the name).',
  },
  'git.files.path': {
    doc: 'A glob for files, relative to the repository root.',
    trap: 'By default `*` also crosses `/`; with the controller’s new globbing `**` is needed for that.',
  },
  'git.files.exclude': { doc: 'When true, files matching `path` are removed from the result.', default: 'false' },
  'git.pathParamPrefix': {
    doc: 'Puts the path parameters under a prefix (`{{ .prefix.path.basename }}`), so two git generators in a matrix do not overwrite each other’s `path`.',
  },
  'git.values': 'Extra parameters added to every parameter set as `values.<key>`; each value may use this generator’s parameters.',
  'git.template': 'A template for this generator’s Applications only, merged over `spec.template`.',

  // The oci generator (Argo CD 3.6, PR #26121: OciGenerator in applicationset_types.go and
  // repo_path_utils.go / the repo server's GetOciDirectories, GetOciFiles at refs/pull/26121/merge).
  oci: {
    doc: 'Parameter sets from an OCI artifact, read as the git generator reads a repository: one per matching directory (`directories`) or per matching file (`files`). The preview reads a local folder mapped to `repoURL` (repoMappings, `--repo-map`).',
    trap: 'Argo CD 3.6 and newer: an older API server drops the whole generator.',
  },
  'oci.repoURL': 'The OCI repository (`oci://registry/org/name`). The controller needs credentials for it in Argo CD.',
  'oci.revision': 'The tag or digest of the artifact to read (required).',
  'oci.directories': {
    doc: 'Directory patterns: one parameter set per matching directory of the artifact, with `path.path`, `path.basename`, `path.basenameNormalized`, `path.segments` (goTemplate) / `path[N]` (fasttemplate).',
    trap: 'Every directory of the artifact counts, empty ones too (unlike git); those whose name starts with `.` are skipped unless the repo server includes hidden directories.',
  },
  'oci.directories.path': 'A Go `path.Match` glob for directories, relative to the artifact root (`*` does not cross `/`).',
  'oci.directories.exclude': {
    doc: 'When true, directories matching `path` are removed from the result, whatever order the entries have.',
    default: 'false',
  },
  'oci.files': {
    doc: 'File patterns: each matching YAML/JSON file of the artifact gives one parameter set (or one per item when it holds a list); its keys become parameters, plus `path.*` for the file’s folder.',
  },
  'oci.files.path': {
    doc: 'A doublestar glob for files, relative to the artifact root; `""` or `.` means every file.',
    trap: '`*` does not cross `/`; use `**` for that. Matching directories are skipped.',
  },
  'oci.files.exclude': { doc: 'When true, files matching `path` are removed from the result.', default: 'false' },
  'oci.pathParamPrefix': 'Puts the path parameters under a prefix (`{{ .prefix.path.basename }}`), as for the git generator.',
  'oci.values': 'Extra parameters added to every parameter set as `values.<key>`; each value may use this generator’s parameters.',
  'oci.template': 'A template for this generator’s Applications only, merged over `spec.template`.',
  'oci.requeueAfterSeconds': { doc: REQUEUE, default: '180 (the controller’s requeue setting)' },

  matrix: {
    doc: 'Combines exactly two child generators: every parameter set of the first with every parameter set of the second (the second may use the first’s parameters).',
    trap: 'A parameter both children set: with goTemplate the first child’s value wins; without it, different values fail the matrix (give one git child a `pathParamPrefix`). Only two levels of matrix/merge nesting are read.',
  },
  'matrix.generators': { doc: 'The two child generators.', trap: 'Exactly two; each child has one generator kind.' },
  merge: {
    doc: 'Merges child generators: parameter sets of later children override the first (base) child’s sets that have the same values for `mergeKeys`.',
    trap: 'Sets of later children that match no base set are dropped; only the first child decides which Applications exist.',
  },
  'merge.generators': 'The child generators; the first one is the base.',
  'merge.mergeKeys': {
    doc: 'Parameter names whose values identify the same parameter set across children (e.g. `server`, or `values.env`).',
    trap: 'Looked up as top-level parameter names only: with goTemplate `path.basename` or `values.env` names a top-level key with a dot, never the nested value, so it matches nothing.',
  },

  scmProvider: {
    doc: 'One parameter set per repository (and branch) found at an SCM provider: `organization`, `repository`, `url`, `branch`, `sha`, `labels`, …',
    trap: 'Needs the provider’s API at run time; it yields nothing offline.',
  },
  'scmProvider.cloneProtocol': {
    doc: 'Which clone URL the `url` parameter holds.',
    values: ['ssh', 'https'],
    default: 'the provider’s default (SSH for most)',
  },
  'scmProvider.filters': {
    doc: 'Repository filters: a repository is kept when it passes any filter; within a filter every condition must hold.',
  },
  'scmProvider.filters.repositoryMatch': 'A regular expression the repository name must match.',
  'scmProvider.filters.labelMatch': 'A regular expression one of the repository’s labels/topics must match.',
  'scmProvider.filters.branchMatch': 'A regular expression the branch name must match (with `allBranches`).',
  'scmProvider.filters.pathsExist': 'Paths that must exist in the repository.',
  'scmProvider.filters.pathsDoNotExist': 'Paths that must not exist in the repository.',
  'scmProvider.values': 'Extra parameters added to every parameter set as `values.<key>`.',
  'scmProvider.github': 'Repositories of a GitHub organization.',
  'scmProvider.github.organization': 'The GitHub organization to scan.',
  'scmProvider.github.excludeArchivedRepos': { doc: 'Leave archived repositories out.', default: 'false' },
  'scmProvider.gitlab': 'Projects of a GitLab group.',
  'scmProvider.gitlab.group': 'The GitLab group (or its numeric id) to scan.',
  'scmProvider.gitlab.includeSubgroups': { doc: 'Also scan subgroups.', default: 'false' },
  'scmProvider.gitlab.includeSharedProjects': { doc: 'With subgroups, also include projects shared into the group.', default: 'true' },
  'scmProvider.gitlab.includeArchivedRepos': { doc: 'Include archived projects.', default: 'false' },
  'scmProvider.gitlab.topic': 'Only projects with this topic.',
  'scmProvider.gitea': 'Repositories of a Gitea owner.',
  'scmProvider.gitea.owner': 'The Gitea user or organization.',
  'scmProvider.gitea.excludeArchivedRepos': { doc: 'Leave archived repositories out.', default: 'false' },
  'scmProvider.bitbucket': 'Repositories of a Bitbucket Cloud workspace.',
  'scmProvider.bitbucket.owner': 'The Bitbucket workspace.',
  'scmProvider.bitbucket.user': 'The Bitbucket user the app password belongs to.',
  'scmProvider.bitbucket.appPasswordRef': 'The Secret key holding the Bitbucket app password.',
  'scmProvider.bitbucketServer': 'Repositories of a Bitbucket Server / Data Center project.',
  'scmProvider.bitbucketServer.project': 'The Bitbucket Server project key.',
  'scmProvider.azureDevOps': 'Repositories of an Azure DevOps team project.',
  'scmProvider.azureDevOps.organization': 'The Azure DevOps organization.',
  'scmProvider.azureDevOps.teamProject': 'The team project to scan.',
  'scmProvider.azureDevOps.accessTokenRef': 'The Secret key holding a personal access token.',
  'scmProvider.azureDevOps.api': { doc: 'The Azure DevOps URL.', default: 'https://dev.azure.com' },
  'scmProvider.awsCodeCommit': 'Repositories of AWS CodeCommit (credentials from the controller’s AWS identity).',
  'scmProvider.awsCodeCommit.region': { doc: 'The AWS region.', default: 'the controller’s own region' },
  'scmProvider.awsCodeCommit.role': 'An IAM role to assume, e.g. to scan another account.',
  'scmProvider.awsCodeCommit.tagFilters': 'Only repositories with all of these tags.',
  'scmProvider.awsCodeCommit.tagFilters.key': 'The tag key.',
  'scmProvider.awsCodeCommit.tagFilters.value': 'The tag value; empty: any value.',
  allBranches: {
    doc: 'One parameter set per branch instead of one per repository (default branch).',
    default: 'false',
    trap: 'Multiplies the Applications; combine with `filters[].branchMatch`.',
  },

  pullRequest: {
    doc: 'One parameter set per open pull request: `number`, `branch`, `branch_slug`, `target_branch`, `head_sha`, `head_short_sha`, `title`, `author`, `labels` (goTemplate).',
    trap: 'Needs the provider’s API at run time; it yields nothing offline. Name Applications with `number` so each one is unique.',
  },
  'pullRequest.filters': 'Pull request filters: kept when any filter passes; within a filter every condition must hold.',
  'pullRequest.filters.branchMatch': 'A regular expression the source branch must match.',
  'pullRequest.filters.targetBranchMatch': 'A regular expression the target branch must match.',
  'pullRequest.filters.titleMatch': 'A regular expression the title must match.',
  'pullRequest.continueOnRepoNotFoundError': {
    doc: 'When the repository does not exist, yield no parameter set instead of failing (which would keep existing Applications).',
    default: 'false',
    trap: 'With it, a missing repository deletes the pull-request Applications.',
  },
  'pullRequest.values': 'Extra parameters added to every parameter set as `values.<key>`.',
  'pullRequest.github': 'Pull requests of a GitHub repository.',
  'pullRequest.github.owner': 'The GitHub user or organization.',
  'pullRequest.github.repo': 'The repository name.',
  'pullRequest.github.labels': 'Only pull requests with all of these labels.',
  'pullRequest.gitlab': 'Merge requests of a GitLab project.',
  'pullRequest.gitlab.project': 'The project id or path.',
  'pullRequest.gitlab.labels': 'Only merge requests with all of these labels.',
  'pullRequest.gitlab.pullRequestState': {
    doc: 'Only merge requests in this state.',
    values: ['opened', 'closed', 'merged', 'locked'],
    default: 'all states',
    trap: 'Unset includes merged and closed requests: set `opened` for preview environments.',
  },
  'pullRequest.gitea': 'Pull requests of a Gitea repository.',
  'pullRequest.gitea.owner': 'The Gitea user or organization.',
  'pullRequest.gitea.repo': 'The repository name.',
  'pullRequest.gitea.labels': 'Only pull requests with all of these labels.',
  'pullRequest.bitbucket': 'Pull requests of a Bitbucket Cloud repository.',
  'pullRequest.bitbucket.owner': 'The Bitbucket workspace.',
  'pullRequest.bitbucket.repo': 'The repository slug.',
  'pullRequest.bitbucketServer': 'Pull requests of a Bitbucket Server / Data Center repository.',
  'pullRequest.bitbucketServer.project': 'The Bitbucket Server project key.',
  'pullRequest.bitbucketServer.repo': 'The repository slug.',
  'pullRequest.azuredevops': 'Pull requests of an Azure DevOps repository.',
  'pullRequest.azuredevops.organization': 'The Azure DevOps organization.',
  'pullRequest.azuredevops.project': 'The team project.',
  'pullRequest.azuredevops.repo': 'The repository name.',
  'pullRequest.azuredevops.labels': 'Only pull requests with all of these labels.',
  'pullRequest.azuredevops.api': { doc: 'The Azure DevOps URL.', default: 'https://dev.azure.com' },

  // Credentials and endpoints shared by the SCM and pull-request providers.
  api: { doc: 'The provider’s API URL, for self-hosted installations.', default: 'the provider’s public API' },
  insecure: { doc: 'Skip TLS certificate verification of the API.', default: 'false', trap: 'Prefer `caRef` with the CA certificate.' },
  appSecretName: 'The name of a GitHub App repository-credentials Secret to authenticate with, instead of a token.',
  tokenRef: {
    doc: 'The Secret key holding the API token (Secret in the ApplicationSet controller’s namespace).',
    trap: 'Without a token the provider’s anonymous rate limits apply.',
  },
  'tokenRef.secretName': 'The Secret’s name.',
  'tokenRef.key': 'The key in the Secret.',
  'accessTokenRef.secretName': 'The Secret’s name.',
  'accessTokenRef.key': 'The key in the Secret.',
  'appPasswordRef.secretName': 'The Secret’s name.',
  'appPasswordRef.key': 'The key in the Secret.',
  basicAuth: 'Username and password authentication.',
  'basicAuth.username': 'The user name.',
  'basicAuth.passwordRef': 'The Secret key holding the password.',
  'passwordRef.secretName': 'The Secret’s name.',
  'passwordRef.key': 'The key in the Secret.',
  bearerToken: 'Bearer token authentication (e.g. a Bitbucket access token).',
  'bearerToken.tokenRef': 'The Secret key holding the bearer token.',
  caRef: 'A ConfigMap key holding the CA certificate of the API server.',
  'caRef.configMapName': 'The ConfigMap’s name (in the controller’s namespace).',
  'caRef.key': 'The key in the ConfigMap.',

  clusterDecisionResource: {
    doc: 'Parameter sets from the status of another resource (e.g. an Open Cluster Management Placement): one per decision whose cluster name matches an Argo CD cluster, with `name`, `server` and the decision’s keys.',
    trap: 'Reads live resources; it yields nothing offline.',
  },
  'clusterDecisionResource.configMapRef': 'The ConfigMap naming the resource’s `apiVersion`, `kind`, `matchKey` and `statusListKey`.',
  'clusterDecisionResource.name': { doc: 'The resource to read, by name.', trap: 'Set exactly one of `name` and `labelSelector`.' },
  'clusterDecisionResource.labelSelector': {
    doc: 'The resources to read, by their labels.',
    trap: 'Set exactly one of `name` and `labelSelector`.',
  },
  'clusterDecisionResource.values': {
    doc: 'Extra parameters added as `values.<key>`.',
    trap: 'Not rendered: `{{ }}` here stays as written.',
  },

  plugin: {
    doc: 'Parameter sets returned by an HTTP plugin service you run (configured in a ConfigMap).',
    trap: 'Calls the service at run time; it yields nothing offline.',
  },
  'plugin.configMapRef': 'The ConfigMap with the plugin’s `baseUrl` and `token` (and optional `requestTimeout`).',
  'plugin.configMapRef.name': 'The ConfigMap’s name (in the controller’s namespace).',
  'plugin.input': 'What is sent to the plugin.',
  'plugin.input.parameters': 'Free-form parameters sent to the plugin; also available in templates as `generator.input.parameters`.',
  'plugin.values': 'Extra parameters added to every parameter set as `values.<key>`.',

  // -- The Application template ------------------------------------
  'template.metadata': 'The generated Application’s metadata; strings may use parameters.',
  'template.metadata.name': {
    doc: 'The Application’s name; must render to a unique valid name (lowercase letters, digits, `-`, `.`, at most 253 characters) for every parameter set.',
    trap: 'Two parameter sets rendering the same name make the ApplicationSet fail; use `nameNormalized` for cluster names.',
  },
  'template.metadata.namespace': {
    doc: 'Ignored: generated Applications are always created in the ApplicationSet’s namespace.',
    trap: 'Use `spec.destination.namespace` for where the resources go.',
  },
  'template.metadata.labels': {
    doc: 'Labels of the generated Application (values must render to valid label values).',
    trap: 'RollingSync steps select these labels: copy any cluster label the steps need here.',
  },
  'template.metadata.annotations': 'Annotations of the generated Application (e.g. notifications subscriptions).',
  'template.metadata.finalizers': {
    doc: 'Finalizers of the generated Application.',
    default: '`resources-finalizer.argocd.argoproj.io` (unless `preserveResourcesOnDeletion`)',
    trap: 'Setting the list replaces the default finalizer; keep it if deleting an Application should delete its resources.',
  },
  'template.spec': 'The Application spec: source, destination, project, sync policy.',
  'template.spec.project': {
    doc: 'The Argo CD project (AppProject) the Application belongs to; it limits repositories, destinations and resources.',
    default: 'default',
    trap: '`templatePatch` cannot change it.',
  },
  'template.spec.destination': 'Where the resources are deployed: a cluster (`server` or `name`) and a namespace.',
  'template.spec.destination.server': {
    doc: 'The cluster’s API URL (`https://kubernetes.default.svc` is the cluster Argo CD runs in).',
    trap: 'Set either `server` or `name`, not both; with neither, every Application is invalid.',
  },
  'template.spec.destination.name': { doc: 'The cluster’s name in Argo CD.', trap: 'Set either `server` or `name`, not both.' },
  'template.spec.destination.namespace': 'The namespace for namespaced resources that have none.',
  'template.spec.source': 'Where the manifests come from (one source). Use `sources` for several.',
  'template.spec.sources': {
    doc: 'Several sources combined into one Application (e.g. a Helm chart plus a values repository with `ref`).',
    trap: 'Set `source` or `sources`, not both.',
  },
  'source.plugin': 'Render the manifests with a config management plugin.',
  'sources.plugin': 'Render the manifests with a config management plugin.',
  'drySource.plugin': 'Render the manifests with a config management plugin.',
  repoURL: 'The git repository, Helm repository or OCI registry URL.',
  targetRevision: {
    doc: 'The git branch, tag or commit, or the Helm chart version (a semver constraint like `1.2.*` picks the newest match).',
    default: 'HEAD (git); the latest chart version (Helm)',
  },
  path: 'The folder inside the git repository holding the manifests, chart or kustomization.',
  chart: 'The Helm chart name (for a Helm repository source; git sources use `path`).',
  ref: 'A name other sources use to read files of this one (`$name/values.yaml` in `helm.valueFiles`).',
  'source.name': 'A name for the source, shown in the UI and usable in CLI flags.',
  'sources.name': 'A name for the source, shown in the UI and usable in CLI flags.',
  tagPrefix:
    'Only tags with this prefix are considered when `targetRevision` is a semver constraint; the prefix is removed before comparing and kept in the result.',
  helm: 'Helm options for this source.',
  'helm.valueFiles': {
    doc: 'Values files, relative to the chart (or `$ref/path` from another source).',
    trap: 'A missing file fails the Application unless `ignoreMissingValueFiles`.',
  },
  'helm.values': 'Inline values, as one YAML string.',
  'helm.valuesObject': 'Inline values as a YAML object (wins over `values`).',
  'helm.parameters': 'Single value overrides, like `--set`.',
  'helm.parameters.name': 'The value path, e.g. `image.tag`.',
  'helm.parameters.value': 'The value.',
  'helm.parameters.forceString': { doc: 'Pass the value as a string (`--set-string`).', default: 'false' },
  'helm.fileParameters': 'Values read from files, like `--set-file`.',
  'helm.fileParameters.name': 'The value path.',
  'helm.fileParameters.path': 'The file whose content becomes the value.',
  'helm.releaseName': { doc: 'The Helm release name.', default: 'the Application’s name' },
  'helm.namespace': { doc: 'The namespace Helm renders for (`.Release.Namespace`).', default: 'the destination namespace' },
  'helm.version': { doc: 'The Helm major version.', values: ['v3'], default: 'v3' },
  'helm.passCredentials': { doc: 'Send the repository credentials to every domain the chart is fetched from.', default: 'false' },
  'helm.ignoreMissingValueFiles': { doc: 'Skip value files that do not exist instead of failing.', default: 'false' },
  'helm.skipCrds': { doc: 'Do not install the chart’s CRDs (`--skip-crds`).', default: 'false' },
  'helm.skipTests': { doc: 'Do not render the chart’s test manifests (`--skip-tests`).', default: 'false' },
  'helm.skipSchemaValidation': { doc: 'Do not validate values against the chart’s schema (`--skip-schema-validation`).', default: 'false' },
  'helm.kubeVersion': { doc: 'The Kubernetes version the chart is rendered for.', default: 'the destination cluster’s version' },
  'helm.apiVersions': { doc: 'API versions the chart sees as available (`[group/]version/kind`).', default: 'the destination cluster’s' },
  kustomize: 'Kustomize options for this source.',
  'kustomize.namePrefix': 'A prefix added to every resource name.',
  'kustomize.nameSuffix': 'A suffix added to every resource name.',
  'kustomize.namespace': 'The namespace set on every resource.',
  'kustomize.images': 'Image overrides, e.g. `nginx=nginx:1.27`.',
  'kustomize.replicas': 'Replica count overrides.',
  'kustomize.replicas.name': 'The workload’s name.',
  'kustomize.replicas.count': 'The replica count (a number or a string number).',
  'kustomize.commonLabels': 'Labels added to every resource (and, by default, to selectors).',
  'kustomize.commonAnnotations': 'Annotations added to every resource.',
  'kustomize.commonAnnotationsEnvsubst': {
    doc: 'Substitute environment variables (`${ARGOCD_APP_NAME}`) in `commonAnnotations` values.',
    default: 'false',
  },
  'kustomize.forceCommonLabels': { doc: 'Overwrite labels that already exist.', default: 'false' },
  'kustomize.forceCommonAnnotations': { doc: 'Overwrite annotations that already exist.', default: 'false' },
  'kustomize.labelWithoutSelector': {
    doc: 'Add `commonLabels` to resources but not to selectors.',
    default: 'false',
    trap: 'Changing selector labels of an existing Deployment fails: they are immutable.',
  },
  'kustomize.labelIncludeTemplates': { doc: 'With `labelWithoutSelector`, still add the labels to pod templates.', default: 'false' },
  'kustomize.components': 'Kustomize components added to the kustomization.',
  'kustomize.ignoreMissingComponents': { doc: 'Skip components that do not exist instead of failing.', default: 'false' },
  'kustomize.patches': 'Patches applied to the kustomization’s output.',
  'patches.patch': 'The patch, inline (strategic merge or JSON 6902).',
  'patches.path': 'A file holding the patch.',
  'patches.options': 'Patch options (`allowNameChange`, `allowKindChange`).',
  'patches.target': 'Which resources the patch applies to.',
  'target.group': 'The API group.',
  'target.version': 'The API version.',
  'target.kind': 'The kind.',
  'target.name': 'The name (a regular expression).',
  'target.namespace': 'The namespace.',
  'target.labelSelector': 'A label selector string, e.g. `app=web`.',
  'target.annotationSelector': 'An annotation selector string.',
  'kustomize.version': 'Which kustomize binary to use (a version configured in Argo CD).',
  'kustomize.kubeVersion': {
    doc: 'The Kubernetes version passed to kustomize for Helm charts.',
    default: 'the destination cluster’s version',
  },
  'kustomize.apiVersions': 'API versions passed to kustomize for Helm charts.',
  directory: 'Options for a plain folder of manifests (YAML, JSON, Jsonnet).',
  'directory.recurse': { doc: 'Read subfolders too.', default: 'false' },
  'directory.include': 'A glob of files to read, e.g. `{*.yaml,*.json}`.',
  'directory.exclude': 'A glob of files to skip.',
  'directory.disableExtensionFilter': {
    doc: 'Consider files of any extension (matched by `include`/`exclude`), not only `.yaml`, `.yml`, `.json`, `.jsonnet`.',
    default: 'false',
  },
  'directory.jsonnet': 'Jsonnet options.',
  'jsonnet.extVars': 'External variables (`--ext-str`/`--ext-code`).',
  'jsonnet.tlas': 'Top-level arguments (`--tla-str`/`--tla-code`).',
  'jsonnet.libs': 'Library search paths.',
  'extVars.name': 'The variable name.',
  'extVars.value': 'The value.',
  'extVars.code': { doc: 'Read the value as Jsonnet code instead of a string.', default: 'false' },
  'tlas.name': 'The argument name.',
  'tlas.value': 'The value.',
  'tlas.code': { doc: 'Read the value as Jsonnet code instead of a string.', default: 'false' },
  'plugin.name': 'The config management plugin’s name (optional when the plugin discovers the source itself).',
  'plugin.env': 'Environment variables for the plugin (seen as `ARGOCD_ENV_<name>`).',
  'env.name': 'The variable name.',
  'env.value': 'The value.',
  'plugin.parameters': 'Parameters for the plugin.',
  'parameters.name': 'The parameter name.',
  'parameters.string': 'A string value.',
  'parameters.array': 'A list value.',
  'parameters.map': 'A map value.',
  'template.spec.sourceHydrator': {
    doc: 'Source hydration: Argo CD renders the dry source and commits the manifests to a branch, which the Application syncs.',
    trap: 'Set it instead of `source`/`sources`.',
  },
  'sourceHydrator.drySource': 'The source to render (repository, revision, path and tool options).',
  'sourceHydrator.syncSource': 'Where the rendered manifests are committed and synced from.',
  'syncSource.targetBranch': 'The branch the rendered manifests are committed to.',
  'syncSource.path': {
    doc: 'The folder in that branch for this Application’s manifests.',
    trap: 'It must be unique per Application and cannot be the repository root.',
  },
  'syncSource.repoURL': { doc: 'The repository to commit to.', default: 'the dry source’s repository' },
  'sourceHydrator.hydrateTo': 'A staging branch to commit to first (promoted to `syncSource.targetBranch` by you).',
  'hydrateTo.targetBranch': 'The staging branch.',
  'template.spec.syncPolicy': 'When and how the Application syncs.',
  'syncPolicy.automated': {
    doc: 'Sync automatically when the desired state changes.',
    trap: 'With RollingSync the controller turns it off (`enabled: false`) and syncs the Applications itself.',
  },
  'automated.enabled': { doc: 'Turns automated sync on or off while keeping the other settings.', default: 'true when `automated` is set' },
  'automated.prune': {
    doc: 'Delete resources that are no longer in the source.',
    default: 'false',
    trap: 'Without it, removed manifests stay in the cluster.',
  },
  'automated.selfHeal': { doc: 'Revert changes made in the cluster.', default: 'false' },
  'automated.allowEmpty': { doc: 'Allow a sync that would delete every resource.', default: 'false' },
  'syncPolicy.syncOptions': 'Sync options, e.g. `CreateNamespace=true`, `ServerSideApply=true`, `PruneLast=true`.',
  'syncPolicy.retry': 'Retries of failed syncs.',
  'retry.limit': { doc: 'How many retries (a negative number: no limit).', default: '0 (no retry)' },
  'retry.refresh': { doc: 'Retry with the newest revision rather than the one that failed.', default: 'false' },
  'retry.backoff': 'Waiting time between retries.',
  'backoff.duration': { doc: 'The first wait, e.g. `5s`, `2m`.', default: '5s' },
  'backoff.factor': { doc: 'Each wait is the previous one times this.', default: '2' },
  'backoff.maxDuration': { doc: 'The longest wait.', default: '3m' },
  'syncPolicy.managedNamespaceMetadata': 'Labels and annotations for the namespace `CreateNamespace=true` creates.',
  'managedNamespaceMetadata.labels': 'Labels of the created namespace.',
  'managedNamespaceMetadata.annotations': 'Annotations of the created namespace.',
  'template.spec.ignoreDifferences':
    'Fields ignored when comparing the live resources with the source (they do not make the Application OutOfSync).',
  'ignoreDifferences.group': 'The API group of the resources.',
  'ignoreDifferences.kind': 'The kind of the resources.',
  'ignoreDifferences.name': 'Only the resource with this name.',
  'ignoreDifferences.namespace': 'Only resources in this namespace.',
  'ignoreDifferences.jsonPointers': 'JSON pointers of fields to ignore.',
  'ignoreDifferences.jqPathExpressions': 'jq paths of fields to ignore.',
  'ignoreDifferences.managedFieldsManagers': 'Ignore fields owned by these field managers (e.g. an autoscaler).',
  'template.spec.info': 'Extra information shown in the UI.',
  'info.name': 'The label shown.',
  'info.value': 'The value shown.',
  'template.spec.revisionHistoryLimit': { doc: 'How many past syncs the Application keeps in its history.', default: '10' },
};

/**
 * The documentation key of a field path: list indexes dropped; from the last `generators` on for a
 * generator's fields; from the last `template` on for an Application template's fields.
 */
export function canonicalPath(path: JsonPath): string[] {
  let p = path.filter((s): s is string => typeof s === 'string');
  const g = p.lastIndexOf('generators');
  if (g >= 0 && g < p.length - 1) p = p.slice(g + 1);
  const t = p.lastIndexOf('template');
  if (t >= 0 && t < p.length - 1) p = p.slice(t);
  else if (t >= 0 && t === p.length - 1 && t > 0) p = p.slice(t - 1);
  return p;
}

/** The documentation of the field at `path`, or undefined for a key the schema does not know. */
export function fieldDoc(path: JsonPath): FieldDoc | undefined {
  const p = canonicalPath(path);
  for (let i = 0; i < p.length; i++) {
    const e = Object.prototype.hasOwnProperty.call(DOCS, p.slice(i).join('.')) ? DOCS[p.slice(i).join('.')] : undefined;
    if (e !== undefined) return typeof e === 'string' ? { doc: e } : e;
  }
  return undefined;
}

/** The documentation as markdown lines (doc, default, values, trap). */
export function fieldDocMarkdown(d: FieldDoc, values?: readonly string[]): string {
  const lines = [d.doc];
  if (d.default) lines.push(`Default: ${d.default}.`);
  const vs = d.values ?? values;
  if (vs?.length) lines.push(`Values: ${vs.map((v) => `\`${v}\``).join(', ')}.`);
  if (d.trap) lines.push(`⚠ ${d.trap}`);
  return lines.join('\n\n');
}
