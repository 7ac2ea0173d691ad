/**
 * The first answer on a very long file (a rendered install bundle of thousands of ConfigMaps and
 * Deployments with an ApplicationSet among them) does not wait for every document to be parsed.
 *
 * A document marker at column 0 always ends the document before it (yaml/document.ts
 * `splitDocuments`), so each `---` part can be judged by its text alone. A part that holds no
 * ApplicationSet, no argocd-apps `applicationsets` values, no template action, no suppression comment
 * and nothing the workspace index looks for (interests.ts) can only add YAML syntax findings of its
 * own. The first pass parses the other parts only, at their offsets in the file, and the full parse
 * follows at once, adding whatever the left-out parts hold (expansions are cached by their document's
 * text and offset, so they are not computed twice). Nothing is left out for good: the first pass only
 * orders the work.
 */
import { splitDocuments } from '../yaml';
import { INTERESTS } from '../workspace/interests';

/** Below this size the whole text is parsed at once (the first pass would save too little). */
export const FIRST_PASS_MIN_CHARS = 200_000;

const MATTERS = /ApplicationSet|applicationsets|\{\{|appset-tools/;

/**
 * Which `---` parts of `text` the first pass parses, or undefined when the text is short, cannot be
 * split, or most of it matters anyway (then the whole text is parsed at once).
 */
export function firstPassParts(text: string, path = ''): ((part: string) => boolean) | undefined {
  if (text.length < FIRST_PASS_MIN_CHARS) return undefined;
  const parts = splitDocuments(text);
  if (!parts || parts.length < 2) return undefined;
  // Interests no part can pass are not asked part by part.
  const interests = INTERESTS.filter((i) => i.test(text, path));
  const matters = (part: string) => MATTERS.test(part) || interests.some((i) => i.test(part, path));
  let kept = 0;
  for (const { start, end } of parts) if (matters(text.slice(start, end))) kept += end - start;
  return kept * 2 <= text.length ? matters : undefined;
}
