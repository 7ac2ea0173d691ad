/** Paths of a kustomization: which resources kustomize fetches, and how it joins a relative path. */
import { foldAscii, startsWithScheme } from '../workspace/names';

/** A kustomize resource that kustomize fetches (a git URL with `?ref=`, `github.com/…`, an http(s) URL). */
export function isRemote(ref: string): boolean {
  const lower = foldAscii(ref);
  // Prefixes by `startsWith`, in any case, not one case-insensitive pattern (its compile, once per process,
  // cost more than the test: workspace/names.ts); the other alternatives both need a `?`.
  return REMOTE_PREFIXES.some((p) => lower.startsWith(p)) || (ref.includes('?') && /\?ref=|\/\/.*\?/.test(ref));
}

/** A bare GitHub, GitLab or Bitbucket path (`(github|gitlab|bitbucket)\.(com|org)/`), in lower case. */
export const GIT_HOST_PREFIXES = ['github.com/', 'github.org/', 'gitlab.com/', 'gitlab.org/', 'bitbucket.com/', 'bitbucket.org/'];
const REMOTE_PREFIXES = ['http://', 'https://', 'git@', 'ssh://', 'git::', ...GIT_HOST_PREFIXES];

/** `argoproj/` or `argoproj-labs/` in `ref`, in any case (`/argoproj(-labs)?\//i`, without its compile: workspace/names.ts). */
export function namesArgoproj(ref: string): boolean {
  const lower = foldAscii(ref);
  return lower.includes('argoproj/') || lower.includes('argoproj-labs/');
}

/** Joins a kustomization-relative path; refuses absolute paths and URLs (the host confines reads anyway). */
export function resolveRelative(base: string, rel: string): string | undefined {
  if (!rel || rel.startsWith('/') || startsWithScheme(rel)) return undefined;
  const parts = base.split('/');
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return parts.join('/') || '/';
}
