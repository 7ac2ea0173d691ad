/**
 * The YAML reader's one door: everything outside `engine/yaml/` reads, locates and edits YAML through
 * this module (test/unit/architecture.test.ts checks it). Behind it: `limits.ts` (checked before the
 * parser), `document.ts` (files → documents, per `---` part), `fastRead.ts` + `lazyDocument.ts` (the
 * fast reader), `incremental.ts` (one entry parsed again), `composeSteps.ts` (a long list in steps),
 * `duplicateKeys.ts`, `ast.ts` (the located tree), `parse.ts` (the other readers), `edit.ts`,
 * `comments.ts`. What a document is (an ApplicationSet, argocd-apps values, a Helm chart template)
 * is decided in `engine/kinds/`.
 */
export * from './document';
export * from './ast';
export * from './parse';
export * from './limits';
export * from './edit';
export * from './comments';
