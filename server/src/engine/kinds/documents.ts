/**
 * What a document is, as the YAML reader hands it out: one document of a file (`YamlDoc`) and an
 * ApplicationSet among them (`AppSetDoc`), whole or from the argocd-apps chart's values. Written here,
 * beneath both the reader (`engine/yaml/`, which builds them and hands them on through its door) and
 * the kinds that build them too (`argocdApps.ts`'s virtual documents), so neither reads the other's
 * folder for them. Types only: the `yaml` library's document type is named, never imported at run time.
 */
import type * as YAML from 'yaml';
import type { Json, Span } from '../types';

export interface YamlDoc {
  /** Position of the document in the file (0-based). */
  index: number;
  doc: YAML.Document.Parsed;
  /** Span of the whole document (from its first content to its end). */
  span: Span;
  /** The document as JSON, or undefined when it could not be converted (syntax or alias errors). */
  value: Json | undefined;
}

export interface AppSetDoc extends YamlDoc {
  value: { [key: string]: Json };
  /** `metadata.name`, or '' when absent. */
  name: string;
  /** `metadata.namespace`, or '' when absent. */
  namespace: string;
  /**
   * Set when the ApplicationSet is an entry of the argocd-apps chart's `applicationsets` values
   * (kinds/argocdApps.ts): `doc` is then a virtual document holding the values file's own nodes.
   */
  helmValues?: HelmValuesOrigin;
  /**
   * Set when the document is a patch of an ApplicationSet rather than a whole one (a kustomize patch,
   * a values override): why, in words (validate/partial.ts). Required fields are not asked of it and
   * it is not expanded on its own.
   */
  partial?: string;
  /**
   * Set when the document is a kustomize base whose `spec.generators` an overlay replaces whole
   * (validate/partial.ts): its generators never reach Argo CD, so they are not checked.
   */
  generatorsReplaced?: boolean;
}

/** What the values file says about one entry, kept for messages. */
export interface HelmValuesOrigin {
  /** `map` (chart 2.x) or `list` (chart 1.x). */
  form: 'map' | 'list';
  /** JSON path of the entry in the values document, e.g. `['argocd-apps', 'applicationsets', 'guestbook']`. */
  path: (string | number)[];
}
