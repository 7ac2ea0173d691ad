/**
 * Which file changes matter. The workspace index reads YAML files (cluster Secrets, inventories,
 * Argo CD configuration) and Terraform files (Argo CD installed by a helm_release); the git generators read JSON/YAML config files and the directory trees of
 * local checkouts, so for any other file only its appearing or disappearing counts. Build output and
 * dependency folders are never read, so their churn is ignored.
 */
import { FileChangeType } from 'vscode-languageserver/node';
import { inSkippedFolder } from '@appset-tools/engine';

// Terraform files too: an argo-cd helm_release is an install (engine install/terraform.ts).
const CONTENT_FILES = /\.(ya?ml|json|tf)$/i;

/** Patterns registered with clients that support dynamic file watching (VS Code's client watches itself). */
export const WATCH_GLOBS = ['**/*'];

export function isWatchedChange(path: string, type: FileChangeType): boolean {
  if (inSkippedFolder(path)) return false;
  return CONTENT_FILES.test(path) || type !== FileChangeType.Changed;
}
