// ESLint: correctness rules from typescript-eslint, plus the architecture's import zones (the same
// boundaries test/unit/architecture.test.ts checks, reported in the editor while you type).
// Formatting is Prettier's job (`.prettierrc.json`), not ESLint's.
import tseslint from 'typescript-eslint';

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
        ['**/server/src/*', '**/server/src/**', '!**/server/src/protocol'],
        'The client imports only server/src/protocol.ts from the server.',
      ),
    },
  },
);
