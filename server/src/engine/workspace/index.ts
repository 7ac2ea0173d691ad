/**
 * An index of the YAML files of the workspace, read through the EngineHost. The cluster generator
 * (cluster Secrets, inventory files) and the progressive-sync detection (argocd-cmd-params-cm,
 * controller Deployments, Helm values, ArgoCD resources) both look things up here.
 *
 * Files are parsed once and cached by path and mtime; open editor buffers override disk content
 * (`setOverlay`). Bounded: at most MAX_FILES files of at most MAX_FILE_SIZE bytes are indexed.
 */
import * as YAML from 'yaml';
import type { EngineHost } from '../host';
import type { Json, Span } from '../types';
import { MAX_ALIAS_COUNT } from '../yaml/document';

export const MAX_FILES = 5000;
export const MAX_FILE_SIZE = 1024 * 1024;
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'out', '.vscode-test']);

export interface IndexedDoc {
  index: number;
  value: Json;
  span: Span;
}

export interface IndexedFile {
  path: string;
  text: string;
  docs: IndexedDoc[];
}

interface CacheEntry {
  key: string;
  file: IndexedFile;
}

export class WorkspaceIndex {
  private cache = new Map<string, CacheEntry>();
  private overlays = new Map<string, string>();
  private listing: string[] | undefined;
  private files: IndexedFile[] | undefined;
  /** Incremented whenever anything may have changed; callers use it as a cache key. */
  version = 0;

  constructor(private readonly host: EngineHost) {}

  /** An open document's text replaces the file on disk (undefined removes the overlay). */
  setOverlay(path: string, text: string | undefined): void {
    if (text === undefined) this.overlays.delete(path);
    else if (this.overlays.get(path) === text) return;
    else this.overlays.set(path, text);
    this.files = undefined;
    this.version++;
  }

  /** Something changed on disk (undefined: anything). */
  invalidate(path?: string): void {
    if (path) this.cache.delete(path);
    else this.cache.clear();
    this.listing = undefined;
    this.files = undefined;
    this.version++;
  }

  /** All indexed YAML files (workspace listing plus overlays), parsed. */
  all(): IndexedFile[] {
    if (this.files) return this.files;
    const paths = new Set(this.list());
    for (const p of this.overlays.keys()) if (/\.ya?ml$/i.test(p)) paths.add(p);
    const out: IndexedFile[] = [];
    for (const p of [...paths].sort()) {
      const f = this.file(p);
      if (f) out.push(f);
    }
    this.files = out;
    return out;
  }

  /** One file, parsed (any extension the caller asks for; read through the host). */
  file(path: string): IndexedFile | undefined {
    const overlay = this.overlays.get(path);
    let key: string;
    if (overlay !== undefined) key = 'o:' + overlay.length + ':' + hash(overlay);
    else {
      const st = this.host.stat(path);
      if (!st || !st.isFile || st.size > MAX_FILE_SIZE) return undefined;
      key = 'd:' + st.mtimeMs + ':' + st.size;
    }
    const hit = this.cache.get(path);
    if (hit && hit.key === key) return hit.file;
    const text = overlay ?? this.host.readFile(path);
    if (text === undefined) return undefined;
    const file = { path, text, docs: parseDocs(text) };
    this.cache.set(path, { key, file });
    return file;
  }

  private list(): string[] {
    if (this.listing) return this.listing;
    const out: string[] = [];
    const walk = (dir: string, depth: number) => {
      if (out.length >= MAX_FILES || depth > 12) return;
      const names = this.host.readDir(dir);
      if (!names) return;
      for (const name of names.sort()) {
        if (out.length >= MAX_FILES) return;
        const p = dir.endsWith('/') ? dir + name : dir + '/' + name;
        if (/\.ya?ml$/i.test(name)) {
          out.push(p);
          continue;
        }
        if (name.startsWith('.') || SKIP_DIRS.has(name)) continue;
        const st = this.host.stat(p);
        if (st?.isDirectory) walk(p, depth + 1);
      }
    };
    for (const r of this.host.roots()) walk(r, 0);
    this.listing = out;
    return out;
  }
}

function parseDocs(text: string): IndexedDoc[] {
  const docs: IndexedDoc[] = [];
  let parsed: YAML.Document.Parsed[];
  try {
    parsed = YAML.parseAllDocuments(text, { strict: false }) as YAML.Document.Parsed[];
    if (!Array.isArray(parsed)) return docs;
  } catch {
    return docs;
  }
  parsed.forEach((d, index) => {
    if (d.errors.length) return;
    try {
      const value = d.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Json;
      const r = d.range ?? [0, 0, 0];
      docs.push({ index, value, span: { start: r[0], end: r[1] } });
    } catch {
      /* alias bombs and other unreadable documents are skipped */
    }
  });
  return docs;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
