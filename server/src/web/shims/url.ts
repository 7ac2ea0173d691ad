/**
 * `node:url` in the web worker: the two conversions lsp/uri.ts uses, for `file:` URIs of POSIX paths
 * (the client gives the worker only those, protocol.ts `webPathOf`), encoded as Node encodes them.
 */
import { fileUriOfPath } from '@appset-tools/protocol';

export function fileURLToPath(u: string | URL): string {
  const url = typeof u === 'string' ? new URL(u) : u;
  if (url.protocol !== 'file:') throw new TypeError('The URL must be of scheme file');
  if (url.hostname !== '') throw new TypeError('File URL host must be "localhost" or empty');
  if (/%2f/i.test(url.pathname)) throw new TypeError('File URL path must not include encoded / characters');
  return decodeURIComponent(url.pathname);
}

export function pathToFileURL(p: string): URL {
  return new URL(fileUriOfPath(p));
}
