/**
 * What the product calls itself, read from package.json at build time (esbuild keeps only the fields
 * imported here): the version `appset --version`, the language server and the reports print. One home,
 * so a release only changes package.json. (Where each diagnostic code is documented:
 * engine/diagnostics/help.ts, on the repository package.json's `homepage` names.)
 */
import { name, version } from '../../package.json';

export const PRODUCT_NAME: string = name;
export const PRODUCT_VERSION: string = version;
