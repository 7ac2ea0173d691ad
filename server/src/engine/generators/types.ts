/** What every generator receives and returns. */
import type { FileContext } from '../service/context';
import type { JsonPath } from '../yaml/document';
import type { ParamSet } from './params';

export interface GenContext {
  file: FileContext;
  goTemplate: boolean;
  options: string[];
  /** Namespace of the ApplicationSet (cluster Secrets are looked up there). */
  namespace: string;
  /** Notes for the preview header (working tree used, samples used, …), de-duplicated. */
  notes: Set<string>;
  /** Set when the preview cannot be exact. */
  inexact: { value: boolean };
  /** Non-fatal findings (information/warnings) with their path. */
  findings: { code: string; severity: 'error' | 'warning' | 'information'; message: string; path: JsonPath }[];
  /** Upper bound on parameter sets any one generator may produce. */
  maxParams: number;
  /** Parameter sets produced per generator entry (JSON path joined with '/'), for descriptions. */
  counts: Map<string, number>;
}

/** A failure the controller would report, with Argo CD's error text. */
export class GeneratorError extends Error {
  constructor(
    message: string,
    readonly path: JsonPath,
    readonly code = 'generator/error',
  ) {
    super(message);
  }
}

export type Generate = (spec: Record<string, unknown>, ctx: GenContext, path: JsonPath) => ParamSet[];
