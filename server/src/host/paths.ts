/** Path helpers of the Node hosts: posix separators, and `realpath` that answers undefined instead of throwing. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export function realpathOrUndefined(p: string): string | undefined {
  try {
    return toPosix(fs.realpathSync.native(p));
  } catch {
    return undefined;
  }
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
