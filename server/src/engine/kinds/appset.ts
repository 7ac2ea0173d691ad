/**
 * The one test of "is this an ApplicationSet", in its two forms: on a read value (`isAppSetValue`,
 * what the controller's informer selects: `kind: ApplicationSet` in the `argoproj.io` group) and on
 * a text before or without reading it (`appSetKindAt`: a `kind: ApplicationSet` line, also in a file
 * that does not parse or that another tool renders). Every other module asks these two.
 */
import type { Json } from '../types';
import { keyLineWord } from '../yaml';

/**
 * A `kind: ApplicationSet` line (the value may stand on the next, indented line): what
 * `/^[ \t]*kind:[ \t]*(?:\r?\n[ \t]+)?["']?ApplicationSet\b/m` finds, read at each `kind:` by character codes
 * (yaml/charClasses.ts keyLineWord). Every analysis asks it first (and the workspace's reading of each file), and
 * a pattern is compiled in each fresh process at its first use, twice (issue 39, tenth pass).
 */
const kindLine = (text: string) => keyLineWord(text, 'kind:', 'ApplicationSet', true);

/** Where the word `ApplicationSet` of the text's first `kind: ApplicationSet` line is, or undefined. */
export function appSetKindAt(text: string): { start: number; end: number } | undefined {
  const start = kindLine(text);
  return start < 0 ? undefined : { start, end: start + 'ApplicationSet'.length };
}

/** The text declares an ApplicationSet (it may still not parse as one). */
export function declaresAppSet(text: string): boolean {
  return kindLine(text) >= 0;
}

/** A read YAML value is an ApplicationSet. */
export function isAppSetValue(v: unknown): v is { [key: string]: Json } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return o.kind === 'ApplicationSet' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('argoproj.io/');
}
