/**
 * The rule `appset/constant-name`: an Application name that renders the same for every parameter set of
 * a generator that yields several by design. Read from the ApplicationSet alone (no expansion); the
 * features' template checks call it only when the offline expansion cannot show the duplicates itself
 * (fewer than two Applications), where generator/duplicate-name does.
 */
import type { EngineDiagnostic } from '../types';
import type { AppSetDoc } from '../kinds';
import { isObj } from '../objects';
import { finding } from '../diagnostics/codes';
import { fieldsOf } from '../fields/appset';

/**
 * A literal Application name under a generator that yields several parameter sets by design (a git
 * pattern with a wildcard, a list of several elements, anywhere in a matrix or merge): every
 * Application gets the same name, and the controller reports "ApplicationSet contains applications
 * with duplicate name" and skips them all (applicationset/controllers: the duplicate check before
 * create/update). Only said when the offline expansion cannot show it (fewer than two Applications),
 * where generator/duplicate-name does.
 */
export function constantName(ctx: { doc: AppSetDoc }, spec: Record<string, unknown>): EngineDiagnostic[] {
  const meta = isObj(spec.template) && isObj(spec.template.metadata) ? spec.template.metadata : undefined;
  const name = meta?.name;
  if (typeof name !== 'string' || !name || typeof spec.templatePatch === 'string') return [];
  if (name.includes('{{')) return constantFromParameters(ctx, spec, name);
  const several = severalByDesign(spec.generators, 0);
  if (!several) return [];
  return [
    finding(
      'appset/constant-name',
      `every Application is named "${name}" (the name uses no parameter), but ${several} yields several parameter sets by design: as soon as it yields two, the controller finds duplicate names and skips every one of them; put a parameter in the name (e.g. {{path.basename}} or {{ .path.basename }})`,
      fieldsOf(ctx.doc).templateName,
    ),
  ];
}

/**
 * A name made only of parameters that one list generator of a matrix sets to the same value in every
 * element, while the matrix's other child yields several parameter sets by design: the matrix pairs
 * each list element with each of the other's (applicationset/generators/matrix.go), so every pair
 * renders the same name, and the controller skips them all as duplicates. Only plain references
 * (`{{app}}`, `{{ .app }}`) are read; anything else in the name and nothing is claimed.
 */
function constantFromParameters(ctx: { doc: AppSetDoc }, spec: Record<string, unknown>, name: string): EngineDiagnostic[] {
  const goTemplate = spec.goTemplate === true;
  const plain = goTemplate ? /\{\{-?\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}/g : /\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}/g;
  const refs = [...name.matchAll(plain)].map((m) => m[1]);
  if (!refs.length || name.replace(plain, '').includes('{{')) return [];
  for (const g of Array.isArray(spec.generators) ? spec.generators.slice(0, 100) : []) {
    const children = isObj(g) && isObj(g.matrix) && Array.isArray(g.matrix.generators) ? g.matrix.generators : undefined;
    if (!children || children.length !== 2 || isObj(g.matrix.template)) continue;
    for (const [i, child] of children.entries()) {
      const list = isObj(child) && isObj(child.list) ? child.list : undefined;
      const elements = list && Array.isArray(list.elements) ? list.elements : [];
      if (!elements.length || !elements.every(isObj) || isObj(list?.template)) continue;
      const first = elements[0] as Record<string, unknown>;
      const same = refs.every((r) => typeof first[r] === 'string' && elements.every((e) => (e as Record<string, unknown>)[r] === first[r]));
      const several = same ? severalByDesign([children[1 - i]], 1) : undefined;
      if (!several) continue;
      const rendered = name.replace(plain, (_, r: string) => String(first[r]));
      return [
        finding(
          'appset/constant-name',
          `every Application is named "${rendered}" (${[...new Set(refs)].join(', ')} ${refs.length === 1 ? 'is' : 'are'} the same in every element of the matrix's list generator), but ${several} yields several parameter sets by design: the matrix pairs each with the list, so as soon as it yields two the controller finds duplicate names and skips every one of them; put a parameter of the other generator in the name`,
          fieldsOf(ctx.doc).templateName,
        ),
      ];
    }
  }
  return [];
}

/** The first generator (in words) that yields several parameter sets by its own definition, not by data. */
function severalByDesign(gens: unknown, depth: number): string | undefined {
  if (!Array.isArray(gens) || depth > 2) return undefined;
  for (const g of gens.slice(0, 100)) {
    if (!isObj(g)) continue;
    // A generator's own template may name its Applications itself.
    const kind = Object.keys(g).find((k) => isObj(g[k]));
    if (!kind) continue;
    const body = g[kind] as Record<string, unknown>;
    if (isObj(body.template) && isObj(body.template.metadata) && body.template.metadata.name !== undefined) continue;
    if (kind === 'list' && Array.isArray(body.elements) && body.elements.length > 1)
      return `the list generator (${body.elements.length} elements)`;
    if (kind === 'git')
      for (const what of ['directories', 'files'] as const) {
        const list = Array.isArray(body[what]) ? (body[what] as unknown[]) : [];
        const wild = list.find((p) => isObj(p) && p.exclude !== true && typeof p.path === 'string' && /[*?[]/.test(p.path));
        if (wild) return `the git generator's pattern "${String((wild as Record<string, unknown>).path)}"`;
      }
    if (kind === 'matrix' || kind === 'merge') {
      const inner = severalByDesign(body.generators, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}
