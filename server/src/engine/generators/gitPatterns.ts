/**
 * The three pattern languages of the git generator:
 * - directories: Go `path.Match` (`*` and `?` never cross `/`, `[...]` classes, `\` escapes, whole-path match);
 * - files, default: git pathspec as `git ls-files -- <pattern>` reads it (`*` crosses `/`, so
 *   `p1/**\/config.json` needs at least one directory in between; a plain path also matches everything below it);
 * - files with `--enable-new-git-file-globbing`: doublestar (`**` = zero or more directories, `{a,b}`).
 * (Argo CD `applicationset/generators/git.go`, `util/git/client.go`.)
 */
import { doublestarMatch, gitPathspecMatch, goPathMatch, type PathMatcher } from '../rules/globs';

/** Go path.Match; undefined when the pattern is malformed (ErrBadPattern). Linear: `rules/globs.ts`. */
export const goPathMatcher = (pattern: string): PathMatcher | undefined => goPathMatch(pattern);

/** git's default pathspec matching of ls-files (literal, folder, or wildmatch without FNM_PATHNAME). */
export const gitPathspecMatcher = (pattern: string): PathMatcher => gitPathspecMatch(pattern);

/** doublestar.Match (dot files matched, `**` as a whole component, `{a,b}`). */
export const doublestarMatcher = (pattern: string): PathMatcher => doublestarMatch(pattern);
