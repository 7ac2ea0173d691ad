/**
 * `text.matchAll(re)` for a line-anchored pattern that can only match where a line holds `{{` before
 * anything else of the match's first line is needed: the pattern is tried only at the start of the
 * lines that hold `{{`, not at every line of the text. On a keystroke in the 111 KiB ApplicationSet
 * the two whole-text scans of the template checks (validate/templateInStructure.ts, unquotedTemplate.ts) cost 0.4 ms of CPU each time,
 * almost all of it lines with no `{{`; the lines holding one are a few dozen.
 *
 * The same matches, in the same order, with the same `index` and groups, when `re` (flags `m`, `y`,
 * no `g`) starts with `^`, every match it can make holds `{{`, and no match crosses a `\n` before its
 * `{{` (test/unit/engine/yaml/lines-with.test.ts compares both over every YAML file of the
 * repository and random texts). A match starts at or after the end of the previous one, on the `\n`
 * line of its `{{`: trying, for each `{{` in turn, the line starts from its `\n` line's start up to it
 * (those not tried yet) finds every match, first to last.
 */

export function* matchLinesWithBraces(text: string, re: RegExp): Generator<RegExpExecArray> {
  if (!re.sticky || !re.multiline || re.global)
    throw new Error('matchLinesWithBraces: the pattern must be sticky and multiline, not global');
  let end = 0; // where the previous match ended: the next one starts here or after
  let tried = 0; // every start before this (and after `end`) was tried and gave no match
  const others = otherTerminators(text);
  for (;;) {
    const b = text.indexOf('{{', Math.max(end, tried));
    if (b < 0) return;
    // The starts that may hold this `{{` on their first line: the start of its `\n` line and every
    // place after a `\r`, U+2028 or U+2029 up to it (no pattern here lets a match cross a `\n` before its `{{`).
    // Found by native searches, not a loop over each character: run once per file with code not yet
    // compiled, the loops cost 2–8 ms on the bench's 50-ApplicationSet file (issue 39).
    const j = b === 0 ? 0 : text.lastIndexOf('\n', b - 1) + 1;
    const lo = Math.max(j, end, tried);
    re.lastIndex = lo;
    let m = re.exec(text);
    // No `\n` lies between `lo` and `b`: the other line starts there follow the other terminators.
    for (let t = others(lo); !m && t >= 0 && t < b; t = others(t + 1)) {
      re.lastIndex = t + 1;
      m = re.exec(text);
    }
    if (m) {
      yield m;
      // A match is never empty here (it holds `{{`); guard all the same against a loop.
      end = Math.max(re.lastIndex, m.index + 1);
    } else tried = b + 1;
  }
}

/**
 * The first `\r`, U+2028 or U+2029 at or after `from` (-1: none), for `from` that never decreases: each
 * character's next place is searched for again only once passed, so the searches cover the text once.
 */
function otherTerminators(text: string): (from: number) => number {
  const chars = ['\r', '\u2028', '\u2029'];
  const next = [-2, -2, -2]; // -2: not searched yet; -1: none after the last search
  return (from) => {
    let first = -1;
    for (let i = 0; i < 3; i++) {
      if (next[i] === -2 || (next[i] >= 0 && next[i] < from)) next[i] = text.indexOf(chars[i], from);
      if (next[i] >= 0 && (first < 0 || next[i] < first)) first = next[i];
    }
    return first;
  };
}
