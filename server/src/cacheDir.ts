/**
 * The folder the CLI and the language server keep their caches in (the workspace index's test results,
 * V8's compiled code of the bundles): `$APPSET_CACHE_DIR`, else `$XDG_CACHE_HOME/appset-tools`, else
 * `~/.cache/appset-tools`; undefined when `APPSET_CACHE_DIR` is `off` (or `0`). Safe to delete at any time.
 */
import * as os from 'node:os';
import * as path from 'node:path';

export function cacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const explicit = env.APPSET_CACHE_DIR;
  if (explicit === 'off' || explicit === '0') return undefined;
  if (explicit) return explicit;
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'appset-tools');
}
