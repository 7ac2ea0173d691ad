/**
 * The generator kinds the controller knows, in the order it visits the kinds of one generator entry
 * (Argo CD `applicationset/generators/generator_spec_processor.go`, GetRelevantGenerators). One home:
 * validation, the generators and the descriptions all read this list.
 */
export const GENERATOR_KINDS = [
  'list',
  'clusters',
  'git',
  'scmProvider',
  'clusterDecisionResource',
  'pullRequest',
  'matrix',
  'merge',
  'plugin',
  // Argo CD 3.6 (PR #26121): after plugin in ApplicationSetGenerator (applicationset_types.go).
  'oci',
] as const;
export type GeneratorKind = (typeof GENERATOR_KINDS)[number];

const KIND_SET: ReadonlySet<string> = new Set(GENERATOR_KINDS);

export function isGeneratorKind(k: unknown): k is GeneratorKind {
  return typeof k === 'string' && KIND_SET.has(k);
}

/** The kinds a generator entry sets (a key present with a non-null value), in the controller's order. */
export function kindsOf(entry: unknown): GeneratorKind[] {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return [];
  const e = entry as Record<string, unknown>;
  // The entry's own keys (one or two: its kind, a post-selector), not every kind asked of it (a callback per
  // kind, for every entry of every ApplicationSet of a file: issue 39), put in the controller's order after.
  const keys = Object.keys(e);
  const out: GeneratorKind[] = [];
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (KIND_SET.has(k) && e[k] !== undefined && e[k] !== null) out.push(k as GeneratorKind);
  }
  if (out.length > 1) out.sort((a, b) => KIND_ORDER.get(a)! - KIND_ORDER.get(b)!);
  return out;
}
const KIND_ORDER: ReadonlyMap<string, number> = new Map(GENERATOR_KINDS.map((k, i) => [k, i]));

/** Kinds that combine child generators; their children may not nest them again beyond one level. */
export const COMBINING_KINDS: readonly GeneratorKind[] = ['matrix', 'merge'];
