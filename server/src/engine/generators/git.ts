/**
 * The git generator (Argo CD `applicationset/generators/git.go`) on a local checkout: `repoURL`
 * is matched to `appsetTools.repoMappings` or to the git remotes of the workspace, and the working
 * tree is read through the host (so never outside the workspace), its files' text through the workspace
 * index (an open document's unsaved text wins). The preview says that the working tree was used, not the
 * remote `revision`.
 */
import { parseGoYamlFile, type JsonPath, yamlLimitMessage } from '../yaml';
import type { EngineHost } from '../host';
import type { EngineInputs } from '../inputs';
import { cleanGitPath, doublestarMatcher, gitPathspecMatcher, goPathMatcher } from './gitPatterns';
import { normalize } from './normalize';
import { flatten, put, tagOrigin, type ParamSet } from './params';
import { isObj } from '../objects';
import { has } from '../versions/behaviours';
import { compareGoStrings } from '@appset-tools/gotemplate';
import { GeneratorError, markCapped, noLocalSource, noteEmpty, wrapErrors, type GenContext, type Generate } from './types';
import { emptyGitReason, excludedAllReason } from './why';
import { relativePath } from '../paths';
import { appendValues } from './values';
import { gitFileGlobbing } from '../install/model';

const MAX_TREE_ENTRIES = 50000;

/**
 * The placeholder in a repoURL (`<<platform_url>>`, `${REPO_URL}`, `https://github.com/<org>/gitops`,
 * `changeme`), quoted for a message. A `{{ }}` left after a matrix's interpolation is a missing
 * parameter, not a placeholder, and is not taken for one.
 */
export function repoPlaceholder(repoURL: string): string | undefined {
  if (repoURL.includes('{{')) return undefined;
  let m: RegExpExecArray | null;
  if ((m = /\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*\b|%\{[^}]*\}|<<?[^<>\s]+>>?/.exec(repoURL))) return `"${m[0]}"`;
  // A whole host or path segment that is a marker word (a repository named todo-app is not one).
  for (const seg of repoURL.split(/[/:@]+/)) {
    const s = seg.replace(/\.git$/, '');
    if (/^(change[-_]?me|replace[-_]?me|fix[-_]?me|todo|tbd|x{3,})$/i.test(s) || /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(s))
      return `"${seg}"`;
  }
  return undefined;
}

export const generateGit: Generate = (spec, ctx, path) => {
  // A mapping where the CRD wants a string is the schema's finding; here it is shown as written, never "[object Object]".
  const repoURL = typeof spec.repoURL === 'object' && spec.repoURL !== null ? JSON.stringify(spec.repoURL) : String(spec.repoURL ?? '');
  const dirs = Array.isArray(spec.directories) && spec.directories.length ? spec.directories : undefined;
  const files = Array.isArray(spec.files) && spec.files.length ? spec.files : undefined;
  if (!dirs && !files) throw new GeneratorError('ApplicationSet is empty', path);
  const placeholder = repoPlaceholder(repoURL);
  if (placeholder) {
    // Filled in by a script, Terraform or Helm before Argo CD reads it: not a repository to look for.
    const message = `repoURL is the placeholder ${placeholder}, filled in before Argo CD reads this file: the git generator yields nothing offline; map the real repository with appsetTools.repoMappings (or --repo-map) to preview it`;
    ctx.notes.add(message);
    ctx.inexact.value = true;
    ctx.findings.push({ code: 'generator/placeholder-repo', message, path: [...path, 'repoURL'] });
    noteEmpty(ctx, [...path, 'repoURL'], message, true, true);
    return [];
  }
  const root = resolveCheckout(repoURL, ctx.file, path);
  if (!root) {
    const only = ctx.file.host.onlyOpenedRepository;
    const message = only
      ? `the git generator cannot be previewed here: ${only}, and ${repoURL || 'its repository'} is not the opened one; the desktop extension and the CLI preview it from a local checkout`
      : `no local checkout of ${repoURL || 'the repository'} found in the workspace; map it with appsetTools.repoMappings (or --repo-map) to preview this generator`;
    return noLocalSource(ctx, path, 'generator/no-git-checkout', message);
  }
  ctx.inexact.value = true;
  const shown = checkoutShown(ctx, root);
  // An empty revision is HEAD for the repo-server (util/git's client resolves "" as HEAD).
  const revision =
    typeof spec.revision === 'string' && spec.revision ? spec.revision : spec.revision ? JSON.stringify(spec.revision) : 'HEAD';
  const note = `the git generator read the working tree of ${shown}, not revision ${revision} of ${repoURL}`;
  ctx.notes.add(note);
  ctx.findings.push({ code: 'generator/working-tree', message: note, path: [...path, 'repoURL'] });
  const tree = listTree(ctx.file.host, root);
  if (tree.truncated)
    ctx.notes.add(
      `the checkout ${shown} has more than ${MAX_TREE_ENTRIES} entries or folders more than 64 levels deep; the git generator only saw part of it`,
    );
  if (tree.uncheckedSubmodules.length)
    ctx.notes.add(
      `the submodule${tree.uncheckedSubmodules.length > 1 ? 's' : ''} ${tree.uncheckedSubmodules.map((s) => `"${s}"`).join(', ')} ${tree.uncheckedSubmodules.length > 1 ? 'are' : 'is'} not checked out in ${shown}; Argo CD checks submodules out (ARGOCD_GIT_MODULES_ENABLED, on by default), so the generator counts ${tree.uncheckedSubmodules.length > 1 ? 'them as directories' : 'it as a directory'} whose files are not seen here`,
    );
  const prefix = typeof spec.pathParamPrefix === 'string' ? spec.pathParamPrefix : '';
  const emptiesBefore = ctx.empties?.length ?? 0;
  try {
    return wrapErrors('error generating params from git: ', () =>
      dirs
        ? wrapErrors('error generating params from apps: ', () => fromDirectories(dirs, tree.dirs, ctx, prefix, path, spec.values, root))
        : fromFiles(files!, tree, root, ctx, prefix, path, spec),
    );
  } finally {
    // Matching nothing in a working tree that is not the revision the generator reads says nothing
    // certain about that revision: information, with why (never a different answer than Unknown).
    const other = otherRevision(ctx.file.host, root, revision);
    if (other)
      for (const e of (ctx.empties ?? []).slice(emptiesBefore)) {
        e.noData = true;
        e.reason += `; but the working tree is ${other}, and the generator reads revision ${revision}, whose files are not read here`;
      }
  }
};

/**
 * The branch the working tree holds, when it is certainly not `revision`: the generator reads another
 * branch, a tag or a commit than the one checked out. HEAD, the checked-out branch and the clone's
 * default branch (origin/HEAD, else main or master: what a change under review becomes once merged) are
 * taken as the working tree, as is any checkout
 * without a readable `.git/HEAD` (a mapped folder: the user said it is that repository).
 */
function otherRevision(host: EngineHost, root: string, revision: string): string | undefined {
  const rev = revision.replace(/^refs\/heads\//, '');
  if (rev === 'HEAD') return undefined;
  const head = host.readFile(`${root}/.git/HEAD`)?.trim();
  if (!head) return undefined;
  const branch = /^ref: refs\/heads\/(.+)$/.exec(head)?.[1];
  if (branch === rev) return undefined;
  if (!branch && /^[0-9a-f]{7,40}$/i.test(rev) && head.toLowerCase().startsWith(rev.toLowerCase())) return undefined;
  const originHead = /^ref: refs\/remotes\/origin\/(.+)$/.exec(host.readFile(`${root}/.git/refs/remotes/origin/HEAD`)?.trim() ?? '')?.[1];
  const defaults = originHead ? [originHead] : ['main', 'master'];
  // The default branch is what a change under review becomes once merged: the working tree stands for it.
  if (defaults.includes(rev)) return undefined;
  return branch ? `branch ${branch}` : `commit ${head.slice(0, 12)}`;
}

/**
 * A checkout as messages name it: relative to the workspace ("the workspace" for its root), never the
 * absolute path of the machine that runs the lint (a CI runner's folder means nothing to the reader).
 */
export function checkoutShown(ctx: GenContext, root: string): string {
  const rel = relativePath(ctx.file.host.roots(), root);
  return rel === '.' ? 'the workspace' : rel;
}

/** The directory patterns of a git (or oci) generator over the directories its source lists. */
export function fromDirectories(
  patterns: unknown[],
  dirs: string[],
  ctx: GenContext,
  prefix: string,
  path: JsonPath,
  values: unknown,
  root: string,
): ParamSet[] {
  const inc: ((d: string) => boolean)[] = [];
  const exc: ((d: string) => boolean)[] = [];
  patterns.forEach((p, i) => {
    if (!isObj(p)) return;
    const pattern = String(p.path ?? '');
    checkPattern(pattern, [...path, 'directories', i, 'path']);
    if (pattern.startsWith('/')) {
      ctx.findings.push({
        code: 'generator/absolute-pattern',
        message: `directory patterns are matched against repository-relative paths, which never start with "/": "${pattern}" matches nothing`,
        path: [...path, 'directories', i, 'path'],
      });
    }
    const m = goPathMatcher(pattern);
    if (!m) {
      // The controller logs malformed patterns and skips them.
      ctx.findings.push({
        code: 'generator/bad-pattern',
        message: `"${pattern}" is not a valid Go path.Match pattern (syntax error in pattern); the controller skips it`,
        path: [...path, 'directories', i, 'path'],
      });
      return;
    }
    (p.exclude === true ? exc : inc).push(m);
  });
  const matched = dirs.filter((d) => inc.some((m) => m(d)));
  const found = matched.filter((d) => !exc.some((m) => m(d)));
  if (!found.length && matched.length)
    // Every match removed by an `exclude: true` pattern: deliberate, and said as what happened.
    noteEmpty(ctx, [...path, 'directories'], excludedAllReason('directory', matched), true);
  else if (!found.length && inc.length) {
    const included = patterns.filter((p): p is Record<string, unknown> => isObj(p) && p.exclude !== true).map((p) => String(p.path ?? ''));
    noteEmpty(ctx, [...path, 'directories'], emptyGitReason('directory', included, dirs, checkoutShown(ctx, root)));
  }
  return found.map((d) => {
    const p: ParamSet = {};
    addPathParams(p, d, undefined, ctx.goTemplate, prefix);
    tagOrigin(ctx.origins, p, `git:${d}`);
    ctx.originFiles?.set(`git:${d}`, { path: `${root}/${d}`, directory: true });
    return wrapErrors('failed to append templated values: ', () => appendValues(p, values, ctx, path));
  });
}

/**
 * The file patterns of a git generator, or (`source: 'oci'`) of an oci generator: the repo server
 * globs an extracted OCI artifact with doublestar and skips directories, "" and "." meaning every
 * file (`GetOciFiles`, reposerver/repository/repository.go at argo-cd refs/pull/26121/merge); both
 * then parse the files alike (`generateRepoSourceFileParams`, applicationset/generators/repo_path_utils.go there).
 */
export function fromFiles(
  patterns: unknown[],
  tree: Tree,
  root: string,
  ctx: GenContext,
  prefix: string,
  path: JsonPath,
  spec: Record<string, unknown>,
  source: 'git' | 'oci' = 'git',
): ParamSet[] {
  const oci = source === 'oci';
  // The controller that runs this ApplicationSet decides the git globbing (install/model.ts); OCI always uses doublestar.
  const globbing = oci ? undefined : gitFileGlobbing(ctx.file, ctx.namespace);
  const newGlobbing = oci || !!globbing?.on;
  if (globbing)
    ctx.notes.add(
      `git files generator: ${newGlobbing ? 'new globbing (doublestar: ** spans folders)' : 'old globbing (* also crosses /)'} assumed, ${globbing.why}`,
    );
  const matcher = oci
    ? (pattern: string) => doublestarMatcher(pattern === '' || pattern === '.' ? '**' : pattern)
    : newGlobbing
      ? doublestarMatcher
      : gitPathspecMatcher;
  // The new globbing (doublestar.FilepathGlob) also returns matching directories; reading them fails.
  const candidates = newGlobbing && !oci ? [...tree.files, ...tree.allDirs] : tree.files;
  const selected = new Set<string>();
  const excludes: ((f: string) => boolean)[] = [];
  patterns.forEach((p, i) => {
    if (!isObj(p)) return;
    const pattern = String(p.path ?? '');
    // git normalises a pathspec (./x, a/../b); an OCI artifact's paths are matched as written.
    if (oci) checkPattern(pattern, [...path, 'files', i, 'path']);
    const clean = oci ? pattern : pattern.startsWith('/') ? undefined : cleanGitPath(pattern);
    if (clean === undefined)
      throw new GeneratorError(`error retrieving Git files: fatal: ${pattern}: '${pattern}' is outside repository`, [
        ...path,
        'files',
        i,
        'path',
      ]);
    const m = matcher(clean);
    if (p.exclude === true) excludes.push(m);
    else for (const f of candidates) if (m(f)) selected.add(f);
  });
  const out: ParamSet[] = [];
  // A mapping where the CRD wants a string is the schema's finding; here it is shown as written, never "[object Object]".
  const repoURL = typeof spec.repoURL === 'object' && spec.repoURL !== null ? JSON.stringify(spec.repoURL) : String(spec.repoURL ?? '');
  const dirSet = new Set(tree.allDirs);
  // sort.Strings: byte order.
  const chosen = [...selected].filter((f) => !excludes.some((m) => m(f))).sort((a, b) => compareGoStrings(a, b));
  if (!chosen.length) {
    const included = patterns.filter((p): p is Record<string, unknown> => isObj(p) && p.exclude !== true).map((p) => String(p.path ?? ''));
    // A pattern that can reach into a submodule not checked out here may match files Argo CD sees.
    const hidden = tree.uncheckedSubmodules.filter((sub) => included.some((p) => reaches(cleanGitPath(p) ?? p, sub)));
    if (hidden.length)
      noteEmpty(
        ctx,
        [...path, 'files'],
        `${emptyGitReason('file', included, tree.files, checkoutShown(ctx, root))}; the submodule ${hidden.map((h) => `"${h}"`).join(', ')} is not checked out here and Argo CD reads its files`,
        true,
      );
    else if (selected.size) noteEmpty(ctx, [...path, 'files'], excludedAllReason('file', [...selected].sort(compareGoStrings)), true);
    else if (included.length) noteEmpty(ctx, [...path, 'files'], emptyGitReason('file', included, tree.files, checkoutShown(ctx, root)));
  }
  for (const f of chosen) {
    const at = [...path, 'files'];
    // Through the index: an open document's unsaved text wins over the saved file (issue 41: an edit of a
    // config file counts while it is typed). The tree itself is the disk's (a file deleted on disk is gone).
    const text = dirSet.has(f) ? undefined : ctx.file.workspace.readText(`${root}/${f}`);
    if (text === undefined)
      throw new GeneratorError(
        `unable to process file '${f}' from repository '${repoURL}': ${dirSet.has(f) ? 'read ' + f + ': is a directory' : 'unable to read file'}`,
        at,
      );
    const objects = wrapErrors(`unable to process file '${f}' from repository '${repoURL}': `, () =>
      parseParamFile(text, at, !has(ctx.version, 'gitFilesEmptyArray')),
    );
    for (const obj of objects) {
      const p: ParamSet = {};
      if (ctx.goTemplate) for (const k of Object.keys(obj)) put(p, k, obj[k]);
      else {
        const flat = flatten(obj, true);
        for (const k of Object.keys(flat)) put(p, k, flat[k]);
      }
      const dir = f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.';
      addPathParams(p, dir, f.slice(f.lastIndexOf('/') + 1), ctx.goTemplate, prefix);
      tagOrigin(ctx.origins, p, `git:${f}`);
      ctx.originFiles?.set(`git:${f}`, { path: `${root}/${f}`, directory: false });
      if (out.length >= ctx.maxParams) {
        markCapped(ctx, path, 'the git files generator');
        return out;
      }
      out.push(
        wrapErrors(`unable to process file '${f}' from repository '${repoURL}': failed to append templated values: `, () =>
          appendValues(p, spec.values, ctx, path),
        ),
      );
    }
  }
  return out;
}

/**
 * generateParamsFromGitFile: YAML/JSON read as one object (an empty file is one empty object),
 * else as a list of objects, else an error. YAML 1.1 scalars, as sigs.k8s.io/yaml reads them.
 */
function parseParamFile(text: string, at: JsonPath, beforeArgo32 = false): Record<string, unknown>[] {
  let v: unknown;
  const tooBig = yamlLimitMessage(text);
  if (tooBig) throw new GeneratorError(`unable to parse file: ${tooBig}`, at);
  try {
    v = parseGoYamlFile(text);
  } catch (e) {
    throw new GeneratorError(`unable to parse file: error converting YAML to JSON: ${(e as Error).message}`, at);
  }
  if (beforeArgo32) {
    // Before Argo CD 3.2: a list first (an empty one still gives one default object), then one object.
    if (Array.isArray(v) && v.every((x) => x === null || isObj(x))) return v.length ? v.map((x) => (isObj(x) ? x : {})) : [{}];
    if (v === null || v === undefined) return [{}];
    if (isObj(v)) return [v];
    const kind = Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string';
    throw new GeneratorError(
      `unable to parse file: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
      at,
    );
  }
  if (v === null || v === undefined) return [{}];
  if (isObj(v)) return [v];
  if (Array.isArray(v) && v.every((x) => x === null || isObj(x))) return v.map((x) => (isObj(x) ? x : {}));
  const what = Array.isArray(v)
    ? 'array into Go value of type map[string]interface {}'
    : `${typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string'} into Go value of type []map[string]interface {}`;
  throw new GeneratorError(`unable to parse file: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${what}`, at);
}

function addPathParams(p: ParamSet, dir: string, filename: string | undefined, goTemplate: boolean, prefix: string): void {
  const segments = dir.split('/').filter((s) => s !== '');
  const basename = dir === '.' ? '.' : (segments[segments.length - 1] ?? '');
  const basenameNormalized = normalize(basename);
  if (goTemplate) {
    const o: ParamSet = {};
    put(o, 'path', dir);
    put(o, 'basename', basename);
    if (filename !== undefined) put(o, 'filename', filename);
    put(o, 'basenameNormalized', basenameNormalized);
    if (filename !== undefined) put(o, 'filenameNormalized', normalize(filename));
    put(o, 'segments', segments);
    if (prefix) {
      const wrap: ParamSet = {};
      put(wrap, 'path', o);
      put(p, prefix, wrap);
    } else put(p, 'path', o);
    return;
  }
  const k = (s: string) => (prefix ? `${prefix}.${s}` : s);
  put(p, k('path'), dir);
  put(p, k('path.basename'), basename);
  if (filename !== undefined) put(p, k('path.filename'), filename);
  put(p, k('path.basenameNormalized'), basenameNormalized);
  if (filename !== undefined) put(p, k('path.filenameNormalized'), normalize(filename));
  segments.forEach((s, i) => put(p, k(`path[${i}]`), s));
}

/** Patterns must stay inside the repository: the preview refuses `..` segments outright. */
function checkPattern(pattern: string, path: JsonPath): void {
  if (pattern.split('/').includes('..'))
    throw new GeneratorError(`the pattern "${pattern}" leaves the repository ("..") and is not read`, path);
}

export function normalizeRepoURL(u: string): string {
  let s = u.trim().toLowerCase();
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(s);
  if (scp) s = `${scp[1]}/${scp[2]}`;
  s = s.replace(/^[a-z+]+:\/\//, '').replace(/^[^@/]+@/, '');
  // ssh://git@host:22/o/r and https://host:443/o/r name the same repository as host/o/r.
  s = s.replace(/^([^/:]+):\d+\//, '$1/');
  return s.replace(/\/+$/, '').replace(/\.git$/, '');
}

/** The local checkout of a git repoURL: `repoMappings` first, then the workspace's git remotes. With `path`, a mapping to a missing folder is an error there. */
export function resolveCheckout(repoURL: string, file: EngineInputs, path?: JsonPath): string | undefined {
  const mapped = mappedFolder(repoURL, file, path);
  if (mapped) return mapped;
  const want = normalizeRepoURL(repoURL);
  for (const r of file.host.gitRemotes()) if (normalizeRepoURL(r.url) === want) return r.root;
  return undefined;
}

/**
 * The folder `repoMappings` (settings, `.appset-tools.yaml`, `--repo-map`) names for a repository
 * URL (a git repository or an OCI artifact). With `path`, a mapping to a missing folder is an error there.
 */
export function mappedFolder(repoURL: string, file: EngineInputs, path?: JsonPath): string | undefined {
  const host = file.host;
  const want = normalizeRepoURL(repoURL);
  for (const [url, dir] of Object.entries(file.settings.repoMappings)) {
    if (normalizeRepoURL(url) !== want) continue;
    const candidates = dir.startsWith('/') ? [dir] : host.roots().map((r) => `${r}/${dir}`);
    const tried: string[] = [];
    for (const c of candidates) {
      const abs = c
        .split('/')
        .reduce<string[]>((acc, seg) => (seg === '..' ? acc.slice(0, -1) : seg === '.' || seg === '' ? acc : [...acc, seg]), []);
      const p = '/' + abs.join('/');
      if (host.stat(p)?.isDirectory) return p;
      tried.push(p);
    }
    // The user set this mapping: never drop it in silence.
    if (path)
      throw new GeneratorError(
        `the repo mapping (appsetTools.repoMappings or --repo-map) sends ${url} to "${dir}", but ${tried.join(' / ') || 'that path'} is not a readable folder`,
        [...path, 'repoURL'],
      );
  }
  return undefined;
}

/** Whether a file pattern can match below the folder `dir`: its literal folder prefix and `dir` overlap. */
function reaches(pattern: string, dir: string): boolean {
  const literal = pattern.slice(0, pattern.search(/[*?[{\\]|$/));
  const prefix = literal.slice(0, literal.lastIndexOf('/') + 1);
  return (dir + '/').startsWith(prefix) || prefix.startsWith(dir + '/');
}

export interface Tree {
  files: string[];
  /** Directories the directory generator sees: not hidden, and holding at least one file (git has no empty directories). */
  dirs: string[];
  /** Every directory, for the new globbing. */
  allDirs: string[];
  /** Submodules declared in `.gitmodules` that are empty here (not initialised): Argo CD sees them checked out. */
  uncheckedSubmodules: string[];
  truncated: boolean;
}

/**
 * The submodule paths `.gitmodules` declares (git-config syntax: `path = apps/x` under
 * `[submodule "…"]`), repo-relative and cleaned. Argo CD checks submodules out before listing the
 * tree (`git submodule update --init --recursive` in util/git's Submodule, run by the repo-server's
 * checkoutRevision when ARGOCD_GIT_MODULES_ENABLED is on, its default in
 * cmd/argocd-applicationset-controller), while a clone made without `--recurse-submodules` (CI's
 * default) leaves each one an empty folder.
 */
export function submodulePaths(text: string): string[] {
  const out: string[] = [];
  let inSubmodule = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) inSubmodule = /^\[submodule\b/i.test(line);
    else if (inSubmodule) {
      const m = /^path\s*=\s*(.*)$/i.exec(line);
      if (!m) continue;
      let v = m[1].replace(/\s[#;].*$/, '').trim();
      if (/^".*"$/.test(v)) v = v.slice(1, -1);
      const clean = cleanGitPath(v);
      if (clean) out.push(clean.replace(/\/+$/, ''));
    }
  }
  return out;
}

/**
 * Every file and directory below the checkout (repo-relative), depth-first with siblings in byte
 * order like filepath.WalkDir; `.git` skipped; dot-directories and their subtrees left out of
 * `dirs` (the repo-server's default). Capped at MAX_TREE_ENTRIES entries.
 */
export function listTree(host: EngineHost, root: string): Tree {
  const tree: Tree = { files: [], dirs: [], allDirs: [], uncheckedSubmodules: [], truncated: false };
  const gitmodules = host.readFile(`${root}/.gitmodules`);
  const submodules = new Set(gitmodules ? submodulePaths(gitmodules) : []);
  let count = 0;
  const walk = (rel: string, hidden: boolean, depth: number): boolean => {
    const names = host.readDir(rel ? `${root}/${rel}` : root);
    if (!names) return false;
    if (depth > 64) {
      tree.truncated = true;
      return false;
    }
    let hasFile = false;
    for (const name of [...names].sort(compareGoStrings)) {
      if (++count > MAX_TREE_ENTRIES) {
        tree.truncated = true;
        return hasFile;
      }
      if (name === '.git') continue;
      const p = rel ? `${rel}/${name}` : name;
      const st = host.stat(`${root}/${p}`);
      if (!st) continue;
      // git stores a symlink as a file holding its target and never follows it (ls-files lists the
      // link itself): a symlinked folder is one file entry, so links cannot loop or duplicate files.
      if (st.isSymbolicLink) {
        tree.files.push(p);
        hasFile = true;
      } else if (st.isDirectory) {
        const h = hidden || name.startsWith('.');
        tree.allDirs.push(p);
        const at = tree.dirs.length;
        if (!h) tree.dirs.push(p);
        let sub = walk(p, h, depth + 1);
        // An empty submodule folder has its repository's files in Argo CD's checkout: it is kept, and said.
        if (!sub && submodules.has(p)) {
          tree.uncheckedSubmodules.push(p);
          sub = true;
        }
        if (!sub && !h) tree.dirs.splice(at, 1);
        hasFile = hasFile || sub;
      } else if (st.isFile) {
        tree.files.push(p);
        hasFile = true;
      }
    }
    return hasFile;
  };
  walk('', false, 0);
  return tree;
}
