/**
 * Reading one file safely: regular files only (a FIFO named `*.yaml` would block the read forever, a
 * symlink to `/dev/zero` never ends), at most a size limit, decoded as git and go-yaml would read
 * it (UTF-8, a byte-order mark removed; UTF-16 with a byte-order mark decoded, as go-yaml's reader
 * does). The file is opened non-blocking and checked on the open descriptor, so it cannot be
 * swapped for a FIFO between the check and the read.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Files larger than this are not read (the engine reads YAML and small repository files, not artefacts). */
export const MAX_READ_BYTES = 2 * 1024 * 1024;

/**
 * `skipped` says why a file was not read, in words for the user. `unread`: a regular file (or one that could
 * not even be opened) whose text could not be had — a permission, an I/O error, over the size limit —, so
 * it was not checked; a command that gates on files fails closed on it. A FIFO, a device, a socket, a
 * missing file or a link out of the folder is skipped by design and is not `unread`.
 */
export type ReadResult = { text: string } | { skipped: string; unread?: true };

/** open(2) errors that say there is no file to read here (no file, a folder, a socket, a link loop): skipped, not unread. */
const NOT_A_FILE = new Set(['ENOENT', 'EISDIR', 'ENXIO', 'ELOOP', 'ENOTDIR']);

/** Reads `p` (following symlinks); `skipped` says why it was not read, in words for the user. */
export function readTextFile(p: string, maxBytes = MAX_READ_BYTES): ReadResult {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      skipped:
        code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : `it cannot be opened (${code ?? (e as Error).message})`,
      ...(NOT_A_FILE.has(code ?? '') ? {} : { unread: true as const }),
    };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { skipped: `it is not a regular file (${kindOf(st)})` };
    if (st.size > maxBytes) return { skipped: `it is ${mb(st.size)}, larger than the ${mb(maxBytes)} limit`, unread: true };
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let n = 0;
    for (;;) {
      const r = fs.readSync(fd, buf, n, buf.length - n, null);
      if (r <= 0) break;
      n += r;
      if (n >= buf.length) return { skipped: `it grew beyond ${mb(maxBytes)} while being read`, unread: true };
    }
    return { text: decodeText(buf.subarray(0, n)) };
  } catch (e) {
    return { skipped: `it cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, unread: true };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `readTextFile` for a file found inside `roots` (a folder the user named, the repository: `what`): the file's
 * real path must lie inside one of them, so a symbolic link out of the folder is not followed (its
 * text would be analysed and quoted in findings as if it were the folder's). The real path is then
 * opened, so the check and the read concern the same file.
 */
export function readTextFileWithin(p: string, roots: readonly string[], what = 'the folder', maxBytes = MAX_READ_BYTES): ReadResult {
  let real: string;
  try {
    real = fs.realpathSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return {
      skipped: code === 'ENOENT' ? 'no such file (or a symbolic link to a missing file)' : `it cannot be opened (${code})`,
      ...(NOT_A_FILE.has(code ?? '') ? {} : { unread: true as const }),
    };
  }
  const inside = roots.some((r) => {
    let root: string;
    try {
      root = fs.realpathSync(r);
    } catch {
      return false;
    }
    return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  });
  if (!inside) return { skipped: `it is a symbolic link to a file outside ${what}, not followed` };
  return readTextFile(real, maxBytes);
}

/** UTF-8 (BOM removed) or, after a UTF-16 byte-order mark, UTF-16. */
export function decodeText(buf: Buffer): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return new TextDecoder('utf-16le').decode(buf);
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    const swapped = Buffer.from(buf.subarray(2));
    if (swapped.length % 2) swapped.subarray(0, swapped.length - 1).swap16();
    else swapped.swap16();
    return new TextDecoder('utf-16le').decode(swapped);
  }
  return new TextDecoder('utf-8').decode(buf); // strips a UTF-8 BOM; invalid bytes become U+FFFD
}

export function kindOf(st: fs.Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isDirectory()) return 'a folder';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
