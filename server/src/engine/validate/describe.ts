/**
 * Words for messages: where a field is (`a rollingSync step`, `spec.template.spec.source.helm`),
 * what a value is (`the number 1.5`, `a list`). "Did you mean" is `engine/didYouMean.ts`.
 */
import type { JsonPath } from '../yaml';
import { isGeneratorKind } from '../rules/generatorKinds';

/** Dotted path with indexes: spec.generators[0].list.elements. */
export function dottedPath(path: JsonPath): string {
  let s = '';
  for (const seg of path) s += typeof seg === 'number' ? `[${seg}]` : s ? `.${seg}` : seg;
  return s || 'the document';
}

/** Where an object sits, in words: `a rollingSync step`, `the list generator`, else the dotted path. */
export function describeLocation(path: JsonPath): string {
  const n = path.length;
  const last = path[n - 1];
  const prev = path[n - 2];
  if (n === 0) return 'the ApplicationSet';
  if (typeof last === 'number' && prev === 'steps' && path[n - 3] === 'rollingSync') return 'a rollingSync step';
  if (typeof last === 'number' && prev === 'matchExpressions') return 'a matchExpressions entry';
  if (typeof last === 'number' && prev === 'generators') {
    return n === 3 ? 'a generator entry' : `a ${String(path[n - 3])} child generator`;
  }
  if (typeof last === 'string' && isGeneratorKind(last) && typeof prev === 'number' && path[n - 3] === 'generators') {
    return `the ${last} generator`;
  }
  return dottedPath(path);
}

/** A value in words for "got …": `the number 1.5`, `a list`, `"abc"`. */
export function describeValue(v: unknown): string {
  if (v === null || v === undefined) return 'nothing (null)';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'string':
      return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 37) + '...' : v)}`;
    case 'number':
      return `the number ${v}`;
    case 'boolean':
      return `the boolean ${v}`;
    case 'object':
      return 'an object';
    default:
      return String(v);
  }
}
