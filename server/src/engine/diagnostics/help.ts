/**
 * Where a diagnostic code is explained: every code has its own anchor in docs/codes.md, so an editor's
 * link on a diagnostic, a SARIF rule's help and the pull-request comment open that code's row.
 */

/** The project's documentation folder on its public repository. */
export const DOCS_URL = 'https://github.com/appset-tools/appset-tools/blob/main/docs';
/** The README, the front door (SARIF's tool information). */
export const README_URL = 'https://github.com/appset-tools/appset-tools/blob/main/README.md';

/** The anchor of a diagnostic code in docs/codes.md (`appset/unknown-field` → `code-appset-unknown-field`). */
export function codeAnchor(code: string): string {
  return 'code-' + code.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
}

/** The link to one code's own row in docs/codes.md. */
export function codeHelpUri(code: string): string {
  return `${DOCS_URL}/codes.md#${codeAnchor(code)}`;
}
