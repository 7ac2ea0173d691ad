/**
 * The baseline the editor's "this change" lens compares with (`impactBaseline`): `HEAD`, the merge base
 * with the default branch (`merge-base`), or any revision; resolved to a commit with the same read-only
 * git access `appset diff` uses (gitRevisionHost.ts). A baseline that names no commit is said, with
 * the reason, never replaced by another.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git, resolveCommit, workTreeRoot } from './gitRevisionHost';

/**
 * The git work tree holding the folder `dir` and the folder's path as git names it (its real path: git
 * reports the root with symbolic links resolved); undefined outside a work tree.
 */
export function gitFolder(dir: string): { root: string; dir: string } | undefined {
  const root = workTreeRoot(dir);
  if (!root) return undefined;
  let real = dir;
  try {
    real = fs.realpathSync(dir).split(path.sep).join('/');
  } catch {
    // a folder that is gone: its own name
  }
  return { root, dir: real };
}

/** A commit to compare with; `off` (a repository without a commit yet: nothing to compare with); or why the named baseline is not known. */
export type Baseline = { commit: string; label: string } | { off: true } | { unknown: string };

/** The default branch: what `origin/HEAD` points at, else the first of origin/main, main, origin/master, master that exists. */
export function defaultBranch(root: string): string | undefined {
  try {
    const ref = git(root, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']).toString('utf8').trim();
    if (ref) return ref.replace(/^refs\/remotes\//, '');
  } catch {
    // no origin/HEAD: try the usual names
  }
  return ['origin/main', 'main', 'origin/master', 'master'].find((b) => resolveCommit(root, b) !== undefined);
}

/**
 * The commit the setting names in the work tree `root`. The setting `off` is decided before git is
 * asked (lsp/impact.ts `of`, with git or without): here it is a revision like any other.
 */
export function resolveBaseline(root: string, setting: string): Baseline {
  const rev = setting.trim() || 'HEAD';
  if (rev === 'merge-base') {
    const branch = defaultBranch(root);
    if (!branch) return { unknown: 'impactBaseline is merge-base, but the repository has no origin/HEAD, main or master branch' };
    try {
      const commit = git(root, ['merge-base', 'HEAD', branch]).toString('utf8').trim();
      if (commit) return { commit, label: `the merge base with ${branch} (${commit.slice(0, 7)})` };
    } catch {
      // no common ancestor, or no HEAD
    }
    return { unknown: `HEAD and ${branch} have no merge base` };
  }
  const commit = resolveCommit(root, rev);
  // A repository without a commit has nothing to compare with yet: no lens, as outside git. A revision
  // the user named that names nothing is said.
  if (!commit)
    return rev === 'HEAD' && !resolveCommit(root, 'HEAD')
      ? { off: true }
      : { unknown: `impactBaseline "${rev}" names no commit in this repository` };
  return { commit, label: `${rev} (${commit.slice(0, 7)})` };
}
