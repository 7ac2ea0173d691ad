/**
 * Argo CD's RenderTemplateParams walk (applicationset/utils/utils.go): every string and every
 * object key is rendered on its own; an entry's value is rendered before its key; entries whose
 * value is null are dropped, null array items kept; numbers and booleans are copied.
 * Go iterates maps in random order, so when several entries fail Argo CD reports a random one;
 * we report the first in Go's sorted key order (as the golden renderer does).
 */
import { compareGoStrings } from './format';
import { TemplateError } from './errors';

/** Nesting limit of the walked value (real Application templates are a few levels deep). */
export const MAX_WALK_DEPTH = 1000;

export function walkTemplate(value: unknown, render: (s: string) => string, depth = 0): unknown {
  if (depth > MAX_WALK_DEPTH) throw new TemplateError(`template value nested deeper than ${MAX_WALK_DEPTH} levels`, 'exec', '');
  if (typeof value === 'string') return render(value);
  if (Array.isArray(value)) return value.map((x) => (x === null || x === undefined ? null : walkTemplate(x, render, depth + 1)));
  if (value instanceof Map) {
    const out = new Map<string, unknown>();
    for (const k of [...value.keys()].map(String).sort(compareGoStrings)) {
      const v = value.get(k);
      if (v === null || v === undefined) continue;
      const rendered = walkTemplate(v, render, depth + 1);
      out.set(render(k), rendered);
    }
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(obj).sort(compareGoStrings)) {
      const v = obj[k];
      if (v === null || v === undefined) continue;
      const rendered = walkTemplate(v, render, depth + 1);
      Object.defineProperty(out, render(k), { value: rendered, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}
