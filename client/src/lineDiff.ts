/**
 * The few line ranges that turn the preview's old text into the server's new one, so that VS Code
 * updates the open preview in place instead of replacing it whole. VS Code diffs a virtual document's
 * new text itself only below 100,000 characters (its editor worker's limit); above, it replaces the whole
 * text, and the editor then tokenises, decorates and lays out the 258 KiB of a 540-Application preview
 * again (most of a refresh's time in the real VS Code test). A template edit changes one line in each
 * Application, a new cluster adds a run of Applications: a few hundred small hunks.
 *
 * Pure (no `vscode`): it decides nothing about what the preview says; the caller checks that the
 * document's text equals the server's after the edit.
 */

/** Replace `old.slice(start, end)` with `text`; offsets into the old text, in order, not overlapping. */
export interface TextHunk {
  start: number;
  end: number;
  text: string;
}

/** Lines with their line breaks (the last one may have none), so that joining them gives the text back. */
function linesOf(text: string): string[] {
  const lines: string[] = [];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl + 1;
    lines.push(text.slice(at, end));
    at = end;
  }
  return lines;
}

/**
 * Myers' O((N+M)·D) shortest edit script over the lines, interned to numbers. Past `maxEdits` lines
 * inserted or deleted, the whole middle (after the common first and last lines) is one hunk: what VS
 * Code would do anyway, without spending longer on the diff than it saves.
 */
export function lineHunks(oldText: string, newText: string, maxEdits = 4000): TextHunk[] {
  if (oldText === newText) return [];
  const a = linesOf(oldText);
  const b = linesOf(newText);
  const offsets = new Array<number>(a.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < a.length; i++) offsets[i + 1] = offsets[i] + a[i].length;
  // Common first and last lines first: most refreshes change a small middle.
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ids = new Map<string, number>();
  const idOf = (l: string) => {
    let id = ids.get(l);
    if (id === undefined) ids.set(l, (id = ids.size));
    return id;
  };
  const x = Int32Array.from(a.slice(pre, a.length - suf), idOf);
  const y = Int32Array.from(b.slice(pre, b.length - suf), idOf);
  const whole = (): TextHunk[] => [{ start: offsets[pre], end: offsets[a.length - suf], text: b.slice(pre, b.length - suf).join('') }];
  const n = x.length;
  const m = y.length;
  if (!n || !m) return whole();
  // A line of one side found nowhere on the other must be deleted or inserted: more such lines than
  // `maxEdits` decide at once, in one pass, what the search below would find only after its longest run.
  const inX = new Uint8Array(ids.size);
  const inY = new Uint8Array(ids.size);
  for (const id of x) inX[id] = 1;
  for (const id of y) inY[id] = 1;
  let surely = 0;
  for (const id of x) if (!inY[id]) surely++;
  for (const id of y) if (!inX[id]) surely++;
  if (surely > maxEdits) return whole();
  const max = Math.min(n + m, maxEdits);
  // v[k + max]: the furthest x reached on diagonal k; trace[d] keeps v's live part after step d.
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    for (let k = -d; k <= d; k += 2) {
      let i = k === -d || (k !== d && v[max + k - 1] < v[max + k + 1]) ? v[max + k + 1] : v[max + k - 1] + 1;
      let j = i - k;
      while (i < n && j < m && x[i] === y[j]) {
        i++;
        j++;
      }
      v[max + k] = i;
      if (i >= n && j >= m) {
        found = d;
        break;
      }
    }
    trace.push(v.slice(max - d, max + d + 1));
  }
  if (found < 0) return whole();
  // Walk back from (n, m): each step is one line deleted (x) or inserted (y); runs of them are hunks.
  const hunks: TextHunk[] = [];
  let i = n;
  let j = m;
  let hunk: { i0: number; i1: number; j0: number; j1: number } | undefined;
  const flush = () => {
    if (!hunk) return;
    hunks.push({ start: offsets[pre + hunk.i0], end: offsets[pre + hunk.i1], text: b.slice(pre + hunk.j0, pre + hunk.j1).join('') });
    hunk = undefined;
  };
  for (let d = found; d > 0; d--) {
    const prev = trace[d - 1];
    const at = (k: number) => prev[k + d - 1];
    const k = i - j;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const pk = down ? k + 1 : k - 1;
    const pi = at(pk);
    const pj = pi - pk;
    // The snake (equal lines) after the step ends the current hunk.
    const si = down ? pi : pi + 1;
    if (i > si) flush();
    i = si;
    j = si - k;
    if (!hunk) hunk = { i0: i, i1: i, j0: j, j1: j };
    hunk.i0 = pi;
    hunk.j0 = pj;
    i = pi;
    j = pj;
  }
  flush();
  return hunks.reverse();
}

/** `old` with the hunks applied (what the caller's edit must give). */
export function applyHunks(oldText: string, hunks: readonly TextHunk[]): string {
  let out = '';
  let at = 0;
  for (const h of hunks) {
    out += oldText.slice(at, h.start) + h.text;
    at = h.end;
  }
  return out + oldText.slice(at);
}

/**
 * The hunks to apply in place, or undefined when VS Code had better replace the text whole: many hunks
 * (VS Code's background tokeniser composes an edit's changes one by one, slower than re-reading the
 * text: a template edit's 540 one-line hunks cost the workbench 1.2 s of CPU, the whole text 0.15 s) or
 * most of the text rewritten anyway. Measured in the real VS Code test (docs/performance.md): an edit of
 * one list element (36 hunks) applied in place cost 43–64 ms of the workbench's CPU, replaced whole 180 ms.
 */
export function inPlaceHunks(oldText: string, newText: string): TextHunk[] | undefined {
  const hunks = lineHunks(oldText, newText, 160);
  if (hunks.length > 64) return undefined;
  let rewritten = 0;
  for (const h of hunks) rewritten += h.end - h.start + h.text.length;
  return rewritten * 4 > oldText.length + newText.length ? undefined : joinNear(oldText, hunks);
}

/**
 * Hunks a few lines apart joined into one (the unchanged lines between them written again): VS Code
 * pays per change of an edit more than per character, and an Application's changes (its name, path and
 * label lines) are a few lines apart.
 */
export function joinNear(oldText: string, hunks: readonly TextHunk[], gap = 400): TextHunk[] {
  const out: TextHunk[] = [];
  for (const h of hunks) {
    const last = out[out.length - 1];
    if (last && h.start - last.end <= gap)
      out[out.length - 1] = { start: last.start, end: h.end, text: last.text + oldText.slice(last.end, h.start) + h.text };
    else out.push({ ...h });
  }
  return out;
}

/**
 * Where each part of a preview starts: the text before the first `---` line, then one part per
 * Application (each begins with its `---` line; expand/preview.ts writes them so), and the text's end.
 */
function partStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n---\n'); at >= 0; at = text.indexOf('\n---\n', at + 1)) starts.push(at + 1);
  starts.push(text.length);
  return starts;
}

/**
 * Whether more than `limit` parts (Applications) differ between two previews with the same parts: then
 * no line diff is tried (Myers' search over a template edit's 540 changed lines only finds, after about
 * 20 ms, that there are too many to edit in place). False when the parts do not match one to one.
 */
export function manyPartsChanged(oldText: string, newText: string, limit = 64): boolean {
  const a = partStarts(oldText);
  const b = partStarts(newText);
  if (a.length !== b.length) return false;
  let changed = 0;
  for (let i = 0; i + 1 < a.length; i++) {
    const len = a[i + 1] - a[i];
    if (len !== b[i + 1] - b[i] || oldText.slice(a[i], a[i + 1]) !== newText.slice(b[i], b[i + 1])) if (++changed > limit) return true;
  }
  return false;
}

/**
 * The hunks that bring only the parts of the old text lying in `windows` (offsets into the old text: what
 * the editors show) up to date, part by part (the header, then each Application, matched by their
 * order); undefined when the two texts do not have the same parts (Applications added or removed: the
 * parts no longer match one to one). Applying them leaves the other parts as they were: the caller
 * replaces the text whole soon after (`client/src/preview.ts`), so that a template edit, which changes
 * every Application, first shows its effect where the user looks, at the cost of a few lines, and the
 * 258 KiB replacement waits for a pause in the typing.
 */
export function onScreenHunks(
  oldText: string,
  newText: string,
  windows: readonly { start: number; end: number }[],
): TextHunk[] | undefined {
  const a = partStarts(oldText);
  const b = partStarts(newText);
  if (a.length !== b.length) return undefined;
  const hunks: TextHunk[] = [];
  for (let i = 0; i + 1 < a.length; i++) {
    const start = a[i];
    const end = a[i + 1];
    if (!windows.some((w) => w.start <= end && w.end >= start)) continue;
    const before = oldText.slice(start, end);
    const after = newText.slice(b[i], b[i + 1]);
    if (before === after) continue;
    for (const h of lineHunks(before, after, 160)) hunks.push({ start: start + h.start, end: start + h.end, text: h.text });
  }
  return hunks;
}
