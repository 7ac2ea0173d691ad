/**
 * The quick fix for `appset/template-in-structure`: Go template control flow written in the YAML
 * structure of `spec.template` (`{{- if .autosync }}` lines, as in a Helm chart) moves to
 * `spec.templatePatch`, the one place the controller renders structure per Application (argo-cd
 * `applicationset/controllers/template/patch.go`: the rendered patch is strategic-merged into the
 * Application). Each conditional region moves with the keys above it (`spec:`, `source:`, …), so the
 * patch puts the fields exactly where they were; the rest of the template stays.
 *
 * templatePatch is only rendered with `goTemplate: true`, so a fasttemplate ApplicationSet is switched
 * to goTemplate and its `{{name}}` tags become `{{ .name }}` (dotted names such as
 * `{{metadata.labels.env}}` are the same nested fields in goTemplate mode). When a tag cannot be
 * converted safely (`{{path[0]}}`, a key with `-`), when control flow sits outside `spec.template`,
 * when a region lies inside a list item, or when a templatePatch already exists, no fix is offered:
 * the edit would not keep the meaning.
 *
 * Works on lines: a document with control flow in its structure does not parse as YAML.
 */
import type { Span } from '../../types';

const CONTROL = /^[ \t]*\{\{-?\s*(if|else|end|range|with)\b[^\n]*\}\}[ \t]*$/;
const OPEN = /^[ \t]*\{\{-?\s*(if|range|with)\b/;
const RANGE = /^[ \t]*\{\{-?\s*range\b/;
const END = /^[ \t]*\{\{-?\s*end\b/;
const KEY_ONLY = /^[ \t]*[\w.-]+:[ \t]*(#.*)?$/;
const CONDITION = /^[ \t]*\{\{-?\s*(?:if|with)\s+(.*?)\s*-?\}\}[ \t]*$/;
const FAST_TAG = /\{\{\s*([A-Za-z_][\w]*(?:\.[\w]+)*)\s*\}\}/g;

interface Line {
  text: string;
  start: number;
  indent: number;
  blank: boolean;
  control: boolean;
}

interface Region {
  open: number;
  end: number;
  /** The pipeline an `if`/`with` tests. */
  cond: string;
  /** Lines of the keys above the region, outermost first. */
  ancestors: number[];
}

export interface PatchFix {
  title: string;
  /** The document's lines replaced (whole lines, from the document's first line to its last). */
  span: Span;
  newText: string;
}

export function moveToTemplatePatch(text: string, doc: Span): PatchFix | undefined {
  const { from, to, lines } = documentLines(text, doc);
  const block = templateBlock(lines);
  if (!block) return undefined;
  const { specAt, specEnd, S, tAt, tEnd, T, gAt } = block;
  const regions = regionsOf(lines, tAt, tEnd);
  if (!regions) return undefined;
  const moved = withAncestors(lines, regions, tAt, T);
  if (!moved) return undefined;
  // goTemplate: templatePatch is rendered only in goTemplate mode.
  const goTemplate = gAt >= 0 && /^[ \t]*goTemplate:[ \t]*true\b/.test(lines[gAt].text);
  const patch = patchLines(lines, regions, moved, S, T);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!moved.has(i)) {
      if (i === gAt && !goTemplate) out.push(`${' '.repeat(S)}goTemplate: true`);
      else {
        const c = i > specAt && i < specEnd ? convert(lines[i].text, goTemplate) : lines[i].text;
        if (c === undefined) return undefined;
        out.push(c);
      }
      if (i === specAt && gAt < 0) out.push(`${' '.repeat(S)}goTemplate: true`);
    }
    // After the template block.
    if (i === tEnd - 1) out.push(`${' '.repeat(S)}templatePatch: |`, ...patch);
  }
  return {
    title: goTemplate
      ? 'Move the conditional fields to spec.templatePatch'
      : 'Move the conditional fields to spec.templatePatch (and switch to goTemplate: {{name}} → {{ .name }})',
    span: { start: from, end: to },
    newText: out.join('\n'),
  };
}

/** The lines of the document at `doc`, from its first line to the next document marker. */
function documentLines(text: string, doc: Span): { from: number; to: number; lines: Line[] } {
  const from = text.lastIndexOf('\n', doc.start - 1) + 1;
  // To the next document marker: the parser's span of a document it could not read may stop early.
  const marker = /^(---|\.\.\.)[ \t]*$/m;
  const rest = text.slice(from);
  const m = marker.exec(rest.slice(rest.indexOf('\n') + 1));
  let to = m ? from + rest.indexOf('\n') + 1 + m.index - 1 : text.length;
  if (to < from) to = from;
  while (to > from && /\s/.test(text[to - 1])) to--;
  const lines: Line[] = [];
  let at = from;
  for (const raw of text.slice(from, to).split('\n')) {
    const t = raw.replace(/\r$/, '');
    lines.push({
      text: t,
      start: at,
      indent: t.length - t.trimStart().length,
      blank: !t.trim() || t.trimStart().startsWith('#'),
      control: CONTROL.test(t),
    });
    at += raw.length + 1;
  }
  return { from, to, lines };
}

const content = (l: Line) => !l.blank && !l.control;

/**
 * Where spec (`specAt` to `specEnd`, its children at indent `S`), its template (`tAt` to `tEnd`, its
 * children at `T`) and goTemplate (`gAt`) are; undefined when the template cannot take a patch.
 */
function templateBlock(
  lines: Line[],
): { specAt: number; specEnd: number; S: number; tAt: number; tEnd: number; T: number; gAt: number } | undefined {
  const specAt = lines.findIndex((l) => /^spec:[ \t]*(#.*)?$/.test(l.text));
  if (specAt < 0) return undefined;
  const S = lines.slice(specAt + 1).find(content)?.indent;
  if (!S) return undefined;
  // spec's own children: where template, goTemplate and templatePatch are.
  let specEnd = lines.findIndex((l, i) => i > specAt && content(l) && l.indent === 0);
  if (specEnd < 0) specEnd = lines.length;
  const child = (i: number) => content(lines[i]) && lines[i].indent === S;
  const keyAt = (name: string) => {
    for (let i = specAt + 1; i < specEnd; i++) if (child(i) && new RegExp(`^[ \\t]*${name}:`).test(lines[i].text)) return i;
    return -1;
  };
  const tAt = keyAt('template');
  if (tAt < 0 || keyAt('templatePatch') >= 0 || !KEY_ONLY.test(lines[tAt].text)) return undefined;
  let tEnd = specEnd;
  for (let i = tAt + 1; i < specEnd; i++)
    if (content(lines[i]) && lines[i].indent <= S) {
      tEnd = i;
      break;
    }
  // Control lines just before the next spec key that close a region still belong to the template.
  if (lines.some((l, i) => l.control && (i < tAt || i >= tEnd))) return undefined;
  const T = lines.slice(tAt + 1, tEnd).find(content)?.indent;
  if (T === undefined || T <= S) return undefined;
  return { specAt, specEnd, S, tAt, tEnd, T, gAt: keyAt('goTemplate') };
}

/**
 * Top-level regions: an opening `if`/`with` line to its matching end (no `else` at their level:
 * the keys above would belong to one branch only; no `range`: it repeats what it holds).
 */
function regionsOf(lines: Line[], tAt: number, tEnd: number): Region[] | undefined {
  const regions: Region[] = [];
  let depth = 0;
  let open = -1;
  for (let i = tAt + 1; i < tEnd; i++) {
    const l = lines[i];
    if (!l.control) continue;
    if (OPEN.test(l.text)) {
      if (depth === 0 && RANGE.test(l.text)) return undefined;
      if (depth++ === 0) open = i;
    } else if (END.test(l.text)) {
      if (depth === 0) return undefined;
      if (--depth === 0) {
        const cond = CONDITION.exec(lines[open].text)?.[1]?.trim();
        if (!cond || cond.includes(':=') || cond.includes('=')) return undefined;
        regions.push({ open, end: i, cond, ancestors: [] });
      }
    } else if (depth === 1) return undefined; // else at the region's level
  }
  if (depth !== 0 || !regions.length) return undefined;
  return regions;
}

/** The lines the regions move (each region's `ancestors` filled in); undefined when a key above one is not a plain key. */
function withAncestors(lines: Line[], regions: Region[], tAt: number, T: number): Set<number> | undefined {
  const moved = new Set<number>();
  for (const r of regions) {
    for (let i = r.open; i <= r.end; i++) moved.add(i);
    const inner = lines.slice(r.open + 1, r.end).filter(content);
    if (!inner.length) continue;
    // The keys above the region, up to the template's children (`spec:`, `source:`, `helm:` …).
    let need = Math.min(...inner.map((l) => l.indent));
    for (let i = r.open - 1; i > tAt && need > T; i--) {
      const l = lines[i];
      if (!content(l) || l.indent >= need) continue;
      if (!KEY_ONLY.test(l.text)) return undefined; // a list item or an inline value: a patch would replace it whole
      r.ancestors.unshift(i);
      need = l.indent;
    }
  }
  return moved;
}

/** The text of the patch: the regions and the keys above them, each key guarded by its regions' conditions. */
function patchLines(lines: Line[], regions: Region[], moved: Set<number>, S: number, T: number): string[] {
  // A key of the patch must not render empty when its conditions are false (`spec:` alone is
  // `spec: null`, which the strategic merge reads as "delete spec"): each key is guarded by the
  // conditions of the regions below it, unless its parent's guard is the same.
  const below = new Map<number, Region[]>();
  for (const r of regions) for (const k of r.ancestors) below.set(k, [...(below.get(k) ?? []), r]);
  const guards = new Map<number, { openText: string; last: number }>();
  const lifted = new Set<Region>();
  for (const r of regions) {
    r.ancestors.forEach((k, depthOf) => {
      const rs = below.get(k)!;
      const parent = depthOf > 0 ? below.get(r.ancestors[depthOf - 1])! : undefined;
      if (guards.has(k) || (parent && parent.length === rs.length)) return;
      if (rs.length === 1) {
        // One region below: its own if/with moves up around the keys.
        lifted.add(rs[0]);
        guards.set(k, { openText: lines[rs[0].open].text.trim(), last: rs[0].end });
      } else guards.set(k, { openText: `{{- if or ${rs.map((x) => `(${x.cond})`).join(' ')} }}`, last: Math.max(...rs.map((x) => x.end)) });
    });
  }
  const pad = ' '.repeat(S + 2);
  const keep = new Set(regions.flatMap((r) => r.ancestors));
  const liftedLines = new Set([...lifted].flatMap((r) => [r.open, r.end]));
  const patch: string[] = [];
  const closes: number[] = [];
  const emit = (t: string, indent: number) => patch.push(t ? pad + ' '.repeat(indent) + t : '');
  for (const i of [...new Set([...keep, ...moved])].sort((x, y) => x - y)) {
    const l = lines[i];
    const g = guards.get(i);
    if (g) {
      emit(g.openText, Math.max(0, l.indent - T));
      closes.push(g.last);
    }
    if (!liftedLines.has(i)) {
      const body = l.text.slice(Math.min(T, l.indent));
      patch.push(body ? pad + body : '');
    }
    while (closes.length && closes[closes.length - 1] === i) {
      closes.pop();
      emit('{{- end }}', 0);
    }
  }
  return patch;
}

/** A line of the template in goTemplate syntax (`{{name}}` → `{{ .name }}`); undefined when a tag is not a plain parameter. */
function convert(s: string, goTemplate: boolean): string | undefined {
  if (goTemplate || !s.includes('{{')) return s;
  let bad = false;
  const out = s.replace(/\{\{[^}]*\}\}/g, (tag) => {
    FAST_TAG.lastIndex = 0;
    const m = FAST_TAG.exec(tag);
    if (!m || m[0] !== tag) {
      bad = true;
      return tag;
    }
    return `{{ .${m[1]} }}`;
  });
  return bad ? undefined : out;
}
