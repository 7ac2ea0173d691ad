/**
 * Finds and reads the repository configuration `.appset-tools.yaml`: the nearest one in the file's
 * folder or above it, up to the workspace root that contains the file (reads go through the
 * EngineHost, so the language server, the CLI and `appset diff`'s git-revision host see the same file).
 *
 * Cached per workspace-index version: a change to the config file on disk (or in an open editor)
 * invalidates the index, and with it every loaded config.
 */
import type { EngineHost } from '../host';
import type { EngineDiagnostic, Json } from '../types';
import type { WorkspaceIndex } from '../workspace/index';
import { dirname } from '../paths';
import { nodeAt } from '../yaml';
import { parseFile } from '../kinds';
import { suggest } from '../didYouMean';
import { CONFIG_KEYS } from './keys';
import { isObj } from '../objects';
import { CONFIG_FILE, emptyConfig, type RepoConfig } from './types';
import { finding } from '../diagnostics/codes';

/** Folders walked upward at most (a file nested deeper than this only finds configs this close). */
const MAX_LEVELS = 64;

interface Cache {
  version: number;
  /** folder → config path ('' = none) */
  found: Map<string, string>;
  /** config path → parsed config */
  configs: Map<string, RepoConfig>;
}

const caches = new WeakMap<WorkspaceIndex, Cache>();

function within(p: string, root: string): boolean {
  return p === root || p.startsWith(root.endsWith('/') ? root : root + '/');
}

/** The config that applies to the file at `path` (an empty config when none exists). */
export function configFor(path: string | undefined, host: EngineHost, workspace: WorkspaceIndex): RepoConfig {
  if (!path || !path.startsWith('/')) return emptyConfig();
  let c = caches.get(workspace);
  if (!c || c.version !== workspace.version) {
    c = { version: workspace.version, found: new Map(), configs: new Map() };
    caches.set(workspace, c);
  }
  const configPath = findConfig(dirname(path), host, c);
  if (!configPath) return emptyConfig();
  let cfg = c.configs.get(configPath);
  if (!cfg) {
    const text = workspace.file(configPath)?.text ?? host.readFile(configPath);
    cfg = text === undefined ? emptyConfig() : parseConfig(text, configPath);
    c.configs.set(configPath, cfg);
  }
  return cfg;
}

function findConfig(start: string, host: EngineHost, c: Cache): string {
  const roots = host.roots().filter((r) => within(start, r));
  // Never above the outermost root that contains the file (the config must be inside the workspace).
  const top = roots.sort((a, b) => a.length - b.length)[0];
  if (!top) return '';
  const visited: string[] = [];
  let found = '';
  for (let dir = start, i = 0; i < MAX_LEVELS; i++) {
    const hit = c.found.get(dir);
    if (hit !== undefined) {
      found = hit;
      break;
    }
    visited.push(dir);
    const candidate = (dir === '/' ? '' : dir) + '/' + CONFIG_FILE;
    if (host.stat(candidate)?.isFile) {
      found = candidate;
      break;
    }
    if (dir === top || !within(dir, top)) break;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of visited) c.found.set(d, found);
  return found;
}

/** Parses a config file's text; problems become `config/invalid` findings located in it. */
export function parseConfig(text: string, path: string): RepoConfig {
  const cfg = emptyConfig();
  cfg.path = path;
  cfg.dir = dirname(path);
  cfg.text = text;
  const parsed = parseFile(text);
  const problem = (message: string, span: { start: number; end: number }): EngineDiagnostic => finding('config/invalid', message, span);
  for (const d of parsed.diagnostics)
    cfg.diagnostics.push({
      ...d,
      code: 'config/invalid',
      message: `${CONFIG_FILE} is not valid YAML (${d.message}); its settings are not used`,
    });
  const doc = parsed.docs.find((d) => d.value !== undefined && d.value !== null);
  if (!doc || parsed.diagnostics.length) return cfg;
  const value = doc.value as Json;
  if (!isObj(value)) {
    cfg.diagnostics.push(problem(`${CONFIG_FILE} must be a mapping of settings; it is not used`, doc.span));
    return cfg;
  }
  const known = new Map(CONFIG_KEYS.map((k) => [k.key, k]));
  for (const [key, v] of Object.entries(value)) {
    const spans = nodeAt(doc.doc, [key]);
    const keySpan = spans.key ?? doc.span;
    const def = known.get(key);
    if (!def) {
      const s = suggest(key, known.keys());
      cfg.diagnostics.push(problem(`unknown setting "${key}" in ${CONFIG_FILE}, ignored${s ? `; did you mean "${s}"?` : ''}`, keySpan));
      continue;
    }
    if (v === null) continue;
    const read = def.read(v, cfg, cfg.dir, spans.value && text.slice(spans.value.start, spans.value.end));
    if (read === undefined) continue;
    // One problem about the whole setting (it is ignored), or one per entry (each ignored, the others taken).
    for (const why of Array.isArray(read) ? read : [read]) {
      const at = typeof why === 'string' ? undefined : nodeAt(doc.doc, [key, ...why.at]);
      const span = at?.exact ? (at.value ?? at.key) : undefined;
      const ignored = Array.isArray(read) ? 'this entry is ignored' : 'this setting is ignored';
      cfg.diagnostics.push(problem(`${key}: ${typeof why === 'string' ? why : why.message}; ${ignored}`, span ?? spans.value ?? keySpan));
    }
  }
  return cfg;
}
