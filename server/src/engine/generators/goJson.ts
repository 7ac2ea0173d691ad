/**
 * Go `encoding/json` Marshal of a parameter value, as the merge generator uses it for its keys:
 * map keys sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped, numbers like JavaScript's shortest
 * form (Go's float64 encoder agrees with it for finite numbers).
 */
import { GoStringMap, compareGoStrings } from '@appset-tools/gotemplate';
import { isObj } from '../objects';

export function goJSON(v: unknown, depth = 0): string {
  if (depth > 100) return 'null';
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map((x) => goJSON(x, depth + 1)).join(',')}]`;
  const entries: [string, unknown][] =
    v instanceof GoStringMap ? [...v] : isObj(v) ? Object.keys(v).map((k) => [k, (v as Record<string, unknown>)[k]]) : [];
  entries.sort((a, b) => compareGoStrings(a[0], b[0]));
  return `{${entries.map(([k, x]) => `${quote(k)}:${goJSON(x, depth + 1)}`).join(',')}}`;
}

function quote(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
