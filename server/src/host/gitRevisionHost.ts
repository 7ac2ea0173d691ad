/**
 * An `EngineHost` over one git revision: the engine sees the repository's files as they are in that
 * commit, at the same absolute paths as the work tree, without the work tree being read or touched.
 * `appset diff --base <rev>` renders the base side with it, so cluster Secrets, inventories, Argo CD
 * configuration and `.appset-tools.yaml` all come from the base revision too.
 *
 * The tree is listed once (`git ls-tree -r -l -z`); YAML and JSON blobs are read in one
 * `git cat-file --batch` process the first time any file is read, other blobs one by one on demand.
 * Only paths listed in the tree can be read, so `..` or symlinks cannot reach outside the commit
 * (symlinks are not followed: their blob is the link target, not a file's content).
 */
import { spawnSync } from 'node:child_process';
import { DEFAULT_SETTINGS, type EngineHost, type EngineSettings, type FileStat, type GitRemote } from '@appset-tools/engine';
import { MAX_READ_BYTES } from './files';
import { readTextFile } from './files';

/** Bytes of eager YAML/JSON blobs read at once; beyond this, files are read one by one. */
const MAX_BATCH_BYTES = 64 * 1024 * 1024;
const MAX_OUTPUT = 256 * 1024 * 1024;

interface Entry {
  oid: string;
  size: number;
  /** Regular file (100644/100755); symlinks and submodules are listed but not readable. */
  readable: boolean;
}

export class GitError extends Error {}

/** Runs git in `cwd`; throws GitError with git's message on failure. */
export function git(cwd: string, args: string[], input?: string): Buffer {
  const r = spawnSync('git', args, { cwd, input, maxBuffer: MAX_OUTPUT, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } });
  if (r.error) throw new GitError(`git ${args[0]}: ${r.error.message}`);
  if (r.status !== 0) throw new GitError(r.stderr.toString('utf8').trim() || `git ${args[0]} exited with ${r.status}`);
  return r.stdout;
}

/** The commit a revision names, or undefined when it names none. */
export function resolveCommit(cwd: string, rev: string): string | undefined {
  if (rev.startsWith('-')) return undefined;
  try {
    return (
      git(cwd, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])
        .toString('utf8')
        .trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** The work tree root containing `cwd`, or undefined outside a git work tree. */
export function workTreeRoot(cwd: string): string | undefined {
  try {
    return git(cwd, ['rev-parse', '--show-toplevel']).toString('utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export interface GitRevisionHost extends EngineHost {
  /** The commit id the host reads. */
  readonly commit: string;
  /** Every readable file path of the commit (absolute), sorted. */
  files(): string[];
}

export function createGitRevisionHost(
  root: string,
  commit: string,
  settings: Partial<EngineSettings> = {},
  log?: (m: string) => void,
): GitRevisionHost {
  const base = root.replace(/\/+$/, '');
  const { files, dirs } = listTree(base, commit);
  const blobs = createBlobReader(base, files, log);
  const inventories = createInventoryReader(settings, log);
  const current: EngineSettings = { ...DEFAULT_SETTINGS, ...settings };
  let remotes: GitRemote[] | undefined;

  return {
    commit,
    roots: () => [base],
    files: () =>
      [...files.entries()]
        .filter(([, e]) => e.readable)
        .map(([p]) => p)
        .sort(),
    readFile(p) {
      if (inventories.has(p)) return inventories.text(p);
      const e = files.get(normal(p));
      if (!e || !e.readable || e.size > MAX_READ_BYTES) return undefined;
      return blobs.read(e);
    },
    stat(p) {
      if (inventories.has(p)) {
        const text = inventories.text(p);
        return text === undefined ? undefined : ({ isFile: true, isDirectory: false, mtimeMs: 0, size: text.length } satisfies FileStat);
      }
      const n = normal(p);
      const e = files.get(n);
      if (e) return e.readable ? ({ isFile: true, isDirectory: false, mtimeMs: 0, size: e.size } satisfies FileStat) : undefined;
      if (dirs.has(n)) return { isFile: false, isDirectory: true, mtimeMs: 0, size: 0 };
      return undefined;
    },
    readDir(p) {
      const d = dirs.get(normal(p));
      return d ? [...d].sort() : undefined;
    },
    gitRemotes() {
      remotes ??= configRemotes(base);
      return remotes;
    },
    settings: () => current,
    log,
  };
}

/** The commit's tree (`git ls-tree -r -l -z`): its files by absolute path, and each folder's entries. */
function listTree(base: string, commit: string): { files: Map<string, Entry>; dirs: Map<string, Set<string>> } {
  const files = new Map<string, Entry>();
  const dirs = new Map<string, Set<string>>([[base, new Set()]]);
  const out = git(base, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]).toString('utf8');
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, oid, size] = rec.slice(0, tab).split(/ +/);
    const rel = rec.slice(tab + 1);
    if (type !== 'blob' && type !== 'commit') continue;
    const abs = `${base}/${rel}`;
    files.set(abs, { oid, size: Number(size) || 0, readable: type === 'blob' && (mode === '100644' || mode === '100755') });
    // Register every folder on the way.
    let child = abs;
    for (let d = abs.slice(0, abs.lastIndexOf('/')); d.length >= base.length; d = d.slice(0, d.lastIndexOf('/'))) {
      const name = child.slice(d.length + 1);
      const set = dirs.get(d);
      if (set) {
        set.add(name);
        break;
      }
      dirs.set(d, new Set([name]));
      child = d;
    }
  }
  return { files, dirs };
}

/**
 * The text of a blob, kept once read: the first read fetches every YAML/JSON blob of the commit in
 * one `git cat-file --batch` process (up to MAX_BATCH_BYTES), other blobs are read one by one.
 */
function createBlobReader(base: string, files: Map<string, Entry>, log?: (m: string) => void): { read(e: Entry): string | undefined } {
  const blobs = new Map<string, string>();
  let batched = false;

  /** Reads the YAML/JSON blobs of the commit in one git process. */
  function batch(): void {
    batched = true;
    const wanted: Entry[] = [];
    let bytes = 0;
    for (const [p, e] of files) {
      if (!e.readable || e.size > MAX_READ_BYTES || !/\.(ya?ml|json)$/i.test(p) || blobs.has(e.oid)) continue;
      if (bytes + e.size > MAX_BATCH_BYTES) break;
      bytes += e.size;
      wanted.push(e);
    }
    if (!wanted.length) return;
    const buf = git(base, ['cat-file', '--batch'], wanted.map((e) => e.oid).join('\n') + '\n');
    let at = 0;
    while (at < buf.length) {
      const nl = buf.indexOf(10, at);
      if (nl < 0) break;
      const header = buf.subarray(at, nl).toString('utf8').split(' ');
      const size = Number(header[2]);
      if (header[1] === 'missing' || !Number.isFinite(size)) {
        at = nl + 1;
        continue;
      }
      blobs.set(header[0], buf.subarray(nl + 1, nl + 1 + size).toString('utf8'));
      at = nl + 1 + size + 1;
    }
  }

  return {
    read(e) {
      if (!batched) batch();
      let text = blobs.get(e.oid);
      if (text === undefined) {
        try {
          text = git(base, ['cat-file', 'blob', e.oid]).toString('utf8');
        } catch (err) {
          log?.(`git cat-file ${e.oid}: ${(err as Error).message}`);
          return undefined;
        }
        blobs.set(e.oid, text);
      }
      return text;
    },
  };
}

/**
 * Inventory files the user named (`--inventory FILE`) describe the clusters, not the revision: both
 * sides of a diff read exactly those files from disk (safely, files.ts), wherever they are.
 */
function createInventoryReader(
  settings: Partial<EngineSettings>,
  log?: (m: string) => void,
): { has(p: string): boolean; text(p: string): string | undefined } {
  const inventories = new Map<string, string | undefined>();
  for (const f of settings.inventoryFiles ?? [])
    if (typeof f === 'string' && f.startsWith('/') && !/[*?[{]/.test(f) && !f.includes('\0')) inventories.set(f, undefined);
  return {
    has: (p) => inventories.has(p),
    text(p) {
      let text = inventories.get(p);
      if (text === undefined) {
        const r = readTextFile(p);
        text = 'text' in r ? r.text : '';
        if (!('text' in r)) log?.(`not read: ${p}: ${r.skipped}`);
        inventories.set(p, text);
      }
      return text || undefined;
    },
  };
}

/** The remotes of the repository's config (`git config --get-regexp`; the first url of each remote). */
function configRemotes(base: string): GitRemote[] {
  const remotes: GitRemote[] = [];
  try {
    const text = git(base, ['config', '--get-regexp', '^remote\\..*\\.url$']).toString('utf8');
    const seen = new Set<string>();
    for (const line of text.split('\n')) {
      const m = /^remote\.(.+)\.url (.*)$/.exec(line);
      if (m && !seen.has(m[1])) {
        seen.add(m[1]);
        remotes.push({ root: base, name: m[1], url: m[2] });
      }
    }
  } catch {
    /* no remotes */
  }
  return remotes;
}

/** `p` with `.` and `..` segments resolved (never above `/`); '' for a path that cannot be one. */
function normal(p: string): string {
  if (typeof p !== 'string' || p.includes('\0')) return '';
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}
