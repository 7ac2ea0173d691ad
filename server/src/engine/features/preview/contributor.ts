/**
 * The preview feature module: what the generators produce, shown where the user writes them.
 * - diagnostics: generator/render failures at the exact place (Argo CD's error text), and the rules over the
 *   generated Applications (generators/generatedApps.ts, the `generator/` home): Applications
 *   the controller would skip, params missing from some parameter sets, the in-cluster trap;
 * - code lenses over `generators:` and each top-level generator (`540 Applications · 12 clusters × 45 services`);
 * - hovers on a generator (its Applications) and on a template string (its value per Application);
 */
import type { AppSetContext, FeatureContributor } from '../context';
import type { CodeLens } from '../../types';
import { pathAt, type JsonPath } from '../../yaml';
import { fieldsOf } from '../../fields/appset';
import { has, valueAt } from '../../generators/params';
import { destinationOf } from '../../expand/expand';
import { generatorHoverContent } from './generatorHover';
import { inClusterTrap, invalidApps, missingParams } from '../../generators/generatedApps';
import { childGeneratorHover, clusterSelectorHover } from './scopedHover';
import type { Expansion, GeneratedApp } from '../../expand/types';
import { Commands } from '@appset-tools/protocol';
import { groupBySite, type Occurrence } from '../../diagnostics/findings';
import { emptySelectorFixes } from './emptySelectorFix';
import { cellText, fits, fittedTable, HOVER_ROWS, moreLine, sampleRows } from '../hoverTable';

export const previewContributor: FeatureContributor = {
  name: 'preview',

  diagnostics(ctx) {
    const exp = ctx.expansion();
    const total = exp.paramSets ?? exp.apps.length;
    const occ: Occurrence[] = [];
    for (const p of exp.problems) {
      // Structural mistakes are already explained by validation (appset/matrix-children, appset/merge-keys,
      // appset/child-generator-kinds, appset/nesting-depth); the controller's wording would only repeat them.
      if (p.structural) continue;
      // The problem is already a finding (made by `finding()` in expand/): only what grouping reads is kept.
      const { path: _path, structural: _structural, ...o } = p;
      occ.push(o);
    }
    // One finding per code and site, however many parameter sets meet it.
    const out = groupBySite(occ, total);
    out.push(...invalidApps(ctx, exp.apps, total));
    out.push(...missingParams(ctx, exp.apps));
    out.push(...inClusterTrap(ctx, exp.apps));
    return out;
  },

  codeActions: (ctx, _span, diagnostics) => emptySelectorFixes(ctx, diagnostics),

  codeLenses(ctx) {
    const exp = ctx.expansion();
    const view = fieldsOf(ctx.doc);
    // `generators` not written: the lens sits on the nearest key around it (`spec:`).
    const gensKey = view.generators.keyRange;
    if (!gensKey) return [];
    const lenses: CodeLens[] = [];
    const cmd = (offset: number) => ({ id: Commands.showPreview, title: 'Preview generated Applications', args: [ctx.file.uri, offset] });
    const n = exp.apps.length;
    const desc = exp.generators.map((g) => g.description).join(' + ');
    // What matters first (split editors cut lenses at about 40 characters): the count, whether it is
    // approximate, and for none the reason; the generators' description after.
    const count = `${n}${exp.capped ? '+' : ''} Application${n === 1 ? '' : 's'}${exp.exact ? '' : ' · approximate'}`;
    const title = n ? `${count}${desc ? ' · ' + desc : ''}` : `${count}${noneWhy(ctx, exp)}${desc ? ' · ' + desc : ''}`;
    lenses.push({
      span: gensKey,
      title,
      command: cmd(gensKey.start),
      tooltip: n ? title : noneTip(exp),
    });
    const entries = view.generatorList;
    if (entries.length > 1) {
      entries.forEach((entry, i) => {
        const span = entry.valueRange;
        if (!span) return;
        const count = exp.apps.filter((a) => a.generatorIndex === i).length;
        lenses.push({
          span: { start: span.start, end: span.start },
          title: `${count} Application${count === 1 ? '' : 's'}`,
          command: cmd(span.start),
        });
      });
    }
    return lenses;
  },

  hover(ctx, offset) {
    // The node-at-offset door: the fields around the cursor come with it (`trail`), none is looked up again.
    const cursor = pathAt(ctx.doc.doc, offset);
    const { path, trail } = cursor;
    const exp = ctx.expansion();
    if (path[0] !== 'spec') return undefined;
    const scoped = clusterSelectorHover(ctx, cursor) ?? childGeneratorHover(ctx, cursor);
    if (scoped) return scoped;
    const about = generatorHoverContent(path, exp);
    if (about) {
      // `about.path` is the part of the cursor's path the hover is about (the element, the selector, the entry).
      const whole = trail[about.path.length];
      const span = trail[path.length].key ?? whole.value ?? whole.key ?? ctx.doc.span;
      return { span, markdown: appsTable(about.title, about.apps, about.extra, exp.notes) };
    }
    if (path[1] === 'template' && path.length > 2) {
      const n = trail[path.length];
      const raw = valueAt(ctx.doc.value, path);
      if (typeof raw !== 'string' || !raw.includes('{{') || !n.value) return undefined;
      return { span: n.value, markdown: valuesTable(raw, path.slice(2), exp.apps) };
    }
    return undefined;
  },
};

/** A few words for the place an empty generator's finding is on (the lens is read within 40 characters). */
const EMPTY_WORDS: Record<string, (e: NonNullable<Expansion['empties']>[number]) => string> = {
  selector: (e) => (e.data ? 'its selector keeps none' : 'its selector matches no cluster'),
  directories: () => 'no directory matches',
  files: () => 'no file matches',
  elements: () => 'its list is empty',
};

/** Why no Application comes out, in a few words after the count: the first error, else the first empty generator. */
function noneWhy(ctx: AppSetContext, exp: Expansion): string {
  const error = exp.problems.find((p) => p.severity === 'error');
  if (error) return ` · ${error.code.startsWith('template/') ? 'every render fails' : 'the generators fail'} (${error.code})`;
  const empty = exp.empties?.find((e) => !e.covered) ?? exp.empties?.[0];
  if (empty) return ` · ${EMPTY_WORDS[String(empty.path[empty.path.length - 1])]?.(empty) ?? 'the generators yield nothing'}`;
  return ctx.doc.value.spec ? '' : ' · no spec';
}

/** The whole reason, for the lens's tooltip. */
function noneTip(exp: Expansion): string | undefined {
  const error = exp.problems.find((p) => p.severity === 'error');
  return error?.message ?? exp.empties?.[0]?.reason ?? exp.notes[0];
}

/** The Applications a generator part produces: data first, in a table narrow enough for a hover (features/hoverTable.ts). */
function appsTable(title: string, apps: GeneratedApp[], extra: string[], notes: string[]): string {
  // Across the clusters (destination server or name): each one's first Application, then the rest in order.
  const { shown, perGroup } = sampleRows(apps, (a) => destinationOf(a.app));
  // One column per label key (the value under the key's name is shorter than `key=value`), after the destination.
  const keys = [...new Set(shown.flatMap((a) => Object.keys(a.labels)))];
  const { table, left } = fittedTable([
    { head: 'Application', cells: shown.map((a) => nameCell(a) + (a.invalid ? ' ⚠' : '')) },
    { head: 'destination', cells: shown.map((a) => cellText(destinationOf(a.app), 40)) },
    ...keys.map((k) => ({ head: cellText(k, 24), cells: shown.map((a) => (has(a.labels, k) ? cellText(a.labels[k], 24) : '')) })),
  ]);
  const sampled = perGroup ? ' (one per cluster first)' : '';
  return [`**${title}**`, ...extra, table, footer(apps.length, shown.length, left, sampled), ...notes.map((n) => `_${n}_`)]
    .filter(Boolean)
    .join('\n\n');
}

/** A template string's value in each Application: a table when names and values fit side by side, else a list. */
function valuesTable(raw: string, rel: JsonPath, apps: GeneratedApp[]): string {
  const shown = apps.slice(0, HOVER_ROWS);
  const values = apps.map((a) => String(valueAt(a.app, rel) ?? '(absent)'));
  const distinct = new Set(values).size;
  const head = `**\`${cellText(raw, 60)}\`** in each Application (${distinct === 1 ? `one value in all ${apps.length}` : `${distinct} distinct values in ${apps.length}`})`;
  const columns = [
    { head: 'Application', cells: shown.map(nameCell) },
    { head: 'value', cells: shown.map((_, i) => '`' + cellText(values[i], 60) + '`') },
  ];
  // A long value wraps inside a narrow column: each pair on its own line reads better.
  const body = fits(columns)
    ? fittedTable(columns).table
    : shown.map((a, i) => `- ${nameCell(a)}: \`${cellText(values[i], 200)}\``).join('\n');
  return [head, body, footer(apps.length, shown.length, [])].filter(Boolean).join('\n\n');
}

/** What the hover leaves out, and where it is all shown. */
function footer(total: number, shown: number, left: string[], how = ''): string {
  const more = moreLine(total, shown, `Preview generated Applications shows all ${total}`, how);
  const cols = left.length ? `Left out to fit the hover: ${left.join(', ')} (the preview shows them).` : '';
  return [more, cols].filter(Boolean).join('\n\n');
}

/**
 * An Application's name as a link to where its parameter set came from (the first source); every source,
 * with its place, is the link's title. The places are not a column of their own: a hover is narrow.
 */
function nameCell(a: GeneratedApp): string {
  const name = '`' + cellText(a.name || '(no name)', 60) + '`';
  const first = a.sources?.find((s) => s.location?.file && s.where);
  if (!first?.location) return name;
  const line = /:(\d+)$/.exec(first.where ?? '')?.[1];
  const file = first.location.file;
  const uri = file.startsWith('/') ? 'file://' + encodeURI(file) : file;
  const title = (a.sources ?? [])
    .map((s) => (s.where ? `${s.label} (${s.where})` : s.label))
    .join(' + ')
    .replace(/["\\]/g, "'");
  return `[${name}](${uri}${line ? `#L${line}` : ''} "${title}")`;
}
