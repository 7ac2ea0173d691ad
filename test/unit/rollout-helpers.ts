/** Test helpers for the rollout tests: an in-memory EngineHost and fixture loading. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_SETTINGS, type EngineHost, type EngineSettings } from '../../server/src/engine/host';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'rollout');

/** A host over a map of absolute posix paths → text (directories are implied by the paths). */
export function memHost(
  files: Map<string, string>,
  settings: Partial<EngineSettings> = {},
  root = '/ws',
): EngineHost & { files: Map<string, string> } {
  const s = { ...DEFAULT_SETTINGS, ...settings };
  const isDir = (p: string) => [...files.keys()].some((f) => f.startsWith(p.endsWith('/') ? p : p + '/'));
  return {
    files,
    roots: () => [root],
    readFile: (p) => files.get(p),
    stat: (p) =>
      files.has(p)
        ? { isFile: true, isDirectory: false, mtimeMs: 1, size: files.get(p)!.length }
        : isDir(p)
          ? { isFile: false, isDirectory: true, mtimeMs: 1, size: 0 }
          : undefined,
    readDir: (p) => {
      if (!isDir(p)) return undefined;
      const prefix = p.endsWith('/') ? p : p + '/';
      return [...new Set([...files.keys()].filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).split('/')[0]))];
    },
    gitRemotes: () => [],
    settings: () => s,
  };
}

/** Loads a fixture folder of test/fixtures/rollout as a workspace rooted at /ws. */
export function fixtureFiles(name: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, rel: string) => {
    for (const n of fs.readdirSync(dir)) {
      const p = path.join(dir, n);
      if (fs.statSync(p).isDirectory()) walk(p, `${rel}/${n}`);
      else out.set(`/ws${rel}/${n}`, fs.readFileSync(p, 'utf8'));
    }
  };
  walk(path.join(FIXTURES, name), '');
  return out;
}

/** Applies text edits (spans in the original text) to a text. */
export function applyEdits(text: string, edits: { span: { start: number; end: number }; newText: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.span.start - a.span.start))
    out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

import { parseFile } from '../../server/src/engine/yaml/document';
import { WorkspaceIndex } from '../../server/src/engine/workspace/index';
import type { AppSetContext, FileContext } from '../../server/src/engine/features/context';
import type { Expansion, GeneratedApp } from '../../server/src/engine/expand/types';
import { targetVersion } from '../../server/src/engine/versions/target';

/**
 * A stand-in for the generators (used until/unless the real expansion is wired in): renders
 * template.metadata.name/labels and destination.server of the ApplicationSet for the given
 * parameter sets, with just enough of fasttemplate (`{{a.b}}`) and goTemplate (`{{.a.b}}`,
 * `{{ index .metadata.labels "k" }}`) for these tests.
 */
export function fakeRender(appset: Record<string, unknown>, paramSets: Record<string, unknown>[]): GeneratedApp[] {
  const spec = (appset.spec ?? {}) as Record<string, any>;
  const go = spec.goTemplate === true;
  const tpl = spec.template ?? {};
  const lookup = (p: Record<string, unknown>, dotted: string): unknown => {
    if (!go) return p[dotted];
    let v: any = p;
    for (const seg of dotted.split('.')) v = v == null ? undefined : v[seg];
    return v;
  };
  const render = (s: unknown, p: Record<string, unknown>): string =>
    String(s ?? '').replace(/\{\{\s*(?:index\s+\.([\w.]+)\s+"([^"]+)"|\.?([\w.-]+))\s*\}\}/g, (_, base, key, path) =>
      String((base ? (lookup(p, base) as any)?.[key] : lookup(p, path)) ?? ''),
    );
  return paramSets.map((p) => {
    const labels: Record<string, string> = {};
    for (const [k, v] of Object.entries(tpl.metadata?.labels ?? {})) labels[k] = render(v, p);
    const name = render(tpl.metadata?.name, p);
    const server = render(tpl.spec?.destination?.server, p);
    return { app: { metadata: { name, labels }, spec: { destination: { server } } }, name, labels, generatorIndex: 0, params: p };
  });
}

/** An AppSetContext over `text` whose expansion is `fakeRender(doc, params)`. */
export function fakeContext(
  text: string,
  params: Record<string, unknown>[],
  files = new Map<string, string>(),
  settings: Partial<EngineSettings> = {},
  docIndex = 0,
): AppSetContext {
  const host = memHost(files, settings);
  const parsed = parseFile(text);
  const file: FileContext = {
    uri: 'file:///ws/appset.yaml',
    path: '/ws/appset.yaml',
    text,
    parsed,
    host,
    settings: host.settings(),
    workspace: new WorkspaceIndex(host),
  };
  const doc = parsed.appsets[docIndex];
  if (!doc) throw new Error('no ApplicationSet in text');
  const memos = new Map<string, unknown>();
  let exp: Expansion | undefined;
  return {
    file,
    doc,
    expansion: () =>
      (exp ??= (() => {
        const apps = fakeRender(doc.value, params);
        const clusters = [...new Set(apps.map((a) => String((a.app as any).spec.destination.server)))];
        return { apps, problems: [], generators: [], notes: [], exact: true, capped: false, clusters };
      })()),
    target: () => targetVersion(file, doc),
    memo<T>(key: string, compute: () => T): T {
      if (!memos.has(key)) memos.set(key, compute());
      return memos.get(key) as T;
    },
  };
}

/** 12 clusters (1 canary, 4 low-traffic, 7 high-traffic) × 45 services: the team story. */
export const TIERS = [
  'canary',
  'low-traffic',
  'low-traffic',
  'low-traffic',
  'low-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
  'high-traffic',
];
export const CLUSTERS = TIERS.map((tier, i) => ({
  name: `prod-${String(i + 1).padStart(2, '0')}`,
  server: `https://10.0.0.${i + 1}:6443`,
  tier,
}));
export const SERVICES = Array.from({ length: 45 }, (_, i) => `svc-${String(i + 1).padStart(2, '0')}`);

/** Matrix parameter sets as the cluster × list generators hand them over, in both template modes. */
export function storyParams(goTemplate: boolean): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const c of CLUSTERS) {
    for (const s of SERVICES) {
      const labels = { 'argocd.argoproj.io/secret-type': 'cluster', tier: c.tier };
      out.push(
        goTemplate
          ? { name: c.name, server: c.server, metadata: { labels, annotations: {} }, service: s }
          : {
              name: c.name,
              server: c.server,
              'metadata.labels.tier': c.tier,
              'metadata.labels.argocd.argoproj.io/secret-type': 'cluster',
              service: s,
            },
      );
    }
  }
  return out;
}
