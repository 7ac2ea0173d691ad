/** The custom requests of `protocol.ts` (the preview and the rollout plan). */
import { Requests, type DocumentRequestParams } from '../../protocol';
import type { Analysis } from '../../engine';
import { URI } from '../uri';
import type { ServerState } from '../state';
import type { Revalidation } from './diagnostics';

export function registerRequests(s: ServerState, revalidation: Revalidation): void {
  const { connection, documents } = s;

  /** The analysis of the requested document, with the index in step with every open document. */
  const analysisFor = (r: DocumentRequestParams): Analysis | undefined => {
    // An edit typed a moment ago in another document (a cluster Secret) counts, even before its
    // debounced run: the client refreshes its views right after edits.
    for (const d of documents.all()) if (s.service.openDocuments.sync(URI.toPath(d.uri), d.getText(), () => s.analysisOf(d))) revalidation.scheduleOthers(d.uri);
    if (typeof r?.uri !== 'string') return undefined;
    const doc = documents.get(r.uri) ?? s.textOf(r.uri);
    return doc ? s.analysisOf(doc) : undefined;
  };
  const offsetOf = (r: DocumentRequestParams) => (typeof r.offset === 'number' && r.offset >= 0 ? r.offset : undefined);

  connection.onRequest(Requests.preview, (r: DocumentRequestParams) =>
    s.guard('preview', null, () => {
      const a = analysisFor(r);
      return a ? s.service.preview(a, offsetOf(r)) : null;
    }),
  );

  connection.onRequest(Requests.rolloutPlan, (r: DocumentRequestParams) =>
    s.guard('rollout plan', null, () => {
      const a = analysisFor(r);
      return a ? s.service.rolloutPlan(a, offsetOf(r)) : null;
    }),
  );
}
