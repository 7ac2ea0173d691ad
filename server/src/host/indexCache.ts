/**
 * The workspace index's memory between runs of the CLI and sessions of the language server: for each
 * YAML file, its mtime+size and which of the engine's interests its text passes
 * (engine/workspace/interests.ts). A file known to pass none is then not even read by the next `appset`
 * run or language server, which is most files of a repository (the server reads
 * the files it knew to tell the Argo CD install before its first answer: lsp/handlers/publish.ts).
 *
 * One small JSON file per workspace in the cache folder: `$APPSET_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/appset-tools`, else `~/.cache/appset-tools`. Safe to delete at any time; `--no-cache`
 * (or `APPSET_CACHE_DIR=off`) turns it off. Entries are keyed by the interests' own code, so a new
 * version of the tool never trusts an older one's results; at most MAX_CACHE_FILES workspaces are kept.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { INTERESTS, type ProbeCache } from '@appset-tools/engine';
import { cacheDir } from '../cacheDir';

const MAX_CACHE_FILES = 32;

export { cacheDir };

function fnv(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16).padStart(8, '0');
}

interface Stored {
  signature: string;
  entries: Record<string, [string, number]>;
  /**
   * The paths of `entries` that pass some interest, in their order: `passing` walks these (a few dozen)
   * instead of every entry (the language server's first answer asks it; the walk over the bench's 1,000
   * entries was 0.2 ms of its first answer, issue 39). Absent in an older file: every entry is walked.
   */
  passing?: string[];
}

/** A stored entry (as read: any JSON) that passes some interest of `mask`. */
function passes(e: unknown, mask: number): boolean {
  return Array.isArray(e) && typeof e[1] === 'number' && (e[1] & mask) !== 0;
}

export interface IndexCache extends ProbeCache {
  /** Writes what this run learned (no-op when nothing changed or the folder is not writable). */
  save(): void;
}

/** The cache of the workspace with these roots, or undefined when caching is off. */
export function openIndexCache(roots: string[], dir = cacheDir()): IndexCache | undefined {
  if (!dir) return undefined;
  const signature = fnv(INTERESTS.map((i) => i.name + ':' + i.test.toString()).join('\n'));
  const file = path.join(dir, `index-${fnv(roots.join('\n'))}.json`);
  let old: Record<string, [string, number]> = Object.create(null);
  let listed: unknown[] | undefined;
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Stored;
    if (stored.signature === signature && stored.entries && typeof stored.entries === 'object') {
      old = Object.assign(Object.create(null), stored.entries);
      if (Array.isArray(stored.passing)) listed = stored.passing;
    }
  } catch {
    /* no cache yet, or unreadable: start afresh */
  }
  // Only the entries touched by this run are written back (files that vanished drop out).
  const now: Record<string, [string, number]> = Object.create(null);
  let changed = false;
  let knownCount: number | undefined;
  const peek = (p: string) => {
    const e = old[p];
    if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'number') return undefined;
    return { key: e[0], mask: e[1] };
  };
  return {
    known: () => (knownCount ??= Object.keys(old).length),
    // One loop, no closure (the language server's first answer asks it once): over the entries that pass
    // some interest when the file lists them (`Stored.passing`), else over every file of the workspace.
    passing: (mask) => {
      const out: string[] = [];
      if (listed) {
        for (let i = 0; i < listed.length; i++) {
          const p = listed[i];
          if (typeof p === 'string' && passes(old[p], mask)) out.push(p);
        }
        return out;
      }
      for (const p in old) if (passes(old[p], mask)) out.push(p);
      return out;
    },
    peek,
    get(p) {
      const e = peek(p);
      if (e) now[p] = old[p];
      return e;
    },
    set(p, key, mask) {
      const e = old[p];
      if (!e || e[0] !== key || e[1] !== mask) changed = true;
      now[p] = [key, mask];
    },
    save() {
      // (A file written without the list of passing entries is written again once, with it.)
      if (!changed && (listed || !Object.keys(old).length) && Object.keys(now).length === Object.keys(old).length) return;
      try {
        fs.mkdirSync(dir, { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        const passing: string[] = [];
        for (const p in now) if (now[p][1] !== 0) passing.push(p);
        fs.writeFileSync(tmp, JSON.stringify({ signature, entries: now, passing } satisfies Stored));
        fs.renameSync(tmp, file);
        prune(dir);
      } catch {
        /* a read-only home folder only costs the next run some reading */
      }
    },
  };
}

/** Keeps the MAX_CACHE_FILES most recently written workspace caches. */
function prune(dir: string): void {
  const files = fs
    .readdirSync(dir)
    .filter((n) => /^index-[0-9a-f]{8}\.json$/.test(n))
    .map((n) => ({ p: path.join(dir, n), t: fs.statSync(path.join(dir, n)).mtimeMs }))
    .sort((a, b) => b.t - a.t);
  for (const f of files.slice(MAX_CACHE_FILES)) fs.rmSync(f.p, { force: true });
}
