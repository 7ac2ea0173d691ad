/**
 * The three pattern languages of the git generator:
 * - directories: Go `path.Match` (`*` and `?` never cross `/`, `[...]` classes, `\` escapes, whole-path match);
 * - files, default: git pathspec as `git ls-files -- <pattern>` reads it (`*` crosses `/`, so
 *   `p1/**\/config.json` needs at least one directory in between; a plain path also matches everything below it);
 * - files with `--enable-new-git-file-globbing`: doublestar (`**` = zero or more directories, `{a,b}`).
 * (Argo CD `applicationset/generators/git.go`, `util/git/client.go`.) All three are matched in linear
 * time by `rules/globs.ts`.
 */
import { doublestarMatch, gitPathspecMatch, goPathMatch, type PathMatcher } from '../rules/globs';

/** Go path.Match; undefined when the pattern is malformed (ErrBadPattern). */
export const goPathMatcher = (pattern: string): PathMatcher | undefined => goPathMatch(pattern);

/**
 * A files pattern as the repo server uses it: git normalises a pathspec before matching
 * (`./clusters.json` → `clusters.json`, `a/../b` → `b`, `a//b` → `a/b`; setup.c prefix_path →
 * path.c normalize_path_copy), and the new globbing joins it to the checkout with Go's
 * filepath.Join, which cleans it the same way (util/git/client.go LsFiles). Undefined when `..`
 * climbs above the repository root (git: "is outside repository").
 */
export function cleanGitPath(pattern: string): string | undefined {
  const out: string[] = [];
  for (const seg of pattern.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!out.length) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/') + (out.length && /\/\.?$/.test(pattern) ? '/' : '');
}

/** git's default pathspec matching of ls-files (literal, folder, or wildmatch without FNM_PATHNAME). */
export const gitPathspecMatcher = (pattern: string): PathMatcher => gitPathspecMatch(pattern);

/** doublestar.Match (dot files matched, `**` as a whole component, `{a,b}`). */
export const doublestarMatcher = (pattern: string): PathMatcher => doublestarMatch(pattern);
