/**
 * The expansions of the language service: an ApplicationSet's Applications, kept across analyses and
 * documents (typing in another document, or after this one, re-uses them), computed at most once per key.
 */
import type { AppSetDoc } from '../kinds';
import type { WorkspaceIndex } from '../workspace/index';
import { expandAppSetSteps, partialExpansion } from '../expand/expand';
import type { Expansion } from '../expand/types';
import type { RenderMemo } from '../expand/renderMemo';
import type { FileContext } from '../features/context';
import { runSteps } from '../steps';
import { BoundedCache } from './boundedCache';

const EXPANSION_CACHE_SIZE = 64;
/**
 * And at most this many Applications in all cached expansions: each keystroke in a 540-element list
 * is a new expansion, and 64 of those held on to hundreds of MiB. Small ApplicationSets (dozens in
 * one file, re-used across keystrokes in the others) still fit by the entry count.
 */
const EXPANSION_CACHE_APPS = 2000;

export class Expansions {
  private readonly cache = new BoundedCache<string, Expansion>({
    maxEntries: EXPANSION_CACHE_SIZE,
    maxWeight: EXPANSION_CACHE_APPS,
    weight: (e) => e.apps.length,
  });

  constructor(private readonly workspace: WorkspaceIndex) {}

  /**
   * The key: the workspace version, the settings and the document's offset and text (not only its
   * value): an expansion holds spans into the file, which move when a space, a comment or a quote
   * changes before them.
   */
  private key(doc: AppSetDoc, file: FileContext): string {
    return `${this.workspace.version}|${file.path ?? file.uri}|${doc.span.start}|${JSON.stringify(file.settings)}|${doc.helmValues ? JSON.stringify(doc.value) : ''}|${file.text.slice(doc.span.start, doc.span.end)}`;
  }

  /** The expansion of `doc`, kept or computed in steps; `previous` lends the renders of the document's last version. */
  *ofSteps(doc: AppSetDoc, file: FileContext, previous?: RenderMemo): Generator<void, Expansion> {
    const key = this.key(doc, file);
    return (
      this.cache.use(key) ??
      this.cache.set(key, doc.partial ? partialExpansion(doc.partial) : yield* expandAppSetSteps(doc, file, previous))
    );
  }

  /** The same, computed in one go. */
  of(doc: AppSetDoc, file: FileContext, previous?: RenderMemo): Expansion {
    return runSteps(this.ofSteps(doc, file, previous));
  }

  clear(): void {
    this.cache.clear();
  }
}
