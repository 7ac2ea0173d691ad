/**
 * The one test of "is this an ApplicationSet", in its two forms: on a read value (`isAppSetValue`,
 * what the controller's informer selects: `kind: ApplicationSet` in the `argoproj.io` group) and on
 * a text before or without reading it (`appSetKindAt`: a `kind: ApplicationSet` line, also in a file
 * that does not parse or that another tool renders). Every other module asks these two.
 */
import type { Json } from '../types';

/**
 * A `kind: ApplicationSet` line (the value may stand on the next, indented line). Anchored at a line
 * start and with no nested repetition, so a test is linear in the text.
 */
const KIND_LINE = /^[ \t]*kind:[ \t]*(?:\r?\n[ \t]+)?["']?ApplicationSet\b/m;

/** Where the word `ApplicationSet` of the text's first `kind: ApplicationSet` line is, or undefined. */
export function appSetKindAt(text: string): { start: number; end: number } | undefined {
  const m = KIND_LINE.exec(text);
  if (!m) return undefined;
  const end = m.index + m[0].length;
  return { start: end - 'ApplicationSet'.length, end };
}

/** The text declares an ApplicationSet (it may still not parse as one). */
export function declaresAppSet(text: string): boolean {
  return KIND_LINE.test(text);
}

/** A read YAML value is an ApplicationSet. */
export function isAppSetValue(v: unknown): v is { [key: string]: Json } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  return o.kind === 'ApplicationSet' && typeof o.apiVersion === 'string' && o.apiVersion.startsWith('argoproj.io/');
}
