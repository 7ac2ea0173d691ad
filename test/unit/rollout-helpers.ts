/** Test helpers for the rollout tests: fixture loading, text edits and a hand-built expansion. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EngineSettings } from '../../server/src/engine/host';
import { memHost } from '../helpers/memHost';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'rollout');

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
