/**
 * Tables in hovers that read at the editor's default width. VS Code draws a hover at most 500 px wide
 * (its `--vscode-hover-maxWidth`); a table wider than that squeezes its columns and breaks the names in
 * them mid-word (`prod-01-svc-` / `01`), each row then takes three or four lines and the hover shows
 * about three of them. So a table here has few columns, counted in characters: the columns that do
 * not fit within HOVER_WIDTH are left out (and named, so the reader knows where they are), and a
 * value too long for a column goes in a list below instead.
 */

/** Characters a table row may take: VS Code's 500 px hover at 13 px monospace, less the cells' padding. */
export const HOVER_WIDTH = 56;
/** What a column costs beyond its text: the cell's padding and the code span's. */
const COLUMN_COST = 2;
/** Rows a hover lists before "and N more": a screenful once no row wraps. */
export const HOVER_ROWS = 20;

/** The characters a markdown cell shows: a link's text (not its target), code without its ticks, escapes undone. */
export function visibleWidth(cell: string): number {
  return [
    ...cell
      .replace(/\[((?:\\.|[^\]\\])*)\]\([^\s)]*(?:\s+"[^"]*")?\)/g, '$1')
      .replace(/`/g, '')
      .replace(/\\(.)/g, '$1'),
  ].length;
}

export interface Column {
  head: string;
  /** One markdown cell per row. */
  cells: string[];
}

export interface FittedTable {
  /** The markdown table, '' when there is no row. */
  table: string;
  /** The heads of the columns left out because the row would have been wider than HOVER_WIDTH. */
  left: string[];
}

/**
 * A markdown table of the columns that fit, in the order given (the first is always kept: it names the
 * row). A column empty in every row is dropped without a word; one that does not fit is named in `left`.
 */
export function fittedTable(columns: Column[]): FittedTable {
  const rows = columns[0]?.cells.length ?? 0;
  const kept: Column[] = [];
  const left: string[] = [];
  let width = 0;
  columns.forEach((c, i) => {
    if (i > 0 && c.cells.every((x) => !x)) return;
    const w = Math.max(visibleWidth(c.head), ...c.cells.map(visibleWidth)) + COLUMN_COST;
    if (i === 0 || width + w <= HOVER_WIDTH) {
      kept.push(c);
      width += w;
    } else left.push(c.head);
  });
  if (!rows) return { table: '', left };
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const out = [line(kept.map((c) => c.head)), line(kept.map(() => '---'))];
  for (let r = 0; r < rows; r++) out.push(line(kept.map((c) => c.cells[r] || ' ')));
  return { table: out.join('\n'), left };
}

/** Whether a row of these columns fits within HOVER_WIDTH. */
export function fits(columns: Column[]): boolean {
  return columns.reduce((w, c) => w + Math.max(visibleWidth(c.head), ...c.cells.map(visibleWidth)) + COLUMN_COST, 0) <= HOVER_WIDTH;
}

/** A table cell's text: no pipe or line break, and at most `max` characters. */
export function cellText(s: string, max = HOVER_WIDTH): string {
  const short = s.length > max ? s.slice(0, max - 1) + '…' : s;
  return short.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/**
 * The rows a hover lists when it cannot list them all: the first row of each group first (each cluster's
 * first Application, so a matrix of 12 clusters × 45 services does not show 20 rows of one cluster), then
 * the rest in their order, up to `max`. `perGroup` says whether the rows were so chosen (more than one
 * group and more rows than fit), for the hover to say it.
 */
export function sampleRows<T>(rows: readonly T[], groupOf: (r: T) => string, max = HOVER_ROWS): { shown: T[]; perGroup: boolean } {
  if (rows.length <= max) return { shown: [...rows], perGroup: false };
  const firsts = new Map<string, number>();
  rows.forEach((r, i) => {
    const g = groupOf(r);
    if (!firsts.has(g)) firsts.set(g, i);
  });
  if (firsts.size < 2) return { shown: rows.slice(0, max), perGroup: false };
  const picked = [...firsts.values()].slice(0, max);
  const taken = new Set(picked);
  for (let i = 0; i < rows.length && picked.length < max; i++) if (!taken.has(i)) picked.push(i);
  return { shown: picked.map((i) => rows[i]), perGroup: true };
}

/** `…and 520 more — <where>`: what a hover leaves out and where to see it all. */
export function moreLine(total: number, shown: number, where: string, how = ''): string {
  return total > shown ? `…and ${total - shown} more${how} — ${where}` : '';
}
