/**
 * A file's ApplicationSets: the YAML reader (engine/yaml/) reads the file's documents, and each
 * document, as it is read, is asked what it is: an ApplicationSet (appset.ts), the values of Argo CD's
 * argocd-apps chart (argocdApps.ts), or the argo-cd chart's values with ApplicationSets among its
 * `extraObjects` (extraObjects.ts). The findings about a document follow its YAML findings.
 */
import type { EngineDiagnostic, Json } from '../types';
import { nodeAt, parseYamlFileSteps, type Reader, type YamlDoc } from '../yaml';
import { runSteps } from '../steps';
import type { AppSetDoc, ParsedFile } from './documents';
import { isAppSetValue } from './appset';
import { argocdAppsAppSets } from './argocdApps';
import { extraObjectsAppSets, extraObjectsFindings } from './extraObjects';

/**
 * Reads a file and finds its ApplicationSets. `previous`, `only` and `reader` are the YAML reader's
 * (`parseYamlFile`: only the `---` parts that changed since `previous` are read again).
 */
export function parseFile(text: string, previous?: ParsedFile, only?: (part: string) => boolean, reader: Reader = 'fast'): ParsedFile {
  return runSteps(parseFileSteps(text, previous, only, reader));
}

/** `parseFile` in steps (the YAML reader's, `parseYamlFileSteps`). */
export function* parseFileSteps(
  text: string,
  previous?: ParsedFile,
  only?: (part: string) => boolean,
  reader: Reader = 'fast',
): Generator<void, ParsedFile> {
  const appsets: AppSetDoc[] = [];
  const read = yield* parseYamlFileSteps(text, previous, only, reader, (yd, diagnostics) => documentKind(text, yd, appsets, diagnostics));
  const { docs, diagnostics, parts, order, reuse } = read;
  return { text, docs, appsets, diagnostics, parts, order, reuse };
}

/** The ApplicationSets one document holds (itself, or in a chart's values), and the findings about them. */
function documentKind(text: string, yd: YamlDoc, appsets: AppSetDoc[], diagnostics: EngineDiagnostic[]): void {
  const { value, doc } = yd;
  if (isAppSetValue(value)) {
    const md = (value.metadata ?? {}) as Record<string, Json>;
    appsets.push({
      ...yd,
      value,
      name: typeof md?.name === 'string' ? md.name : '',
      namespace: typeof md?.namespace === 'string' ? md.namespace : '',
    });
  } else if (value && typeof value === 'object' && !Array.isArray(value)) {
    const helm = argocdAppsAppSets(yd);
    appsets.push(...helm.appsets);
    diagnostics.push(...helm.diagnostics);
    const extra = /^[ \t]*extraObjects:/m.test(text) ? extraObjectsAppSets(value) : [];
    const sites = extra.flatMap((p) => {
      const span = nodeAt(doc, p).value;
      const kind = nodeAt(doc, [...p, 'kind']).value;
      return span && kind ? [{ span, kind }] : [];
    });
    if (sites.length) diagnostics.push(...extraObjectsFindings(text, sites));
  }
}
