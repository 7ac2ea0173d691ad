/** file:// URIs ↔ paths, enough for the language server (no dependency on vscode-uri). */
import { fileURLToPath, pathToFileURL } from 'node:url';

export const URI = {
  toPath(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return fileURLToPath(uri).replace(/\\/g, '/');
    } catch {
      return undefined;
    }
  },
  fromPath(p: string): string {
    return pathToFileURL(p).toString();
  },
};
