/**
 * Where a schema error stands in the document. ajv reports the failing value as a JSON pointer
 * (`instancePath`, RFC 6901), so this is one of the two places a finding's place starts from a path
 * rather than from the located fields (the other: the node under the cursor, `yaml/document.ts` `pathAt`;
 * ARCHITECTURE.md). The pointer is resolved in one walk down the located fields (`fields/place.ts` `sub`),
 * each step from the node the previous one held, so the error's field carries its place like every
 * other field, and the schema findings move one step from there (a missing or unknown key below it).
 */
import type { Json } from '../types';
import type { JsonPath } from '../yaml';
import type { AppSetDoc } from '../kinds';
import { fieldsOf } from '../fields/appset';
import { isObj } from '../objects';
import { sub, type Field } from '../fields/place';

/**
 * The field of `doc` an ajv `instancePath` names, with its JSON path. A segment is a list index when
 * the value it steps into is a list (what ajv validated: `value`, nulls stripped), else a key.
 */
export function instanceAt(doc: AppSetDoc, pointer: string, value: Json): { path: JsonPath; at: Field } {
  const path: JsonPath = [];
  let at = fieldsOf(doc).root;
  if (!pointer) return { path, at };
  let cur: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur) && /^\d+$/.test(seg)) {
      path.push(Number(seg));
      at = sub(at, Number(seg));
      cur = cur[Number(seg)];
    } else {
      path.push(seg);
      at = sub(at, seg);
      cur = isObj(cur) && Object.prototype.hasOwnProperty.call(cur, seg) ? cur[seg] : undefined;
    }
  }
  return { path, at };
}
