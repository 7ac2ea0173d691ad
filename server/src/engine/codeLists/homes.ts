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
 * Files that make codes of another prefix than their home's, each with why it cannot move: none. A rule
 * that needs what a floor above its home computes (the expansion, the workspace, Helm's rendering) is a
 * function in its home over small data declared there or below (`ProjectsOf`, `GeneratedFacts`,
 * `HelmFailure`); the floor above gathers the data and calls it (docs/development.md, *Adding a rule*).
 * Add no entry.
 */
export const AWAY_FROM_HOME: Readonly<Record<string, { codes: readonly string[]; why: string }>> = {};
