/**
 * Open documents as overlays of the workspace index, pushed only when the index can notice.
 *
 * Every overlay change bumps the index's version, and the version is part of every cache key
 * (analyses, expansions, enablement, inventory). Pushing each keystroke of an ApplicationSet would
 * therefore re-expand every open ApplicationSet on every keystroke, although the index only looks
 * at cluster Secrets, inventories and Argo CD configuration. So a document that holds nothing but
 * ApplicationSets is pushed when it opens and when it stops (or starts) being ApplicationSet-only;
 * edits in between leave the index alone. Any other YAML file (a cluster Secret, Helm values) is
 * pushed on every change, as before.
 */
import type { Analysis } from './analyses';
import type { WorkspaceIndex } from '../workspace/index';

export class OpenDocuments {
  /** path -> whether the text last pushed for it held only ApplicationSets. */
  private readonly pushed = new Map<string, boolean>();
  /**
   * Open documents whose file was deleted on disk: a tab may still hold the text, but a file that is not
   * on disk is not in the repository, so it overlays nothing until the file is back (issue 37: a deleted
   * params ConfigMap kept "Enabled by argocd-cmd-params-cm.yaml:13" while its tab stayed open).
   */
  private readonly offDisk = new Set<string>();

  /**
   * Open documents the server is not sent as documents but as text only (`appsetTools/inputDocument`: the
   * VS Code client's JSON tabs, a git generator's `config.json`): path -> the tab's text. They overlay their
   * file like any open document (the same rule for a file deleted on disk) and are never analysed.
   */
  private readonly inputs = new Map<string, string>();

  constructor(private readonly workspace: WorkspaceIndex) {}

  /** An input tab's text (opened or changed); returns true when the index changed. */
  input(path: string | undefined, text: string): boolean {
    if (!path) return false;
    this.inputs.set(path, text);
    if (this.offDisk.has(path)) return false;
    const before = this.workspace.version;
    this.workspace.setOverlay(path, text);
    return this.workspace.version !== before;
  }

  /** An input tab closed: its file on disk counts again. Returns true when the index changed. */
  inputClosed(path: string | undefined): boolean {
    if (!path || !this.inputs.delete(path)) return false;
    const before = this.workspace.version;
    this.close(path);
    return this.workspace.version !== before;
  }

  /** The text of an open input tab (undefined when none is open for `path`). */
  inputText(path: string | undefined): string | undefined {
    return path ? this.inputs.get(path) : undefined;
  }

  /**
   * Brings the index up to date with an open document. Returns true when the index changed (so
   * other documents may need new results).
   */
  sync(path: string | undefined, text: string, analysis: () => Analysis): boolean {
    if (!path || this.offDisk.has(path)) return false;
    const ws = this.workspace;
    const last = this.pushed.get(path);
    // A file that mattered last time is pushed without looking (no parse before the push: the
    // analysis after it tells `remember` whether it still matters).
    const only = last === false ? false : appsetOnly(analysis());
    if (only && last === true) return false;
    const before = ws.version;
    ws.setOverlay(path, text);
    this.pushed.set(path, only);
    return ws.version !== before;
  }

  /**
   * Pushes a document that was just opened, before its first analysis: `sync` pushes a new document
   * whatever it holds, and an analysis made before that push would be outdated by it at once (the
   * index version is part of its key) and made again. Returns true when the index changed; the
   * analysis that follows tells `remember` whether the document holds only ApplicationSets.
   */
  opened(path: string | undefined, text: string): boolean {
    if (!path || this.pushed.has(path) || this.offDisk.has(path)) return false;
    const before = this.workspace.version;
    this.workspace.setOverlay(path, text);
    // Until `remember`, the next `sync` pushes without looking (the same text: no change).
    this.pushed.set(path, false);
    return this.workspace.version !== before;
  }

  /** Records what the analysis of the text just pushed says (see `sync`). */
  remember(path: string | undefined, a: Analysis): void {
    if (path && this.pushed.has(path)) this.pushed.set(path, appsetOnly(a));
  }

  /** Pushes every open document again (after the index was reset, e.g. new settings). */
  resync(docs: { path: string | undefined; text: string }[]): void {
    this.pushed.clear();
    const ws = this.workspace;
    for (const d of [...docs, ...[...this.inputs].map(([path, text]) => ({ path, text }))])
      if (d.path && !this.offDisk.has(d.path)) ws.setOverlay(d.path, d.text);
  }

  /**
   * An open document's file was deleted on disk (or is back, `onDisk`): its text stops (or starts again)
   * overlaying the file. Returns true when the index changed.
   */
  deletedOnDisk(path: string | undefined): boolean {
    if (!path || this.offDisk.has(path)) return false;
    this.offDisk.add(path);
    this.pushed.delete(path);
    const before = this.workspace.version;
    this.workspace.setOverlay(path, undefined);
    this.workspace.invalidate(path);
    return this.workspace.version !== before;
  }

  onDisk(path: string | undefined, text: string): boolean {
    if (!path || !this.offDisk.delete(path)) return false;
    this.workspace.invalidate(path);
    this.opened(path, text);
    return true;
  }

  close(path: string | undefined): void {
    if (!path) return;
    this.pushed.delete(path);
    this.offDisk.delete(path);
    this.workspace.setOverlay(path, undefined);
  }
}

/**
 * True when every document of the file is an ApplicationSet or empty. A broken document that still
 * reads as an ApplicationSet stays one; any other broken document counts as "other" (the index
 * skips broken documents, so its view may change either way).
 */
export function appsetOnly(a: Analysis): boolean {
  // ApplicationSets from argocd-apps values share their document with whatever else the values set.
  const appsets = new Set(a.file.parsed.appsets.filter((d) => !d.helmValues).map((d) => d.index));
  return a.file.parsed.docs.every((d) => appsets.has(d.index) || (d.value == null && d.doc.errors.length === 0));
}
