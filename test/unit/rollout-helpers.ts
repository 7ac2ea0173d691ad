/** Test helpers for the rollout tests: fixture loading, text edits and the real facade's context over the story. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Analysis, EngineDiagnostic, EngineSettings, LanguageService, LanguageServiceParams } from '@appset-tools/engine';

import { memHost } from '../helpers/memHost';
import { clusterSecrets } from '../helpers/clusters';
import { CLUSTERS } from '../helpers/story';
import { getLanguageService } from '@appset-tools/engine';

/** A feature module as the facade calls it (engine/features/context.ts `FeatureContributor`), named from the door's parameters. */
type Contributor = NonNullable<LanguageServiceParams['contributors']>[number];
/** The context the facade hands a feature module for one ApplicationSet (engine/features/context.ts `AppSetContext`). */
export type StoryContext = Parameters<NonNullable<Contributor['codeLenses']>>[0];

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

/** The in-memory workspace of the story: `files` and the 12 cluster Secrets, labelled `team: web` and their tier (plus `extraLabels`). */
function storyFiles(files: Map<string, string>, extraLabels: Record<string, string>): Map<string, string> {
  const all = new Map(files);
  all.set(
    '/ws/clusters/secrets.yaml',
    clusterSecrets(
      CLUSTERS.map((c) => ({ name: c.name, server: c.server, labels: { team: 'web', tier: c.tier, ...extraLabels }, opaque: true })),
    ),
  );
  return all;
}

/**
 * The real facade's AppSetContext for `text` (at /ws/appset.yaml) in an in-memory workspace holding `files`
 * and the story's 12 cluster Secrets, labelled `team: web` and their tier (plus `extraLabels`): nothing in
 * them looks like production unless a test adds it. Expansion, enablement and the rest are the engine's own.
 * For the tests of the rollout modules' internals, which call their features on a context: the door hands
 * the fronts an opaque analysis, and a context only to a feature module (a contributor), so the context is
 * taken the way every feature module receives it — as a contributor the facade asks for lenses.
 */
export function storyContext(
  text: string,
  files = new Map<string, string>(),
  settings: Partial<EngineSettings> = {},
  extraLabels: Record<string, string> = {},
): StoryContext {
  let ctx: StoryContext | undefined;
  const probe: Contributor = { name: 'test-context', codeLenses: (c) => ((ctx ??= c), []) };
  const ls = getLanguageService({ host: memHost(storyFiles(files, extraLabels), settings), contributors: [probe] });
  ls.codeLenses(ls.analyze('file:///ws/appset.yaml', text, '/ws/appset.yaml'));
  if (!ctx) throw new Error('no ApplicationSet in text');
  return ctx;
}

/** The language service over the story's workspace (as `storyContext`) and its analysis of `text` at /ws/appset.yaml, through the engine's door. */
export function storyService(
  text: string,
  files = new Map<string, string>(),
  settings: Partial<EngineSettings> = {},
  extraLabels: Record<string, string> = {},
): { service: LanguageService; analysis: Analysis } {
  const service = getLanguageService({ host: memHost(storyFiles(files, extraLabels), settings) });
  return { service, analysis: service.analyze('file:///ws/appset.yaml', text, '/ws/appset.yaml') };
}

/** The findings of `text` in the story's workspace, through the engine's door. */
export function storyFindings(
  text: string,
  files = new Map<string, string>(),
  settings: Partial<EngineSettings> = {},
  extraLabels: Record<string, string> = {},
): EngineDiagnostic[] {
  const { service, analysis } = storyService(text, files, settings, extraLabels);
  return service.diagnostics(analysis);
}
