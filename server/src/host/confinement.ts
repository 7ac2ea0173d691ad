/**
 * Where the Node host may read: every path is resolved to its real path and refused unless it lies
 * inside one of the workspace roots (also resolved) or a place the settings name, so `..` segments
 * and symlinks that lead out of the workspace cannot be used to read other files (a repo-mapping or a
 * git generator path comes from the document being edited, i.e. from untrusted input).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EngineSettings } from '@appset-tools/engine';

import { realpathOrUndefined, toPosix } from './paths';

/**
 * Real paths of folders are kept this long (ms) and for at most DIR_CACHE_SIZE folders: a workspace
 * scan stats and reads thousands of files, and a `realpath` per file (one `lstat` per path segment)
 * was most of its cost. A file is then resolved with one `lstat`: its folder's cached real path plus
 * its name, unless it is itself a symbolic link (then `realpath` as before).
 */
const DIR_CACHE_MS = 2000;
const DIR_CACHE_SIZE = 10000;

export interface Confinement {
  /** The workspace roots as given (absolute, posix). */
  roots(): string[];
  /** Replaces the roots (and the places the settings name, resolved against them). */
  setRoots(roots: string[], settings: EngineSettings): void;
  /** Replaces the places the settings name. */
  setSettings(settings: EngineSettings): void;
  /** The real path of `p` and its `lstat` when it exists and lies inside; undefined otherwise. */
  locate(p: string): { real: string; lst: fs.Stats } | undefined;
  /** The real path of `p` when it exists and lies inside; undefined otherwise. */
  confine(p: string): string | undefined;
}

export function createConfinement(): Confinement {
  let rootList: string[] = [];
  let realRoots: string[] = [];
  /** Folders and files the user named in settings (mapped checkouts, inventory files): readable too. */
  let named: { dirs: string[]; files: string[] } = { dirs: [], files: [] };
  const realDirs = createRealDirs();

  /**
   * Inside a workspace root, or inside a checkout / at an inventory file the user deliberately named in
   * the settings (`repoMappings: {url: "../repo"}` is the setting's own example). Paths that come from
   * a document (a git generator's pattern) are resolved inside those places only.
   */
  function inside(real: string): boolean {
    return within(real, realRoots) || within(real, named.dirs) || named.files.includes(real);
  }

  /** The real path is its folder's (cached) real path plus its name, or `realpath` when `p` is a link. */
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
      const rd = realDirs.of(dir);
      if (rd) real = (rd.endsWith('/') ? rd : rd + '/') + path.basename(abs);
    }
    if (!real || !inside(real)) return undefined;
    return { real, lst };
  }

  return {
    roots: () => rootList,
    setRoots(rs, settings) {
      realDirs.clear();
      rootList = rs.map((r) => toPosix(path.resolve(r)));
      realRoots = [];
      for (const r of rootList) {
        const real = realpathOrUndefined(r);
        if (real) realRoots.push(real);
      }
      named = namedPlaces(settings, rootList);
    },
    setSettings(settings) {
      realDirs.clear();
      named = namedPlaces(settings, rootList);
    },
    locate,
    confine: (p) => locate(p)?.real,
  };
}

function within(real: string, dirs: string[]): boolean {
  return dirs.some((r) => real === r || real.startsWith(r.endsWith('/') ? r : r + '/'));
}

/** The real paths of folders, kept briefly (see DIR_CACHE_MS; a missing folder is not remembered). */
function createRealDirs(): { of(dir: string): string | undefined; clear(): void } {
  let cache = new Map<string, string>();
  let cacheAt = 0;

  function of(dir: string): string | undefined {
    const now = Date.now();
    if (now - cacheAt > DIR_CACHE_MS || cache.size > DIR_CACHE_SIZE) {
      cache = new Map();
      cacheAt = now;
    }
    let r = cache.get(dir);
    if (r === undefined) {
      r = resolveDir(dir);
      if (r !== undefined) cache.set(dir, r);
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
    const rp = of(parent);
    return rp === undefined ? undefined : (rp.endsWith('/') ? rp : rp + '/') + path.basename(dir);
  }

  return {
    of,
    clear() {
      cache = new Map();
    },
  };
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
