/**
 * The newest version of each document the transport has read, before the connection handles it
 * (vscode-jsonrpc handles one queued message per event-loop turn). A run for a version that is already
 * superseded on the wire is work nobody will see: at 8,000 edits a second with `debounceMs: 0`, every
 * edit started a findings run whose first slice ran inline (scheduler.ts), so a hover on another document
 * waited seconds behind the queued edits (issue 38). Such runs are dropped before their first slice.
 */
import { Message, type DataCallback, type Message as AnyMessage, type NotificationMessage } from 'vscode-languageserver/node';

interface VersionedParams {
  textDocument?: { uri?: unknown; version?: unknown };
  contentChanges?: unknown;
}

export class ReceivedVersions {
  private readonly newest = new Map<string, number>();

  /** The transport read `msg` (it is queued until the connection handles it). */
  note(msg: AnyMessage): void {
    if (!Message.isNotification(msg)) return;
    const params = msg.params as VersionedParams | undefined;
    const td = params?.textDocument;
    if (!td || typeof td.uri !== 'string') return;
    if (msg.method === 'textDocument/didClose') this.newest.delete(td.uri);
    else if (msg.method === 'textDocument/didOpen' && typeof td.version === 'number') this.newest.set(td.uri, td.version);
    // Only a change the documents will take (TextDocuments ignores an empty one): a version that never
    // arrives would hold the document's runs back until its next edit.
    else if (
      msg.method === 'textDocument/didChange' &&
      typeof td.version === 'number' &&
      Array.isArray(params.contentChanges) &&
      params.contentChanges.length
    )
      this.newest.set(td.uri, td.version);
  }

  /**
   * A newer version of `uri` than `version` has been read: `version` is about to be replaced. (Only newer:
   * a document closed and opened again starts over, and its close is seen by the documents themselves.)
   */
  superseded(uri: string, version: number): boolean {
    const v = this.newest.get(uri);
    return v !== undefined && v > version;
  }
}

/** A didChange whose changes can be appended to (the shape TextDocuments reads), or undefined. */
function changeOf(msg: AnyMessage): { uri: string; changes: unknown[] } | undefined {
  if (!Message.isNotification(msg) || msg.method !== 'textDocument/didChange') return undefined;
  const params = msg.params as VersionedParams | undefined;
  const uri = params?.textDocument?.uri;
  if (typeof uri !== 'string' || typeof params?.textDocument?.version !== 'number' || !Array.isArray(params.contentChanges))
    return undefined;
  return { uri, changes: params.contentChanges as unknown[] };
}

/**
 * Passes messages on in order, with consecutive didChange notifications of one document read together
 * (one chunk of the stream) joined into one: the changes in order, the last version. The result is the
 * same document (LSP 3.17 `DidChangeTextDocumentParams.contentChanges` are applied in order), and the
 * connection handles one message instead of hundreds (one per event-loop turn), so a request read after
 * them is answered that many turns sooner.
 */
export function joiningChanges(callback: DataCallback): DataCallback {
  let held: { msg: NotificationMessage; uri: string; changes: unknown[] } | undefined;
  const flush = () => {
    if (!held) return;
    const { msg, changes } = held;
    held = undefined;
    callback({ ...msg, params: { ...(msg.params as object), contentChanges: changes } } as NotificationMessage);
  };
  return (msg) => {
    const change = changeOf(msg);
    if (change && held?.uri === change.uri) {
      held.changes.push(...change.changes);
      held.msg = msg as NotificationMessage;
      return;
    }
    flush();
    if (!change) return callback(msg);
    held = { msg: msg as NotificationMessage, uri: change.uri, changes: [...change.changes] };
    // The reader hands over every message of a chunk at once: what is held goes out right after.
    queueMicrotask(flush);
  };
}
