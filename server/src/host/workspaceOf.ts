/**
 * The workspace a file belongs to when nobody named one: the git work tree that contains it (the
 * nearest folder above it holding `.git`, a folder or a worktree's file), else the file's own folder.
 * The CLI roots each input there, and the language server roots a document there when the editor gave
 * no workspace (Helix started outside the repository sends none), so cluster Secrets and Argo CD
 * settings beside the ApplicationSets are found wherever the tool was started.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The git work tree containing `p`, else `p` itself when it is a folder, else `p`'s folder. */
export function workspaceOf(p: string): string {
  let dir = p;
  try {
    if (!fs.statSync(p).isDirectory()) dir = path.dirname(p);
  } catch {
    dir = path.dirname(p);
  }
  return gitWorkTreeOf(dir) ?? dir;
}

/** The nearest folder at or above `dir` that holds `.git` (at most 64 levels up). */
export function gitWorkTreeOf(dir: string): string | undefined {
  for (let d = path.resolve(dir), i = 0; i < 64; i++) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  return undefined;
}
