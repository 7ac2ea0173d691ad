// ESLint: correctness rules from typescript-eslint, the architecture's import zones (the same
// boundaries test/unit/architecture.test.ts checks on the import graph, reported in the editor while
// you type) and the architecture's source rules as syntax-tree rules (eslint-rules/, each planted
// break caught in test/unit/architecture-rules.test.ts).
// Formatting is Prettier's job (`.prettierrc.json`), not ESLint's.
import tseslint from 'typescript-eslint';
import architecture from './eslint-rules/index.mjs';

const restrict = (patterns, message) => ['error', { patterns: [{ group: patterns, message }] }];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.tools/**',
      'test/vscode/.tmp/**',
      'test/vscode/workspace/**',
      'test/fixtures/**',
      'bench/**',
      'schemas/*.json',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-require-imports': 'off',
      'no-control-regex': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['server/src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [
          'fs',
          'node:fs',
          'fs/*',
          'node:fs/*',
          'child_process',
          'node:child_process',
          'vscode',
          'vscode-languageserver*',
          'vscode-languageclient*',
          '**/lsp/**',
          '**/cli/**',
          '**/host/**',
        ],
        'The engine reaches the outside world only through EngineHost (ARCHITECTURE.md, invariants).',
      ),
    },
  },
  {
    files: ['server/src/gotemplate/**/*.ts'],
    rules: {
      // The Go ports keep Go's one-line case bodies as comma sequences.
      '@typescript-eslint/no-unused-expressions': 'off',
      'no-restricted-imports': restrict(
        ['**/engine/**', '**/engine', '**/lsp/**', '**/cli/**', '**/host/**', 'fs', 'node:fs', 'vscode*'],
        'The Go template library imports nothing outside itself.',
      ),
    },
  },
  {
    files: ['server/src/lsp/**/*.ts', 'server/src/cli/**/*.ts', 'server/src/host/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/engine/*', '**/engine/*/**', '!**/engine/index', '**/gotemplate', '**/gotemplate/**'],
        'Fronts import the engine only through server/src/engine/index.ts.',
      ),
    },
  },
  {
    files: ['client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/server/src/*', '**/server/src/**', '!**/server/src/protocol', '@appset-tools/*', '!@appset-tools/protocol'],
        'The client imports only the protocol package (@appset-tools/protocol) from the server.',
      ),
    },
  },
  {
    files: ['test/**/*.ts', 'test/**/*.mjs', 'test/**/*.js'],
    ignores: ['test/gotemplate/**'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/server/src/gotemplate/*', '**/server/src/gotemplate/**', '!**/server/src/gotemplate/index'],
        "Tests outside test/gotemplate/ use the template library only through its door (server/src/gotemplate/index.ts); its internals are test/gotemplate/'s.",
      ),
    },
  },
  // The architecture's source rules (eslint-rules/, ARCHITECTURE.md invariants).
  {
    files: ['server/src/**/*.ts', 'client/src/**/*.ts'],
    plugins: { architecture },
    rules: {
      'architecture/listed-dependencies': 'error',
      'architecture/no-message-decisions': 'error',
      'architecture/one-kind-test': 'error',
    },
  },
  {
    // JavaScript's stack overflow is a plain RangeError with no code: it is told by the engine's own
    // text for it, measured once there (never a guessed wording).
    files: ['server/src/gotemplate/stackOverflow.ts'],
    rules: { 'architecture/no-message-decisions': 'off' },
  },
  {
    // engine/kinds/ is where what a document is gets decided.
    files: ['server/src/engine/kinds/**/*.ts'],
    rules: { 'architecture/one-kind-test': 'off' },
  },
  {
    files: ['server/src/engine/**/*.ts'],
    rules: {
      'architecture/no-process-state': 'error',
      'architecture/severity-from-registry': 'error',
      'architecture/one-finding-constructor': 'error',
    },
  },
  {
    // The finding's home: the constructor itself, and grouping occurrences by site (the group keeps the
    // worst of their registered severities; a superseding warning takes the error it hides). And the one
    // severity that is not the registry's: the user's, from .appset-tools.yaml.
    files: ['server/src/engine/diagnostics/**/*.ts', 'server/src/engine/config/apply.ts'],
    rules: { 'architecture/one-finding-constructor': 'off' },
  },
  {
    files: ['server/src/**/*.ts'],
    ignores: ['server/src/engine/yaml/**', 'server/src/engine/fields/**'],
    rules: {
      'architecture/path-lookups': [
        'error',
        {
          allowed: {
            // The node-at-offset door: the question arrives as a cursor offset (ARCHITECTURE.md).
            'server/src/engine/features/editor/navigation.ts': {
              names: ['pathAt'],
              calls: 1,
              why: 'go to definition starts from the cursor',
            },
            'server/src/engine/features/rollout/hover.ts': { names: ['pathAt'], calls: 1, why: 'a hover starts from the cursor' },
            'server/src/engine/features/validation/assist.ts': {
              names: ['pathAt'],
              calls: 1,
              why: 'completion and field hovers start from the cursor',
            },
            'server/src/engine/features/preview/contributor.ts': {
              names: ['pathAt'],
              calls: 1,
              why: 'the generator hover starts from the cursor (its trail)',
            },
            // Documents that are not ApplicationSets have no view.
            'server/src/engine/config/load.ts': { names: ['nodeAt'], calls: 2, why: '.appset-tools.yaml' },
            'server/src/engine/kinds/file.ts': { names: ['nodeAt'], calls: 2, why: "the argo-cd chart's extraObjects entries" },
            'server/src/engine/install/spans.ts': { names: ['nodeAt'], calls: 1, why: "Argo CD's install manifests" },
            'server/src/engine/rollout/syncWindows.ts': { names: ['nodeAt'], calls: 1, why: "an AppProject's syncWindows" },
            'server/src/engine/features/inventory/contributor.ts': {
              names: ['spanAt'],
              calls: 2,
              why: 'cluster Secrets and ClusterInventory files',
            },
            'server/src/engine/features/editor/paramDefs.ts': {
              names: ['nodeAt'],
              calls: 3,
              why: "a cluster Secret, a git generator's parameter file, the YAML inside elementsYaml",
            },
          },
        },
      ],
    },
  },
  {
    files: ['client/src/**/*.ts'],
    ignores: ['client/src/request.ts'],
    rules: { 'architecture/typed-requests': ['error', { send: true }] },
  },
  {
    files: ['server/src/lsp/**/*.ts'],
    rules: { 'architecture/typed-requests': ['error', { register: true }] },
  },
);
