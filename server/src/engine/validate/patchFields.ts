/**
 * Fields a templatePatch gives the Application that an Application does not have. The controller
 * applies the rendered patch to the Application's JSON and decodes the result into the Application
 * type (argo-cd applicationset/controllers/template/patch.go `applyTemplatePatch`: a strategic merge
 * patch, which adds a key the Application lacks as it is, then `json.Unmarshal` into
 * v1alpha1.Application), and that decoding drops unknown fields without a word: a patch's
 * `spec.syncOptions` (it belongs under `syncPolicy`) never applies.
 *
 * Fields written in `spec.template` or a generator's own template are the schema check's (the CRD
 * prunes them from the ApplicationSet); this reports only what the patch adds, on the templatePatch,
 * with the Applications it reaches. Under `spec` only: free-form maps and values (labels, Helm
 * `valuesObject`) have no field names to check.
 *
 * The `appset/` prefix's home (codeLists/homes.ts) holds the rule; the generated Applications come from
 * the expansion, a floor above, through the small `PatchedOf` (features/templates/contributor.ts hands
 * the features' context over).
 */
import type { EngineDiagnostic, Json, Source } from '../types';
import type { AppSetDoc } from '../kinds';
import { isObj } from '../objects';
import { finding } from '../diagnostics/codes';
import { fieldsOf } from '../fields/appset';
import { schemaAt } from './schemaIndex';
import { affectedOf, affectedText, relatedOf } from '../diagnostics/findings';

/** A generated Application as the rule reads it (the expansion, a floor above, hands it over). */
export interface PatchedApp {
  app: { [key: string]: Json };
  name: string;
  readonly sources?: Source[];
}

/** What the rule reads: the ApplicationSet and its expansion (the features' context satisfies it as it is). */
export interface PatchedOf {
  doc: AppSetDoc;
  expansion(): { apps: readonly PatchedApp[]; paramSets?: number };
}

const MAX_DEPTH = 20;
const LISTED_FIELDS = 12;

export function patchUnknownFields(ctx: PatchedOf, spec: Record<string, Json>): EngineDiagnostic[] {
  if (typeof spec.templatePatch !== 'string') return [];
  const exp = ctx.expansion();
  if (!exp.apps.length) return [];
  // What the templates write: the main template's spec and every generator's own template spec.
  const written: Json[] = [];
  if (isObj(spec.template) && isObj(spec.template.spec)) written.push(spec.template.spec);
  for (const g of Array.isArray(spec.generators) ? spec.generators : [])
    if (isObj(g))
      for (const body of Object.values(g)) {
        const t = isObj(body) ? body.template : undefined;
        if (isObj(t) && isObj(t.spec)) written.push(t.spec);
      }
  const byPath = new Map<string, { apps: PatchedApp[]; expected: string[] }>();
  for (const a of exp.apps) {
    if (!isObj(a.app.spec)) continue;
    for (const u of unknownIn(a.app.spec, ['spec', 'template', 'spec'], written, 'spec', 0)) {
      const entry = byPath.get(u.path) ?? { apps: [], expected: u.expected };
      entry.apps.push(a);
      byPath.set(u.path, entry);
    }
  }
  const view = fieldsOf(ctx.doc);
  const span = view.templatePatch.keySpan;
  const total = exp.paramSets ?? exp.apps.length;
  const out: EngineDiagnostic[] = [];
  for (const [path, { apps, expected }] of byPath) {
    const affected = affectedOf(apps, total);
    const list = expected.slice(0, LISTED_FIELDS).join(', ') + (expected.length > LISTED_FIELDS ? ', …' : '');
    const d = finding(
      'appset/unknown-field',
      `templatePatch sets ${path}, which an Application does not have (expected one of: ${list}): the controller drops it when it decodes the patched Application — ${affectedText(affected)}`,
      span,
    );
    d.affected = affected;
    const related = relatedOf(apps);
    if (related.length) d.related = related;
    out.push(d);
  }
  return out;
}

interface Unknown {
  path: string;
  expected: string[];
}

/** Keys of `value` the schema at `schemaPath` does not know and no template writes at the same place. */
function unknownIn(value: Record<string, Json>, schemaPath: (string | number)[], written: Json[], path: string, depth: number): Unknown[] {
  const node = schemaAt(schemaPath);
  if (!node?.properties || depth > MAX_DEPTH) return [];
  const out: Unknown[] = [];
  for (const key of Object.keys(value)) {
    const inTemplates = written.map((w) => (isObj(w) && Object.prototype.hasOwnProperty.call(w, key) ? w[key] : undefined));
    if (!Object.prototype.hasOwnProperty.call(node.properties, key)) {
      if (node.additionalProperties || inTemplates.some((w) => w !== undefined)) continue;
      out.push({ path: `${path}.${key}`, expected: Object.keys(node.properties).sort() });
      continue;
    }
    const child = value[key];
    const writtenChild = inTemplates.filter((w) => w !== undefined);
    if (isObj(child)) out.push(...unknownIn(child, [...schemaPath, key], writtenChild, `${path}.${key}`, depth + 1));
    else if (Array.isArray(child))
      child.forEach((item, i) => {
        if (!isObj(item)) return;
        const writtenItems = writtenChild.map((w) => (Array.isArray(w) ? w[i] : undefined)).filter((w) => w !== undefined);
        out.push(...unknownIn(item, [...schemaPath, key, i], writtenItems, `${path}.${key}[${i}]`, depth + 1));
      });
  }
  return out;
}
