/**
 * Hovers scoped to the part of a generator under the cursor, saying what THAT part yields:
 * - a cluster generator's `selector`: which known clusters it matches and which it does not, with
 *   the labels the selector reads (it picks cluster Secrets; it is not a post-selector);
 * - a matrix/merge child: its own parameter sets (the clusters, list elements or git paths behind
 *   them), not the whole matrix's Applications.
 */
import type { AppSetContext } from '../context';
import type { Hover } from '../../types';
import { property, type CursorAt } from '../../yaml';
import { valueAt } from '../../generators/params';
import { isObj } from '../../objects';
import { isGeneratorKind } from '../../rules/generatorKinds';
import { loadInventory } from '../../generators/inventory';
import { matchesSelector, selectorError } from '../../generators/selector';
import { cellText, fittedTable, HOVER_ROWS, moreLine } from '../hoverTable';

const MAX_ROWS = HOVER_ROWS;
const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/** The label keys a selector reads (matchLabels and matchExpressions). */
function selectorKeys(sel: unknown): string[] {
  if (!isObj(sel)) return [];
  const keys = new Set<string>();
  if (isObj(sel.matchLabels)) for (const k of Object.keys(sel.matchLabels)) keys.add(k);
  if (Array.isArray(sel.matchExpressions)) for (const e of sel.matchExpressions) if (isObj(e) && typeof e.key === 'string') keys.add(e.key);
  return [...keys];
}

export function clusterSelectorHover(ctx: AppSetContext, cursor: CursorAt): Hover | undefined {
  const { path, trail } = cursor;
  const at = path.findIndex((seg, i) => seg === 'selector' && path[i - 1] === 'clusters');
  if (at < 0) return undefined;
  const selPath = path.slice(0, at + 1);
  const sel = valueAt(ctx.doc.value, selPath);
  const key = trail[at + 1].key;
  if (!key) return undefined;
  const inv = loadInventory(ctx.file);
  const bad = selectorError(sel, true);
  if (bad) return { span: key, markdown: `**Cluster selector** — cannot be read: ${bad}` };
  const keys = selectorKeys(sel).filter((k) => k !== 'argocd.argoproj.io/secret-type');
  const rows = inv.clusters.map((c) => {
    let ok = false;
    try {
      ok = matchesSelector(sel, c.labels);
    } catch {
      ok = false;
    }
    return { c, ok };
  });
  rows.sort((a, b) => Number(b.ok) - Number(a.ok) || (a.c.name < b.c.name ? -1 : 1));
  const matched = rows.filter((r) => r.ok).length;
  const head = `**Cluster selector: matches ${matched} of ${plural(inv.clusters.length, 'known cluster')}**`;
  const what = 'It chooses which cluster Secrets the cluster generator reads, by their labels (it is not a post-selector).';
  if (!inv.clusters.length)
    return { span: key, markdown: `${head}\n\n${what}\n\nNo cluster Secret or ClusterInventory was found in the workspace.` };
  const shown = rows.slice(0, MAX_ROWS);
  // The label keys the selector reads, one column each, as many as fit the hover (features/hoverTable.ts).
  const { table, left } = fittedTable([
    { head: ' ', cells: shown.map((r) => (r.ok ? '✓' : '✗')) },
    { head: 'cluster', cells: shown.map((r) => cellText(r.c.name, 40)) },
    ...keys.map((k) => ({
      head: cellText(k, 30),
      cells: shown.map((r) => (Object.prototype.hasOwnProperty.call(r.c.labels, k) ? cellText(r.c.labels[k], 30) : '—')),
    })),
  ]);
  const more = moreLine(rows.length, shown.length, 'the cluster Secrets and ClusterInventory files hold them all');
  const leftOut = left.length ? `Labels left out to fit the hover: ${left.join(', ')}.` : '';
  return { span: key, markdown: [head, table, more, leftOut, what].filter(Boolean).join('\n\n') };
}

/** The child of a matrix/merge under the cursor: `[..., 'matrix', 'generators', j]`. */
export function childGeneratorHover(ctx: AppSetContext, cursor: CursorAt): Hover | undefined {
  const { path, trail } = cursor;
  let at = -1;
  for (let i = path.length - 1; i >= 2; i--) {
    if (typeof path[i] === 'number' && path[i - 1] === 'generators' && (path[i - 2] === 'matrix' || path[i - 2] === 'merge')) {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  const entry = path.slice(0, at + 1);
  // Deeper parts (a list element, a selector) have their own hovers.
  if (path.length > at + 2) return undefined;
  const child = valueAt(ctx.doc.value, entry);
  if (!isObj(child)) return undefined;
  const kind = Object.keys(child).find(isGeneratorKind);
  if (!kind) return undefined;
  // The kind's key in the child the cursor is in (the child itself when its node lacks that key).
  const span = property(trail[at + 1].ast, kind)?.keySpan ?? trail[at + 1].value;
  if (!span) return undefined;
  const exp = ctx.expansion();
  const count = exp.paramSetCounts?.[entry.join('/')];
  const parent = String(path[at - 2]);
  const head = `**This ${kind} child of the ${parent} yields ${count === undefined ? 'no' : plural(count, 'parameter set')}**`;
  const prefix = entry.join('/') + '/';
  const sources = new Set<string>();
  for (const a of exp.apps) {
    for (const o of a.origins ?? []) {
      if (
        o.startsWith(prefix) ||
        (kind === 'clusters' && o.startsWith('cluster:')) ||
        ((kind === 'git' || kind === 'oci') && o.startsWith('git:'))
      )
        sources.add(o);
    }
  }
  const lines = [...sources].slice(0, MAX_ROWS).map((o) => {
    if (o.startsWith('cluster:')) return `- cluster \`${o.slice(8)}\``;
    if (o.startsWith('git:')) return `- \`${o.slice(4)}\``;
    const el = valueAt(
      ctx.doc.value,
      o.split('/').map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
    );
    const m = /(\d+)$/.exec(o);
    return `- element ${m ? Number(m[1]) + 1 : ''}${
      isObj(el)
        ? ': ' +
          Object.entries(el)
            .slice(0, 4)
            .map(([k, v]) => `\`${k}: ${typeof v === 'object' ? '…' : String(v)}\``)
            .join(', ')
        : ''
    }`;
  });
  const more = sources.size > MAX_ROWS ? `\n- …and ${sources.size - MAX_ROWS} more` : '';
  const combined =
    parent === 'matrix'
      ? `The ${parent} combines them with the other child: ${plural(exp.apps.length, 'Application')} in all.`
      : `The merge joins them on mergeKeys: ${plural(exp.apps.length, 'Application')} in all.`;
  return { span, markdown: `${head}\n\n${lines.join('\n')}${more}\n\n${combined}` };
}
