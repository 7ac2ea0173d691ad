/**
 * Workspace paths as the engine holds them (absolute, `/` separators; see host.ts): the one home of
 * the folder of a path and of a path shown relative to the workspace root that holds it.
 */

/** The folder of an absolute path (`/` for a file at the top). */
export function dirname(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

/** A path or glob relative to the folder `dir` made absolute (`..` never climbs above `/`); an absolute one as it is. */
export function resolvePath(dir: string, p: string): string {
  if (p.startsWith('/')) return p;
  const parts = dir.split('/');
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length > 1) parts.pop();
    } else parts.push(seg);
  }
  return parts.join('/') || '/';
}

/** `p` relative to the innermost of `roots` that holds it (`.` for a root itself); undefined outside every root. */
export function workspaceRelative(roots: readonly string[], p: string): string | undefined {
  const r = [...roots].sort((a, b) => b.length - a.length).find((x) => p === x || p.startsWith(x.endsWith('/') ? x : x + '/'));
  if (r === undefined) return undefined;
  return p.slice(r.length).replace(/^\/+/, '') || '.';
}

/** `p` as a message shows it: relative to its workspace root, or as it is outside every root. */
export function relativePath(roots: readonly string[], p: string): string {
  return workspaceRelative(roots, p) ?? p;
}
