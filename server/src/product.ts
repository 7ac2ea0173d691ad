/**
 * What the product calls itself and where it lives, read from package.json at build time (esbuild
 * keeps only the fields imported here): the version `appset --version`, the language server and the
 * reports print, and the documentation every diagnostic code links to. One home, so a release only
 * changes package.json.
 */
import { name, version, homepage } from '../../package.json';

export const PRODUCT_NAME: string = name;
export const PRODUCT_VERSION: string = version;
/** The public repository (package.json `homepage`); help links point into its docs/ on main. */
export const PRODUCT_HOME: string = homepage.replace(/#.*$/, '').replace(/\/$/, '');
/** The page documenting every diagnostic code, one anchor per code. */
export const CODES_DOC = `${PRODUCT_HOME}/blob/main/docs/codes.md`;

/** The anchor of a diagnostic code in docs/codes.md (`appset/unknown-field` → `code-appset-unknown-field`). */
export function codeAnchor(code: string): string {
  return 'code-' + code.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
}

/** The link to a diagnostic code's own section (SARIF helpUri, markdown reports, LSP codeDescription). */
export function codeHelpUri(code: string): string {
  return `${CODES_DOC}#${codeAnchor(code)}`;
}
