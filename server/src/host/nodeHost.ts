/**
 * The Node implementation of `EngineHost`: the only place where the engine's reads reach the file
 * system. Every path is resolved through `realpath` and refused unless it lies inside one of the
 * workspace roots (also resolved), so `..` segments and symlinks that lead out of the workspace
 * cannot be used to read other files (a repo-mapping or a git generator path comes from the
 * document being edited, i.e. from untrusted input).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SKIPPED_FOLDERS, DEFAULT_SETTINGS, type EngineHost, type EngineSettings, type FileStat, type GitRemote } from '../engine';

import { MAX_READ_BYTES, readTextFile } from './files';

export { MAX_READ_BYTES };
/** How deep below a root work trees are searched for `.git/config`. */
export const GIT_SEARCH_DEPTH = 3;
/** Directories never descended into while looking for work trees. */
/** Git remotes are re-read at most this often (ms): remotes rarely change, and the lookup walks folders. */
const GIT_CACHE_MS = 5000;
/**
 * Real paths of folders are kept this long (ms) and for at most DIR_CACHE_SIZE folders: a workspace
 * scan stats and reads thousands of files, and a `realpath` per file (one `lstat` per path segment)
 * was most of its cost. A file is then resolved with one `lstat`: its folder's cached real path plus
 * its name, unless it is itself a symbolic link (then `realpath` as before).
 */
const DIR_CACHE_MS = 2000;
const DIR_CACHE_SIZE = 10000;

export interface NodeHost extends EngineHost {
  /** Replaces the settings (e.g. after a configuration change in the editor). */
  updateSettings(settings: Partial<EngineSettings>): void;
  /** Replaces the workspace roots. */
  updateRoots(roots: string[]): void;
}

export function createNodeHost(roots: string[], settings: Partial<EngineSettings> = {}, log?: (m: string) => void): NodeHost {
  let current: EngineSettings = { ...DEFAULT_SETTINGS, ...settings };
  let rootList: string[] = [];
  let realRoots: string[] = [];
  let gitCache: { at: number; remotes: GitRemote[] } | undefined;

  /** Folders and files the user named in settings (mapped checkouts, inventory files): readable too. */
  let named: { dirs: string[]; files: string[] } = { dirs: [], files: [] };

  let dirCache = new Map<string, string>();
  let dirCacheAt = 0;

  /** The real path of a folder (kept briefly, see DIR_CACHE_MS; a missing folder is not remembered). */
  function realDir(dir: string): string | undefined {
    const now = Date.now();
    if (now - dirCacheAt > DIR_CACHE_MS || dirCache.size > DIR_CACHE_SIZE) {
      dirCache = new Map();
      dirCacheAt = now;
    }
    let r = dirCache.get(dir);
    if (r === undefined) {
      r = resolveDir(dir);
      if (r !== undefined) dirCache.set(dir, r);
    }
    return r;
  }

  /**
   * A folder that is not itself a symbolic link is its parent's real path plus its name: one `lstat`
   * instead of `realpath`'s walk over every segment (the parent comes from the cache once its
   * sibling was seen). Links, and the file-system root, are resolved by `realpath`.
   */
  function resolveDir(dir: string): string | undefined {
    const parent = path.dirname(dir);
    if (parent === dir) return realpathOrUndefined(dir);
    let lst: fs.Stats;
    try {
      lst = fs.lstatSync(dir);
    } catch {
      return undefined;
    }
    if (!lst.isDirectory()) return lst.isSymbolicLink() ? realpathOrUndefined(dir) : undefined;
    const rp = realDir(parent);
    return rp === undefined ? undefined : (rp.endsWith('/') ? rp : rp + '/') + path.basename(dir);
  }

  function setRoots(rs: string[]): void {
    dirCache = new Map();
    rootList = rs.map((r) => toPosix(path.resolve(r)));
    realRoots = [];
    for (const r of rootList) {
      const real = realpathOrUndefined(r);
      if (real) realRoots.push(real);
    }
    gitCache = undefined;
    named = namedPlaces(current, rootList);
  }
  setRoots(roots);

  function within(real: string, dirs: string[]): boolean {
    return dirs.some((r) => real === r || real.startsWith(r.endsWith('/') ? r : r + '/'));
  }

  /**
   * Inside a workspace root, or inside a checkout / at an inventory file the user deliberately named in
   * the settings (`repoMappings: {url: "../repo"}` is the setting's own example). Paths that come from
   * a document (a git generator's pattern) are resolved inside those places only.
   */
  function inside(real: string): boolean {
    return within(real, realRoots) || within(real, named.dirs) || named.files.includes(real);
  }

  /**
   * The real path of `p` when it exists and lies inside a root (and its `lstat`); undefined otherwise.
   * The real path is its folder's (cached) real path plus its name, or `realpath` when `p` is a link.
   */
  function locate(p: string): { real: string; lst: fs.Stats } | undefined {
    if (typeof p !== 'string' || p.length === 0 || p.includes('\0')) return undefined;
    const abs = path.resolve(p);
    const dir = path.dirname(abs);
    let lst: fs.Stats;
    try {
      lst = fs.lstatSync(abs);
    } catch {
      return undefined;
    }
    let real: string | undefined;
    if (dir === abs || lst.isSymbolicLink()) real = realpathOrUndefined(abs);
    else {
      const rd = realDir(dir);
      if (rd) real = (rd.endsWith('/') ? rd : rd + '/') + path.basename(abs);
    }
    if (!real || !inside(real)) return undefined;
    return { real, lst };
  }

  /** The real path of `p` when it exists and lies inside a root; undefined otherwise. */
  function confine(p: string): string | undefined {
    return locate(p)?.real;
  }

  const host: NodeHost = {
    roots: () => [...rootList],
    readFile(p) {
      const real = confine(p);
      if (!real) return undefined;
      // Regular files only, size-capped, never blocking (files.ts).
      const r = readTextFile(real, MAX_READ_BYTES);
      if ('text' in r) return r.text;
      log?.(`not read: ${p}: ${r.skipped}`);
      return undefined;
    },
    stat(p) {
      const at = locate(p);
      if (!at) return undefined;
      try {
        const link = at.lst.isSymbolicLink();
        const st = link ? fs.statSync(at.real) : at.lst;
        const s: FileStat = {
          isFile: st.isFile(),
          isDirectory: st.isDirectory(),
          mtimeMs: st.mtimeMs,
          size: st.size,
          id: `${st.dev}:${st.ino}`,
        };
        if (link) s.isSymbolicLink = true;
        return s;
      } catch {
        return undefined;
      }
    },
    readDir(p) {
      const real = confine(p);
      if (!real) return undefined;
      try {
        return fs.readdirSync(real).sort();
      } catch {
        return undefined;
      }
    },
    gitRemotes() {
      const now = Date.now();
      if (gitCache && now - gitCache.at < GIT_CACHE_MS) return gitCache.remotes;
      const remotes: GitRemote[] = [];
      const seen = new Set<string>();
      for (const root of rootList)
        findWorkTrees(root, 0, (tree) => {
          if (seen.has(tree)) return;
          seen.add(tree);
          remotes.push(...remotesOf(tree));
        });
      gitCache = { at: now, remotes };
      return remotes;
    },
    settings: () => current,
    log,
    updateSettings(s) {
      dirCache = new Map();
      current = { ...DEFAULT_SETTINGS, ...s };
      named = namedPlaces(current, rootList);
    },
    updateRoots(rs) {
      setRoots(rs);
    },
  };

  function findWorkTrees(dir: string, depth: number, found: (tree: string) => void): void {
    if (!confine(dir)) return;
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
      findWorkTrees(toPosix(path.join(dir, e.name)), depth + 1, found);
    }
  }

  /** Remotes of one work tree: `.git/config`, or the config a `.git` file (worktree, submodule) points to. */
  function remotesOf(tree: string): GitRemote[] {
    const dotGit = toPosix(path.join(tree, '.git'));
    const st = host.stat(dotGit);
    if (!st) return [];
    let gitDir = dotGit;
    if (st.isFile) {
      const m = /^gitdir:\s*(.+)$/m.exec(host.readFile(dotGit) ?? '');
      if (!m) return [];
      gitDir = toPosix(path.resolve(tree, m[1].trim()));
      // A linked worktree keeps its remotes in the main repository's config.
      const common = host.readFile(toPosix(path.join(gitDir, 'commondir')));
      if (common) gitDir = toPosix(path.resolve(gitDir, common.trim()));
    }
    const text = host.readFile(toPosix(path.join(gitDir, 'config')));
    if (text === undefined) return [];
    return parseGitConfigRemotes(text).map((r) => ({ root: tree, name: r.name, url: r.url }));
  }

  return host;
}

/**
 * The real paths of the checkouts (`repoMappings` values) and inventory files (`inventoryFiles` without
 * glob characters) that settings name, relative ones resolved against every workspace root.
 */
function namedPlaces(s: EngineSettings, roots: string[]): { dirs: string[]; files: string[] } {
  const resolve = (p: string) => (path.isAbsolute(p) ? [path.resolve(p)] : roots.map((r) => path.resolve(r, p)));
  const dirs: string[] = [];
  const files: string[] = [];
  for (const d of Object.values(s.repoMappings ?? {})) {
    if (typeof d !== 'string' || !d || d.includes('\0')) continue;
    for (const c of resolve(d)) {
      const real = realpathOrUndefined(c);
      if (real && fs.statSync(real).isDirectory()) dirs.push(real);
    }
  }
  for (const f of s.inventoryFiles ?? []) {
    if (typeof f !== 'string' || !f || /[*?[{]/.test(f) || f.includes('\0')) continue;
    for (const c of resolve(f)) {
      const real = realpathOrUndefined(c);
      if (real) files.push(real);
    }
  }
  return { dirs, files };
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

function realpathOrUndefined(p: string): string | undefined {
  try {
    return toPosix(fs.realpathSync.native(p));
  } catch {
    return undefined;
  }
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
