/**
 * One finding per authored site. The expansion meets a mistake once per parameter set (a typo in a
 * template of a 24-Application matrix fails 24 renders); the user wrote it once. Occurrences are
 * grouped by code and site into one diagnostic that says how many Applications it hits, names the
 * first few, and points (related information) at the list elements, cluster Secrets and git files
 * their parameter sets came from. The fronts only format what is here (`affected` is structured
 * data, the message carries the same facts in words).
 */
import type { Affected, EngineDiagnostic, RelatedInfo, Severity, Source, Span } from '../types';
import type { DiagnosticCode } from './codes';

/** One parameter set's (or Application's) meeting with a problem. */
export interface Occurrence {
  code: DiagnosticCode;
  severity: Severity;
  /** The message for this one occurrence; the group keeps the first. */
  message: string;
  span: Span;
  /** The Application concerned: its name (or a description of its parameter set) and the sources of its parameter set. */
  who?: { name: string; sources: Source[] };
  data?: unknown;
}

/** Names listed in a message and in `affected.names`. */
export const LISTED_NAMES = 3;
/** Kept in `affected.names` for the fronts (SARIF, JSON) beyond what the message lists. */
const KEPT_NAMES = 20;
/** Related-information entries (one per source) attached to a grouped finding. */
export const MAX_RELATED = 5;

/**
 * Groups occurrences by code and site (span). `total` is the number of parameter sets the
 * expansion saw, the "of" in "in 3 of 24 Applications". Order follows the first occurrence.
 */
export function groupBySite(occurrences: readonly Occurrence[], total: number): EngineDiagnostic[] {
  const groups = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    const key = `${o.code}@${o.span.start}:${o.span.end}`;
    const g = groups.get(key);
    if (g) g.push(o);
    else groups.set(key, [o]);
  }
  const out: EngineDiagnostic[] = [];
  for (const g of groups.values()) {
    const first = g[0];
    const withWho = g.filter((o) => o.who);
    const d: EngineDiagnostic = { code: first.code, severity: worst(g), message: first.message, span: first.span };
    if (first.data !== undefined) d.data = first.data;
    if (withWho.length) {
      const affected = affectedOf(
        withWho.map((o) => o.who!),
        total,
      );
      d.affected = affected;
      d.message = `${first.message} — ${affectedText(affected)}`;
      const related = relatedOf(withWho.map((o) => o.who!));
      if (related.length) d.related = related;
    }
    out.push(d);
  }
  return out;
}

/**
 * Who a finding is about: an Application's name and where its parameter set came from. A generated
 * Application resolves its sources when first read (expand.ts), so these read them only for the first
 * few: a finding about 10,000 Applications must not resolve 10,000 of them in one step.
 */
export interface Who {
  name: string;
  sources?: Source[];
}

/** `affected` for a list of Applications (names and sources, first few kept). */
export function affectedOf(who: readonly Who[], total: number): Affected {
  const sources: Source[] = [];
  const seen = new Set<string>();
  for (const w of who) {
    for (const s of w.sources ?? []) {
      const key = `${s.label}@${s.location?.file ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      sources.push(s);
    }
    if (sources.length >= MAX_RELATED) break;
  }
  return {
    count: who.length,
    of: Math.max(total, who.length),
    names: who.slice(0, KEPT_NAMES).map((w) => w.name),
    sources: sources.slice(0, MAX_RELATED),
  };
}

/** "in 24 of 24 Applications (a, b, c, …)" — or "for Application a" when only one. */
export function affectedText(a: Affected): string {
  const names = a.names.slice(0, LISTED_NAMES).map((n) => n || '(no name)');
  if (a.count === 1 && a.of === 1) return `for ${names[0] ?? 'its one Application'}${a.sources[0] ? ` (from ${a.sources[0].label})` : ''}`;
  const more = a.count > names.length ? ', …' : '';
  return `in ${a.count} of ${a.of} Applications (${names.join(', ')}${more})`;
}

/** Related information: where the first few affected parameter sets came from. */
export function relatedOf(who: readonly Who[]): RelatedInfo[] {
  const out: RelatedInfo[] = [];
  const seen = new Set<string>();
  for (const w of who) {
    for (const s of w.sources ?? []) {
      if (!s.location) continue;
      const key = `${s.location.file}@${s.location.span?.start ?? -1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ location: s.location, message: `${w.name || '(no name)'}: parameter set from ${s.label}` });
      if (out.length >= MAX_RELATED) return out;
    }
  }
  return out;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

function worst(g: readonly Occurrence[]): Severity {
  return g.reduce<Severity>((s, o) => (RANK[o.severity] < RANK[s] ? o.severity : s), g[0].severity);
}

/**
 * Codes that explain a site completely: any other diagnostic inside their span (the generic parse
 * error under "write {{ .service }}", "expected a string" under "quote it") only repeats them
 * in worse words, so it is dropped. The one rule for "one finding per site" across feature modules.
 */
const SUPERSEDING = new Set([
  'yaml/unquoted-template',
  'appset/template-in-structure',
  'yaml/templated-file',
  'template/fasttemplate-syntax',
  'template/gotemplate-syntax',
  'template/needs-index',
]);

/**
 * Drops diagnostics that a superseding finding at the same place already explains. The site keeps
 * the worst consequence, though: a warning that explains an error it hides (Go syntax left as written
 * by fasttemplate in metadata.name, which the API server then rejects) becomes that error and says
 * it, so a gate on errors still stops it. A file another tool renders (information) stays silent.
 */
export function dropSuperseded(diags: EngineDiagnostic[]): EngineDiagnostic[] {
  const over = diags.filter((d) => SUPERSEDING.has(d.code));
  if (!over.length) return diags;
  const raised = new Map<EngineDiagnostic, EngineDiagnostic>();
  const kept = diags.filter((d) => {
    if (SUPERSEDING.has(d.code)) return true;
    const by = over.filter((o) => covers(o, d));
    for (const o of by) {
      const now = raised.get(o) ?? o;
      if (o.severity === 'warning' && RANK[d.severity] < RANK[now.severity])
        raised.set(o, { ...now, severity: d.severity, message: `${now.message}; as a result, ${d.message}` });
    }
    return !by.length;
  });
  return raised.size ? kept.map((d) => raised.get(d) ?? d) : kept;
}

function covers(o: EngineDiagnostic, d: EngineDiagnostic): boolean {
  // Control flow in the YAML structure breaks every syntax and schema check of its document.
  if (o.code === 'appset/template-in-structure' || o.code === 'yaml/templated-file') {
    const doc = (o.data as { doc?: Span } | undefined)?.doc;
    // A file another tool renders is not checked at all; misplaced control flow breaks the document's
    // syntax, so its schema errors and whatever its expansion says are artefacts of the broken structure.
    return !!doc && d.span.start >= doc.start && d.span.start <= doc.end;
  }
  // Overlap, not containment: a parse error may underline the whole action around the bad key.
  return d.span.start < o.span.end && o.span.start < Math.max(d.span.end, d.span.start + 1);
}

/**
 * A document the YAML parser could not read is read by nobody else either: kubectl and Argo CD
 * (sigs.k8s.io/yaml) reject it whole. What the schema, the generators and the templates say about
 * the library's best-effort reading of it ("missing required field template", "the list has no
 * elements") follows from the syntax error, not from the user's ApplicationSet, so only the YAML
 * findings of such a document are kept, and the findings that explain the syntax error (superseding
 * codes: control flow in the structure, an unquoted `{{`) (`broken`: the spans of documents with syntax errors).
 */
export function dropAfterYamlErrors(diags: EngineDiagnostic[], broken: readonly Span[]): EngineDiagnostic[] {
  if (!broken.length) return diags;
  return diags.filter(
    (d) =>
      d.code.startsWith('yaml/') ||
      d.code.startsWith('config/') ||
      SUPERSEDING.has(d.code) ||
      !broken.some((b) => d.span.start >= b.start && d.span.start <= b.end),
  );
}
