/**
 * What the install scan lets the readers of single install forms (helmCharts.ts, terraform.ts) do with
 * what they read: they cannot import the scan's readers (those import them), so the scan hands them this
 * sink (sinkOf.ts), and every piece of evidence still goes through the one reading of Helm values and
 * settings (scanHelmValues.ts, controllerInputs.ts) into the one collector (collector.ts).
 */
import type { Json, Span } from '../types';
import type { IndexedFile, WorkspaceIndex } from '../workspace/index';
import type { JsonPath } from '../yaml';

/** Where a finding sits (collector.ts `Site`): a YAML path in a document of a file, or a span of a file that is not YAML. */
export interface FormSite {
  file: IndexedFile;
  docIndex: number;
  path: JsonPath;
  inner: boolean;
  /** The span, for a file that is not YAML (`docIndex` -1). */
  span?: Span;
}

/** The install a reading belongs to, and its place in Helm's merge order (later ranks of a chain win). */
export interface Placement {
  key: string;
  namespace?: string;
  chain?: string;
  rank?: number;
}

export interface FormSink {
  readonly workspace: WorkspaceIndex;
  /** A values file the install reads (at `rank` of `chain`), read as its own when the scan reaches it. */
  select(path: string, at: Placement & { chain: string; rank: number }, who: string): void;
  /** A file the install does not pass to Helm (kustomize `valuesMerge: replace`): not read at all. */
  skip(path: string): void;
  /** The install exists, whatever it sets. */
  install(site: FormSite, at: Placement): void;
  /** Argo CD chart values (`configs.params`, `applicationSet.extraArgs/extraEnv`, `global.env`). */
  values(site: FormSite, at: Placement, values: Json, who: string, known?: boolean): void;
  /** A Helm `--set` of `configs.params.<key>`. */
  param(site: FormSite, at: Placement, key: string, value: string, who: string): void;
  /** A Helm `--set` of `applicationSet.extraArgs[i]`. */
  arg(site: FormSite, at: Placement, value: string, who: string): void;
  /** Something that may configure the controller and is not read: the verdict is then unknown. */
  unread(site: FormSite, at: Placement, description: string): void;
  /** Something read and known not to count. */
  ignored(site: FormSite, at: Placement, description: string): void;
  /** Where the enabling fix writes Helm values (`path` inside the document). */
  target(site: FormSite, at: Placement, path: JsonPath): void;
  /** Parses a YAML text held in a string (inline values), bounded as the scan bounds every inline text (collector.ts `parseInline`). */
  parse(text: string): Json[];
}
