/**
 * Where each code prefix's rules live: the one folder whose files make the findings of `prefix/*`
 * (`finding('prefix/…', …)`, or a proto-finding `{ code: 'prefix/…' }` a generator reports), so a new
 * rule goes in the folder its code names. Plain data, read by test/unit/engine/codeLists/homes.test.ts, which fails
 * when a file outside its prefix's home makes a code and is not listed in `AWAY_FROM_HOME`, and when
 * an entry there no longer makes the codes it lists (the list may only shrink).
 */
export const CODE_HOMES = {
  appset: 'server/src/engine/validate',
  config: 'server/src/engine/config',
  controller: 'server/src/engine/features/controller',
  diff: 'server/src/cli',
  generator: 'server/src/engine/generators',
  helm: 'server/src/engine/kinds',
  inventory: 'server/src/engine/features/inventory',
  policy: 'server/src/engine/features/policy',
  rollout: 'server/src/engine/features/rollout',
  template: 'server/src/engine/expand',
  yaml: 'server/src/engine/yaml',
} as const;

/**
 * Files that still make codes of another prefix than their home's, each with why it cannot move yet
 * (mostly the layers: a rule that needs the expansion or the workspace sits above `validate/` and
 * `generators/`). Remove an entry when its rule moves home; add none.
 */
export const AWAY_FROM_HOME: Readonly<Record<string, { codes: readonly string[]; why: string }>> = {
  'server/src/engine/features/templates/contributor.ts': {
    codes: [
      'appset/constant-name',
      'appset/template-in-structure',
      'generator/invalid-application',
      'template/fasttemplate-syntax',
      'template/gotemplate-syntax',
      'template/needs-index',
      'yaml/templated-file',
      'yaml/unquoted-template',
    ],
    why: 'the template checks read the rendered Applications and the template mode together (features layer); to be split by prefix',
  },
};
