/**
 * Folders no scan reads: dependency and build output, VCS data and the editor test cache. One home
 * for the list: the workspace index, the Node host's scans, folder lint and the file watcher agree.
 * (Hidden folders are skipped by the scans as well; the watcher still sees hidden files.)
 */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['node_modules', '.git', 'dist', 'out', '.vscode-test']);

/** True when a path has a skipped folder as one of its segments. */
export function inSkippedFolder(path: string): boolean {
  return path.split('/').some((seg) => SKIPPED_FOLDERS.has(seg));
}
