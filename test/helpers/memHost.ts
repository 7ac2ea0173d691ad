/**
 * An EngineHost over an in-memory workspace (a map of paths to texts, no disk), for engine tests.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, type EngineHost, type EngineSettings } from '@appset-tools/engine';

const repoRoot = path.resolve(__dirname, '..', '..');

/** The files under the given folders of this repository whose names `keep` accepts, as one workspace at /ws (for memHost). */
export function repoFiles(keep: (name: string) => boolean, ...dirs: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string) => {
    for (const n of fs.readdirSync(abs)) {
      const p = path.join(abs, n);
      if (fs.statSync(p).isDirectory()) walk(p);
      else if (keep(n)) out.set('/ws/' + path.relative(repoRoot, p).split(path.sep).join('/'), fs.readFileSync(p, 'utf8'));
    }
  };
  for (const d of dirs) walk(path.join(repoRoot, d));
  return out;
}

/** A host over a map of absolute posix paths → text (directories are implied by the paths). */
export function memHost(
  files: Map<string, string>,
  settings: Partial<EngineSettings> = {},
  root = '/ws',
): EngineHost & { files: Map<string, string> } {
  const s = { ...DEFAULT_SETTINGS, ...settings };
  const isDir = (p: string) => [...files.keys()].some((f) => f.startsWith(p.endsWith('/') ? p : p + '/'));
  return {
    files,
    roots: () => [root],
    readFile: (p) => files.get(p),
    stat: (p) =>
      files.has(p)
        ? { isFile: true, isDirectory: false, mtimeMs: 1, size: files.get(p)!.length }
        : isDir(p)
          ? { isFile: false, isDirectory: true, mtimeMs: 1, size: 0 }
          : undefined,
    readDir: (p) => {
      if (!isDir(p)) return undefined;
      const prefix = p.endsWith('/') ? p : p + '/';
      return [...new Set([...files.keys()].filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).split('/')[0]))];
    },
    gitRemotes: () => [],
    settings: () => s,
  };
}
