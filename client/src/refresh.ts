/** When the preview and the rollout view must ask the server again. */
import type * as vscode from 'vscode';
import { PREVIEW_SCHEME } from '../../server/src/protocol';

/**
 * An edit to the shown document, or to any other YAML document (it may be a cluster Secret, an
 * inventory or Argo CD's configuration, which feed the generators and the enablement detection).
 */
export function affectsResults(changed: vscode.TextDocument, source: vscode.Uri | undefined): boolean {
  if (!source) return false;
  return changed.uri.toString() === source.toString() || (changed.languageId === 'yaml' && changed.uri.scheme !== PREVIEW_SCHEME);
}
