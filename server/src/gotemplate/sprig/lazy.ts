/**
 * Libraries only a few template functions need, loaded on their first call: re2js (regex and
 * semver constraint functions) builds Unicode tables when it loads, bcryptjs is only for `bcrypt`.
 * A bundled `require` here stays lazy (esbuild wraps the module), so starting the language server or
 * the CLI does not pay for them.
 */
import type { RE2JS as RE2JSClass } from 're2js';

export type RE2JS = RE2JSClass;

let re2js: typeof import('re2js') | undefined;
let bcrypt: typeof import('bcryptjs') | undefined;

/** The RE2JS class. */
export function RE2(): typeof RE2JSClass {
  return (re2js ??= require('re2js') as typeof import('re2js')).RE2JS;
}

/** bcryptjs. */
export function bcryptjs(): typeof import('bcryptjs') {
  const m = (bcrypt ??= require('bcryptjs') as typeof import('bcryptjs'));
  return (m as unknown as { default?: typeof import('bcryptjs') }).default ?? m;
}
