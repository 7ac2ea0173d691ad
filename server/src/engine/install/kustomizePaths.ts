/** Paths of a kustomization: which resources kustomize fetches, and how it joins a relative path. */

/** A kustomize resource that kustomize fetches (a git URL with `?ref=`, `github.com/…`, an http(s) URL). */
export function isRemote(ref: string): boolean {
  return /^(https?:\/\/|git@|ssh:\/\/|git::|(github|gitlab|bitbucket)\.(com|org)\/)/i.test(ref) || /\?ref=|\/\/.*\?/.test(ref);
}

/** Joins a kustomization-relative path; refuses absolute paths and URLs (the host confines reads anyway). */
export function resolveRelative(base: string, rel: string): string | undefined {
  if (!rel || rel.startsWith('/') || /^[a-z]+:\/\//i.test(rel)) return undefined;
  const parts = base.split('/');
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/') || '/';
}
