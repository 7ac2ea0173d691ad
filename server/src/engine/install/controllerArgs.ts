/**
 * A container's argument list read as pflag reads the controller's command line (spf13/pflag
 * `flag.go` parseArgs/parseLongArg, as cobra calls it for `argocd-applicationset-controller`):
 * - `--name=value` sets the flag to `value` (also for a bool flag, parsed then with strconv.ParseBool);
 * - `--name` alone: a bool flag is set to true and the next argument is NOT its value (`--enable-scm-providers
 *   false` leaves SCM providers on, `false` is a positional argument); any other flag takes the next
 *   argument as its value, whatever it holds (`args: [--policy, create-only]` is `--policy=create-only`);
 * - `--` ends the flags; single-dash words are shorthands, none of which the modelled flags have.
 * Each list item is one argument; an item with spaces is split into words (a `sh -c "… --flag"` script
 * runs the controller with those words), and a value can be the next item.
 */

export interface ParsedFlag {
  /** The flag as written, without its value: `--policy`. */
  flag: string;
  /** Its value: what follows `=`, the next argument, or `true` for a bool flag alone. */
  value: string;
  /** Index of the list item that holds the value (the flag's own item for `=value` and a bool flag alone). */
  item: number;
  /** Index of the list item that holds the flag. */
  flagItem: number;
  /** True when the value was written (`=value` or the next argument), false for a bool flag alone. */
  written: boolean;
  /** The whole word as written (`--policy=sync`, or `--policy` when the value is the next argument). */
  word: string;
}

/**
 * The flags of `items` among `known` (flag → true when it is a bool flag), in order. A flag that takes a
 * value but has none (the last argument) is left out: pflag fails on it ("flag needs an argument").
 */
export function parseControllerArgs(items: readonly (string | undefined)[], known: ReadonlyMap<string, boolean>): ParsedFlag[] {
  const words: { w: string; item: number }[] = [];
  items.slice(0, 500).forEach((text, item) => {
    if (text === undefined) return;
    for (const w of text.split(/\s+/).slice(0, 500)) if (w !== '') words.push({ w, item });
  });
  const out: ParsedFlag[] = [];
  for (let i = 0; i < words.length; i++) {
    const { w, item } = words[i];
    if (w === '--') break;
    if (!w.startsWith('--')) continue;
    const eq = w.indexOf('=');
    const flag = eq >= 0 ? w.slice(0, eq) : w;
    const bool = known.get(flag);
    if (eq >= 0) {
      if (bool !== undefined) out.push({ flag, value: w.slice(eq + 1), item, flagItem: item, written: true, word: w });
      continue;
    }
    if (bool === true) {
      out.push({ flag, value: 'true', item, flagItem: item, written: false, word: w });
      continue;
    }
    const next = words[i + 1];
    if (bool === false) {
      if (next) out.push({ flag, value: next.w, item: next.item, flagItem: item, written: true, word: w });
      i++;
      continue;
    }
    // A flag this model does not know: taken to consume a next word that is not a flag (its value, or a
    // positional argument pflag ignores), so a known flag after it is still read.
    if (next && !next.w.startsWith('-')) i++;
  }
  return out;
}
