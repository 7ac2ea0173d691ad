/**
 * The git generator (Argo CD `applicationset/generators/git.go`) on a local checkout: `repoURL`
 * is matched to `appsetTools.repoMappings` or to the git remotes of the workspace, and the working
 * tree is read through the host (so never outside the workspace). The preview says that the
 * working tree was used, not the remote `revision`.
 */
import * as YAML from 'yaml';
import type { EngineHost } from '../host';
import type { JsonPath } from '../yaml/document';
import { doublestarMatcher, gitPathspecMatcher, goPathMatcher } from './gitPatterns';
import { normalize } from './normalize';
import { flatten, isObject, put, type ParamSet } from './params';
import { GeneratorError, type GenContext, type Generate } from './types';
import { appendValues } from './values';

const MAX_TREE_ENTRIES = 50000;

export const generateGit: Generate = (spec, ctx, path) => {
  const repoURL = String(spec.repoURL ?? '');
  const root = resolveCheckout(repoURL, ctx);
  const dirs = Array.isArray(spec.directories) ? spec.directories : undefined;
  const files = Array.isArray(spec.files) ? spec.files : undefined;
  if (!dirs && !files) throw new GeneratorError('ApplicationSet is empty', path);
  if (!root) {
    const message = `no local checkout of ${repoURL || 'the repository'} found in the workspace; map it with appsetTools.repoMappings (or --repo-map) to preview this generator`;
    ctx.notes.add(message);
    ctx.inexact.value = true;
    ctx.findings.push({ code: 'generator/no-git-checkout', severity: 'information', message, path: [...path, 'repoURL'] });
    return [];
  }
  ctx.inexact.value = true;
  const note = `the git generator read the working tree of ${root}, not revision ${String(spec.revision ?? 'HEAD')} of ${repoURL}`;
  ctx.notes.add(note);
  ctx.findings.push({ code: 'generator/working-tree', severity: 'information', message: note, path: [...path, 'repoURL'] });
  const tree = listTree(ctx.file.host, root);
  const prefix = typeof spec.pathParamPrefix === 'string' ? spec.pathParamPrefix : '';
  const out = dirs ? fromDirectories(dirs, tree.dirs, ctx, prefix, path) : fromFiles(files!, tree.files, root, ctx, prefix, path, spec);
  return out.map((p) => appendValues(p, spec.values, ctx, path));
};

function fromDirectories(patterns: unknown[], dirs: string[], ctx: GenContext, prefix: string, path: JsonPath): ParamSet[] {
  const inc: RegExp[] = [];
  const exc: RegExp[] = [];
  patterns.forEach((p, i) => {
    if (!isObject(p)) return;
    const pattern = String(p.path ?? '');
    checkPattern(pattern, [...path, 'directories', i, 'path']);
    const m = goPathMatcher(pattern);
    if (!m) return; // the controller logs malformed patterns and skips them
    (p.exclude === true ? exc : inc).push(m);
  });
  return dirs
    .filter((d) => inc.some((m) => m.test(d)) && !exc.some((m) => m.test(d)))
    .map((d) => {
      const p: ParamSet = {};
      addPathParams(p, d, undefined, ctx.goTemplate, prefix);
      return p;
    });
}

function fromFiles(patterns: unknown[], files: string[], root: string, ctx: GenContext, prefix: string, path: JsonPath, spec: Record<string, unknown>): ParamSet[] {
  const matcher = ctx.file.settings.newGitFileGlobbing ? doublestarMatcher : gitPathspecMatcher;
  const selected = new Set<string>();
  const excludes: ((f: string) => boolean)[] = [];
  patterns.forEach((p, i) => {
    if (!isObject(p)) return;
    const pattern = String(p.path ?? '');
    checkPattern(pattern, [...path, 'files', i, 'path']);
    if (pattern.startsWith('/')) throw new GeneratorError(`error retrieving Git files: fatal: ${pattern}: '${pattern}' is outside repository`, [...path, 'files', i, 'path']);
    const m = matcher(pattern);
    if (p.exclude === true) excludes.push(m);
    else for (const f of files) if (m(f)) selected.add(f);
  });
  const out: ParamSet[] = [];
  for (const f of [...selected].filter((f) => !excludes.some((m) => m(f))).sort()) {
    const text = ctx.file.host.readFile(`${root}/${f}`);
    if (text === undefined) throw new GeneratorError(`unable to process file '${f}' from repository '${String(spec.repoURL)}': unable to read file`, [...path, 'files']);
    let objects: unknown[];
    try {
      const doc = YAML.parseAllDocuments(text, { version: '1.1' })[0];
      const v = doc ? doc.toJS({ maxAliasCount: 100 }) : {};
      objects = v === null || v === undefined ? [{}] : isObject(v) ? [v] : Array.isArray(v) && v.every(isObject) ? v : [];
      if (!objects.length && !Array.isArray(v)) throw new Error('error unmarshaling JSON: while decoding JSON: json: cannot unmarshal into Go value of type map[string]interface {}');
    } catch (e) {
      throw new GeneratorError(`unable to process file '${f}' from repository '${String(spec.repoURL)}': unable to parse file: ${(e as Error).message.split('\n')[0]}`, [...path, 'files']);
    }
    for (const obj of objects as Record<string, unknown>[]) {
      const p: ParamSet = {};
      if (ctx.goTemplate) for (const k of Object.keys(obj)) put(p, k, obj[k]);
      else {
        const flat = flatten(obj, true);
        for (const k of Object.keys(flat)) put(p, k, flat[k]);
      }
      const dir = f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '.';
      addPathParams(p, dir, f.slice(f.lastIndexOf('/') + 1), ctx.goTemplate, prefix);
      out.push(p);
    }
  }
  return out;
}

function addPathParams(p: ParamSet, dir: string, filename: string | undefined, goTemplate: boolean, prefix: string): void {
  const segments = dir.split('/').filter((s) => s !== '');
  const basename = dir === '.' ? '.' : segments[segments.length - 1] ?? '';
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
  if (pattern.split('/').includes('..')) throw new GeneratorError(`the pattern "${pattern}" leaves the repository ("..") and is not read`, path);
}

export function normalizeRepoURL(u: string): string {
  let s = u.trim().toLowerCase();
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(s);
  if (scp) s = `${scp[1]}/${scp[2]}`;
  s = s.replace(/^[a-z+]+:\/\//, '').replace(/^[^@/]+@/, '');
  return s.replace(/\/+$/, '').replace(/\.git$/, '');
}

function resolveCheckout(repoURL: string, ctx: GenContext): string | undefined {
  const host = ctx.file.host;
  const want = normalizeRepoURL(repoURL);
  for (const [url, dir] of Object.entries(ctx.file.settings.repoMappings)) {
    if (normalizeRepoURL(url) !== want) continue;
    const candidates = dir.startsWith('/') ? [dir] : host.roots().map((r) => `${r}/${dir}`);
    for (const c of candidates) {
      const abs = c.split('/').reduce<string[]>((acc, seg) => (seg === '..' ? acc.slice(0, -1) : seg === '.' || seg === '' ? acc : [...acc, seg]), []);
      const p = '/' + abs.join('/');
      if (host.stat(p)?.isDirectory) return p;
    }
  }
  for (const r of host.gitRemotes()) if (normalizeRepoURL(r.url) === want) return r.root;
  return undefined;
}

/** Every file and directory below the checkout (repo-relative), depth-first, siblings in byte order; dot-directories skipped for directories, `.git` always. */
function listTree(host: EngineHost, root: string): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  let count = 0;
  const walk = (rel: string, hidden: boolean) => {
    const names = host.readDir(rel ? `${root}/${rel}` : root);
    if (!names) return;
    for (const name of [...names].sort((a, b) => (Buffer.compare(Buffer.from(a), Buffer.from(b))))) {
      if (++count > MAX_TREE_ENTRIES) return;
      if (name === '.git') continue;
      const p = rel ? `${rel}/${name}` : name;
      const st = host.stat(`${root}/${p}`);
      if (!st) continue;
      if (st.isDirectory) {
        const h = hidden || name.startsWith('.');
        if (!h) dirs.push(p);
        walk(p, h);
      } else if (st.isFile) files.push(p);
    }
  };
  walk('', false);
  return { files, dirs };
}
