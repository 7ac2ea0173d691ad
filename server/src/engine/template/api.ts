/**
 * Implementation of the public API in index.ts. (Placeholder signatures: the template-engine work
 * replaces the bodies; keep the signatures.)
 */
import type { Params } from './values';
import type { RenderOptions, RenderReport } from './index';

/** A param reference found by static analysis, with its position inside the template string. */
export interface ParamRef {
  /** Path from the root, e.g. ['metadata', 'labels', 'tier'] for `.metadata.labels.tier` or `index .metadata.labels "tier"`. In fasttemplate mode, a single flat key. */
  path: string[];
  offset: number;
  length: number;
}

export const NON_DETERMINISTIC_FUNCTIONS: ReadonlySet<string> = new Set();

/** Renders one string as Argo CD's `Render.Replace` does. Throws TemplateError. */
export function renderString(template: string, params: Params, opts: RenderOptions, report?: RenderReport): string {
  void template; void params; void opts; void report;
  throw new Error('renderString: not implemented yet');
}

/**
 * Renders every string and object key of a JSON-like value (Argo CD's RenderTemplateParams walk):
 * entries whose value is null are dropped, null array items kept, numbers/bools copied. Empty params
 * return the value untouched. Throws TemplateError (first error).
 */
export function renderValue(value: unknown, params: Params, opts: RenderOptions, report?: RenderReport): unknown {
  void value; void params; void opts; void report;
  throw new Error('renderValue: not implemented yet');
}

/** Params referenced by a template string. Never throws: unparsable templates yield what was found. */
export function referencedParams(template: string, goTemplate: boolean): ParamRef[] {
  void template; void goTemplate;
  return [];
}

/** Checks goTemplateOptions; returns the invalid entries (each would panic the controller). */
export function validateOptions(options: readonly string[]): string[] {
  return options.filter((o) => !/^missingkey=(default|invalid|zero|error)$/.test(o));
}
