/**
 * The git remotes of the work trees under the workspace roots, read from `.git/config` through the
 * host's own confined reads (no git process): the engine matches a git generator's `repoURL` with them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SKIPPED_FOLDERS, type EngineHost, type GitRemote } from '@appset-tools/engine';

import { toPosix } from './paths';

/** How deep below a root work trees are searched for `.git/config`. */
export const GIT_SEARCH_DEPTH = 3;
/** Git remotes are re-read at most this often (ms): remotes rarely change, and the lookup walks folders. */
const GIT_CACHE_MS = 5000;

/** What the remotes are read through: the host's confinement and its reads. */
export interface RemoteReads {
  confine(p: string): string | undefined;
  stat: EngineHost['stat'];
  readFile: EngineHost['readFile'];
}

/** The remotes of every work tree under `roots`, kept for GIT_CACHE_MS; `clear` forgets them. */
export function createGitRemotes(reads: RemoteReads): { remotes(roots: string[]): GitRemote[]; clear(): void } {
  let cache: { at: number; remotes: GitRemote[] } | undefined;
  return {
    remotes(roots) {
      const now = Date.now();
      if (cache && now - cache.at < GIT_CACHE_MS) return cache.remotes;
      const remotes: GitRemote[] = [];
      const seen = new Set<string>();
      for (const root of roots)
        findWorkTrees(reads, root, 0, (tree) => {
          if (seen.has(tree)) return;
          seen.add(tree);
          remotes.push(...remotesOf(reads, tree));
        });
      cache = { at: now, remotes };
      return remotes;
    },
    clear() {
      cache = undefined;
    },
  };
}

function findWorkTrees(reads: RemoteReads, dir: string, depth: number, found: (tree: string) => void): void {
  if (!reads.confine(dir)) return;
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  if (entries.some((e) => e.name === '.git')) found(dir);
  if (depth >= GIT_SEARCH_DEPTH) return;
  for (const e of entries) {
    if (!e.isDirectory() || SKIPPED_FOLDERS.has(e.name) || e.name.startsWith('.')) continue;
    findWorkTrees(reads, toPosix(path.join(dir, e.name)), depth + 1, found);
  }
}

/** Remotes of one work tree: `.git/config`, or the config a `.git` file (worktree, submodule) points to. */
function remotesOf(reads: RemoteReads, tree: string): GitRemote[] {
  const dotGit = toPosix(path.join(tree, '.git'));
  const st = reads.stat(dotGit);
  if (!st) return [];
  let gitDir = dotGit;
  if (st.isFile) {
    const m = /^gitdir:\s*(.+)$/m.exec(reads.readFile(dotGit) ?? '');
    if (!m) return [];
    gitDir = toPosix(path.resolve(tree, m[1].trim()));
    // A linked worktree keeps its remotes in the main repository's config.
    const common = reads.readFile(toPosix(path.join(gitDir, 'commondir')));
    if (common) gitDir = toPosix(path.resolve(gitDir, common.trim()));
  }
  const text = reads.readFile(toPosix(path.join(gitDir, 'config')));
  if (text === undefined) return [];
  return parseGitConfigRemotes(text).map((r) => ({ root: tree, name: r.name, url: r.url }));
}

/** `[remote "origin"] url = …` entries of a git config file (the first url of each remote). */
export function parseGitConfigRemotes(text: string): { name: string; url: string }[] {
  const out: { name: string; url: string }[] = [];
  let remote: string | undefined;
  let hasUrl = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      const m = /^\[\s*remote\s+"((?:[^"\\]|\\.)*)"\s*\]/.exec(line);
      remote = m ? m[1].replace(/\\(.)/g, '$1') : undefined;
      hasUrl = false;
      continue;
    }
    if (remote === undefined || hasUrl) continue;
    const kv = /^url\s*=\s*(.*)$/i.exec(line);
    if (kv) {
      let url = kv[1].trim();
      if (url.startsWith('"') && url.endsWith('"') && url.length >= 2) url = url.slice(1, -1);
      out.push({ name: remote, url });
      hasUrl = true;
    }
  }
  return out;
}
