/** Diagnostic codes owned by validation (schema and semantic checks) and the YAML reading. Keep the summaries to one line. */
export const VALIDATION_CODES = [
  // Emitted by the YAML layer (yaml/document.ts parseYamlFile) for every YAML file.
  { code: 'yaml/syntax', severity: 'error', summary: 'The file is not valid YAML; reported at the exact position of the problem.' },
  {
    code: 'yaml/too-large',
    unchecked: true,
    severity: 'warning',
    summary: 'The file is larger than 2 MB, so it is not checked (a limit of ApplicationSet Tools, not of Argo CD).',
  },
  {
    code: 'yaml/line-too-long',
    unchecked: true,
    severity: 'warning',
    summary: 'A line longer than 262,144 characters: its document is not checked (a limit of ApplicationSet Tools).',
  },
  {
    code: 'yaml/too-deep',
    unchecked: true,
    severity: 'warning',
    summary: 'A document nested more than 100 levels deep is not checked, so it cannot exhaust the language server.',
  },
  {
    code: 'yaml/parser-overflow',
    unchecked: true,
    severity: 'error',
    summary:
      'The YAML library ran out of stack on a document (one mis-indented line in a long list can cause it): the document is not checked; fix the syntax error it points at.',
  },
  {
    code: 'yaml/encoding',
    severity: 'error',
    summary: 'The file is not UTF-8 text (NUL characters: UTF-16 without a byte-order mark?); Argo CD cannot read it either.',
  },
  {
    code: 'yaml/alias-limit',
    unchecked: true,
    severity: 'error',
    summary: 'Too many YAML alias expansions (e.g. a "billion laughs" document); the document is not read.',
  },
  // Schema (derived from the ApplicationSet CRD, schemas/applicationset.schema.json)
  {
    code: 'yaml/unquoted-template',
    severity: 'error',
    summary:
      'A value starts with an unquoted {{: YAML reads a flow mapping, not a string, and the API server cannot decode the ApplicationSet; quote it.',
  },
  {
    code: 'appset/template-in-structure',
    severity: 'error',
    summary:
      'Go template control flow ({{- if }}) in the YAML structure of an ApplicationSet: only template strings are rendered; put conditional fields in templatePatch.',
  },
  {
    code: 'appset/unknown-field',
    severity: 'error',
    summary: 'A field the ApplicationSet CRD does not define; the API server rejects or silently drops it.',
    variant: {
      severity: 'information',
      when: 'the field is only newer than a superseded bootstrap install (docs/versions.md): the version that runs the ApplicationSet is not known',
    },
  },
  {
    code: 'appset/wrong-type',
    severity: 'error',
    summary: 'A value of the wrong type (e.g. a list where an object is expected, a number where a string is expected).',
  },
  { code: 'appset/missing-field', severity: 'error', summary: 'A field the CRD requires is missing (e.g. spec.template.spec.project).' },
  {
    code: 'appset/invalid-value',
    severity: 'error',
    summary:
      "A value outside the CRD's allowed values or pattern (e.g. syncPolicy.applicationsSync), or an ApplicationSet name the API server rejects (not a lowercase RFC 1123 subdomain).",
  },
  {
    code: 'appset/project-denies',
    severity: 'error',
    summary:
      "A generated Application's source repository, destination or namespace is not permitted by its AppProject (sourceRepos, destinations, sourceNamespaces): the Application is created but never syncs.",
  },
  {
    code: 'appset/project-not-checked',
    severity: 'information',
    summary:
      "The generated Applications' AppProject is not in the repository (or cannot be read offline), so whether it permits their sources, destinations and namespace is not checked.",
  },
  {
    code: 'appset/unknown-project',
    severity: 'warning',
    summary:
      'spec.template.spec.project names a project no AppProject in the repository defines (default always exists): the controller skips those Applications.',
  },
  // Semantic checks the CRD cannot express
  {
    code: 'appset/strategy-type',
    severity: 'warning',
    summary: 'strategy.type is neither AllAtOnce nor RollingSync; the controller silently treats it as AllAtOnce.',
  },
  {
    code: 'appset/rolling-sync-ignored',
    severity: 'warning',
    summary: 'strategy.rollingSync is set but strategy.type is not RollingSync (or the reverse), so no rollout happens.',
  },
  {
    code: 'appset/step-operator',
    severity: 'warning',
    summary:
      'A rollingSync matchExpressions operator other than In/NotIn: the step fails for apps that have the label and matches apps that lack it.',
  },
  {
    code: 'appset/max-update',
    severity: 'warning',
    summary: 'maxUpdate is neither an integer nor a "<int>%" string; the controller then updates one Application at a time.',
  },
  {
    code: 'appset/deletion-order',
    severity: 'warning',
    summary: 'strategy.deletionOrder is neither AllAtOnce nor Reverse; the controller treats it as AllAtOnce.',
  },
  {
    code: 'appset/go-template-options',
    severity: 'error',
    summary: "A goTemplateOptions entry other than missingkey=default|invalid|zero|error; the controller's reconcile crashes on it.",
  },
  {
    code: 'appset/go-template-options-ignored',
    severity: 'information',
    summary: 'goTemplateOptions are set but goTemplate is not true, so they have no effect.',
  },
  { code: 'appset/matrix-children', severity: 'error', summary: 'A matrix generator needs exactly two child generators.' },
  { code: 'appset/merge-children', severity: 'error', summary: 'A merge generator needs at least two child generators.' },
  { code: 'appset/merge-keys', severity: 'error', summary: 'A merge generator needs at least one entry in mergeKeys.' },
  {
    code: 'appset/child-generator-kinds',
    severity: 'error',
    summary: 'A matrix/merge child must set exactly one generator kind (none generates nothing, several fail).',
  },
  {
    code: 'appset/nesting-depth',
    severity: 'error',
    summary: 'matrix/merge may be nested only one level deep; a deeper one is dropped and its parent fails.',
  },
  {
    code: 'appset/git-negation',
    severity: 'warning',
    summary:
      'A git generator path starts with "!", but path.Match and git pathspecs have no negation: it matches nothing; exclude with exclude: true.',
  },
  {
    code: 'appset/glob-source-path',
    severity: 'error',
    summary:
      'A source path holds a glob ("apps/*"), but Argo CD reads source.path as one literal folder: every generated Application fails with "app path does not exist".',
  },
  {
    code: 'appset/constant-name',
    severity: 'warning',
    summary:
      'The Application name uses no parameter (or only ones a matrix list sets alike in every element) but a generator yields several parameter sets by design: every Application gets the same name and the controller skips them all.',
  },
  {
    code: 'appset/matrix-path-clash',
    severity: 'warning',
    summary:
      'A fasttemplate matrix of two git generators without distinct pathParamPrefix: both set path, and the controller fails the ApplicationSet on "found duplicate key path".',
  },
  {
    code: 'appset/empty-generator',
    severity: 'warning',
    summary: 'A generator entry with no generator kind produces nothing (the Argo CD API server rejects it).',
  },
  {
    code: 'appset/multiple-generator-kinds',
    severity: 'information',
    summary: 'One generator entry sets several kinds; each runs on its own and their Applications are added together.',
  },
  {
    code: 'appset/selector-operator',
    severity: 'error',
    summary: 'A selector operator other than In, NotIn, Exists, DoesNotExist; the generator fails.',
  },
  {
    code: 'appset/selector-values',
    severity: 'error',
    summary: 'In/NotIn need at least one value and Exists/DoesNotExist take none; the generator fails otherwise.',
  },
  {
    code: 'appset/selector-key',
    severity: 'error',
    summary: 'A selector key that is not a valid Kubernetes qualified name (e.g. path[0]); the generator fails.',
  },
  {
    code: 'appset/template-patch-syntax',
    severity: 'error',
    summary: 'templatePatch is not valid YAML/JSON or not a mapping, so every Application fails to render.',
    variant: { severity: 'warning', when: 'the check could only approximate the rendered patch' },
  },
  {
    code: 'appset/yaml11-boolean',
    severity: 'warning',
    summary: 'Unquoted yes/no/on/off: a boolean for kubectl and Argo CD (YAML 1.1); an error where a string is expected.',
    variant: { severity: 'error', when: 'the field expects a string' },
  },
  {
    code: 'appset/nested-selector-ignored',
    severity: 'warning',
    summary:
      'Before Argo CD 3.0, a selector on a generator inside a nested matrix/merge is dropped unless spec.applyNestedSelectors is true.',
  },
  {
    code: 'appset/deprecated-field',
    severity: 'hint',
    summary: 'A field that is deprecated and ignored (applyNestedSelectors: nested selectors always apply since Argo CD 3.0).',
  },
] as const;
