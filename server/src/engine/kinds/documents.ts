/**
 * What a document is, above the YAML reader: an ApplicationSet among a file's documents (`AppSetDoc`),
 * whole or from the argocd-apps chart's values, and a file read with its ApplicationSets (`ParsedFile`,
 * kinds/file.ts). The reader (`engine/yaml/`) hands on YAML documents (`YamlDoc`) and knows nothing of these.
 */
import type { Json } from '../types';
import type { YamlDoc, YamlFile } from '../yaml';

/** A file read (engine/yaml/) with the ApplicationSets among its documents (kinds/file.ts). */
export interface ParsedFile extends YamlFile {
  appsets: AppSetDoc[];
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
