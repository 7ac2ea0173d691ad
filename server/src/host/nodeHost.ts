/**
 * The Node implementation of `EngineHost`: the only place where the engine's reads reach the file
 * system. Reads are confined to the workspace roots and the places the settings name
 * (confinement.ts), files are read safely and size-capped (files.ts), and git remotes come from the
 * work trees' `.git/config` (gitRemotes.ts).
 */
import * as fs from 'node:fs';
import { DEFAULT_SETTINGS, type EngineSettings, type FileStat } from '@appset-tools/engine';
import type { WorkspaceHost } from './workspaceHost';

import { createConfinement } from './confinement';
import { MAX_READ_BYTES, readTextFile } from './files';
import { createGitRemotes } from './gitRemotes';

export type NodeHost = WorkspaceHost;

export function createNodeHost(roots: string[], settings: Partial<EngineSettings> = {}, log?: (m: string) => void): NodeHost {
  let current: EngineSettings = { ...DEFAULT_SETTINGS, ...settings };
  const places = createConfinement();
  places.setRoots(roots, current);

  const readFile = (p: string): string | undefined => {
    const real = places.confine(p);
    if (!real) return undefined;
    // Regular files only, size-capped, never blocking (files.ts).
    const r = readTextFile(real, MAX_READ_BYTES);
    if ('text' in r) return r.text;
    log?.(`not read: ${p}: ${r.skipped}`);
    return undefined;
  };
  const stat = (p: string): FileStat | undefined => {
    const at = places.locate(p);
    return at && statOf(at.real, at.lst);
  };
  const git = createGitRemotes({ confine: places.confine, stat, readFile });

  return {
    roots: () => [...places.roots()],
    readFile,
    stat,
    readDir(p) {
      const real = places.confine(p);
      if (!real) return undefined;
      try {
        return fs.readdirSync(real).sort();
      } catch {
        return undefined;
      }
    },
    gitRemotes: () => git.remotes(places.roots()),
    settings: () => current,
    log,
    updateSettings(s) {
      current = { ...DEFAULT_SETTINGS, ...s };
      places.setSettings(current);
    },
    updateRoots(rs) {
      places.setRoots(rs, current);
      git.clear();
    },
  };
}

/** The `FileStat` of a located file (a symbolic link's target's, marked as a link); undefined when it vanished. */
function statOf(real: string, lst: fs.Stats): FileStat | undefined {
  try {
    const link = lst.isSymbolicLink();
    const st = link ? fs.statSync(real) : lst;
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
}
