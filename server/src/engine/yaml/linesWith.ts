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

/** `^` and `$` in a multiline JavaScript pattern: after and before these (ECMAScript LineTerminator). */
function isTerminator(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

export function* matchLinesWithBraces(text: string, re: RegExp): Generator<RegExpExecArray> {
  if (!re.sticky || !re.multiline || re.global)
    throw new Error('matchLinesWithBraces: the pattern must be sticky and multiline, not global');
  let end = 0; // where the previous match ended: the next one starts here or after
  let tried = 0; // every start before this (and after `end`) was tried and gave no match
  for (;;) {
    const b = text.indexOf('{{', Math.max(end, tried));
    if (b < 0) return;
    // The starts that may hold this `{{` on their first line: the start of its `\n` line and every
    // place after a `\r`, U+2028 or U+2029 up to it (no pattern here lets a match cross a `\n` before its `{{`).
    let j = b;
    while (j > 0 && text.charCodeAt(j - 1) !== 10) j--;
    const lo = Math.max(j, end, tried);
    let m: RegExpExecArray | null = null;
    for (let at = lo; at <= b && !m; at++) {
      if (at !== lo && !isTerminator(text.charCodeAt(at - 1))) continue;
      re.lastIndex = at;
      m = re.exec(text);
    }
    if (m) {
      yield m;
      // A match is never empty here (it holds `{{`); guard all the same against a loop.
      end = Math.max(re.lastIndex, m.index + 1);
    } else tried = b + 1;
  }
}
