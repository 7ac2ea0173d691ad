/**
 * How messages name an Argo CD install: by its workspace-relative folder (`Argo CD argocd/overlays/prod`),
 * and the one at the workspace root as such — never `Argo CD .`, which says nothing to a reader (issue 37:
 * "Argo CD .'s ApplicationSet controller does not start").
 */
export const ROOT_INSTALL = 'Argo CD in the workspace root';

/** One install's name in a sentence. `name` is the model's (workspace-relative folder, `.` for the root). */
export function argoCdNamed(name: string): string {
  return name === '.' || name === '' ? ROOT_INSTALL : `Argo CD ${name}`;
}

/** Several installs' names in a sentence: `Argo CD a, b`; the root one said as `the one in the workspace root`. */
export function argoCdsNamed(names: readonly string[]): string {
  if (names.length === 1) return argoCdNamed(names[0]);
  return `Argo CD ${names.map((n) => (n === '.' || n === '' ? 'the one in the workspace root' : n)).join(', ')}`;
}
