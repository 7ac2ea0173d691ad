/**
 * What a document is, named at one door for the tests and the tools (`engine/kinds`): a file read with
 * its ApplicationSets (file.ts over the YAML reader), the types of an ApplicationSet among a file's
 * documents, and the one test of "is this an ApplicationSet" (appset.ts). Helm chart templates
 * (helmChart.ts) and the checks of Helm's view of placeholders are read by the engine from their files.
 */
export { parseFile, parseFileSteps } from './file';
export type { AppSetDoc, HelmValuesOrigin, ParsedFile } from './documents';
export { appSetKindAt, declaresAppSet, isAppSetValue } from './appset';
