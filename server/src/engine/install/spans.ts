/**
 * Where each piece of evidence sits: its span, taken from the located tree (yaml/ast.ts) of the
 * document the workspace index already parsed (`IndexedFile.parsed`), never from a second parse; the
 * span of the scalar a quick fix may replace; and its `file:line` for the CLI.
 */
import type { Span } from '../types';
import { nodeAt } from '../yaml';
import { relativePath } from '../paths';
import type { Site } from './collector';

/** The spans of evidence at a site; the fix's replacement text is dropped where no plain scalar holds the value. */
export function resolveSpans(evidence: { site?: Site; span?: Span; valueSpan?: Span; enableText?: string }[]) {
  for (const e of evidence) {
    const site = e.site;
    if (!site) continue;
    if (site.span) {
      // Not YAML (a Terraform file): the reader gave the span.
      e.span = site.span;
      delete e.enableText;
      continue;
    }
    const doc = site.file.parsed[site.docIndex];
    if (!doc) continue;
    const n = nodeAt(doc, site.path);
    const span = n.value ?? n.key;
    if (span) e.span = span;
    if (n.exact && !site.inner && n.value && n.ast?.kind === 'scalar') e.valueSpan = n.value;
    else delete e.enableText;
  }
}

/** `argocd/argocd-cmd-params-cm.yaml:7`: the file, relative to its root, and the line its span starts on. */
export function whereOf(roots: readonly string[], e: { file: string; span?: Span }, site: Site | undefined): string | undefined {
  return site && e.span ? `${relativePath(roots, e.file)}:${lineOf(site.file.text, e.span.start)}` : undefined;
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
