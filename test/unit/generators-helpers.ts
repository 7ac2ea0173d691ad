/** Shared by the generator tests: a temporary workspace and the real language service over it. */
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { getLanguageService } from '@appset-tools/engine';
import { createNodeHost } from '../../server/src/host/nodeHost';
import type { EngineSettings } from '@appset-tools/engine';
import type { Expansion, RolloutPlan } from '@appset-tools/engine';
import { MINIMAL_TEMPLATE_SPEC } from '../helpers/appsets';

export const sharedDir = resolve(__dirname, '..', '..', '..', 'shared');
export const examplesDir = join(sharedDir, 'argocd-data', 'applicationset-examples-v3.5.1');

export interface Ws {
  dir: string;
  expand(text: string, name?: string): Expansion;
  diagnostics(text: string, name?: string): { code: string; message: string; severity: string; start: number; end: number }[];
  lenses(text: string): string[];
  hover(text: string, offset: number): string | undefined;
  completions(text: string, offset: number): { label: string; documentation?: string }[];
  /** The rollout plan of the text's ApplicationSet and the plan as the server's command prints it. */
  plan(text: string): { plan: RolloutPlan | null; text: string | undefined };
  close(): void;
}

export function workspace(
  files: Record<string, string> = {},
  settings: Partial<EngineSettings> = {},
  copy: Record<string, string> = {},
): Ws {
  const dir = mkdtempSync(join(tmpdir(), 'appset-gen-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  for (const [rel, from] of Object.entries(copy)) cpSync(from, join(dir, rel), { recursive: true });
  const host = createNodeHost([dir], settings);
  const service = getLanguageService({ host });
  const analyze = (text: string, name = 'appset.yaml') => service.analyze(join(dir, name), text, join(dir, name));
  return {
    dir,
    expand(text, name) {
      const a = analyze(text, name);
      const exp = service.applications(a);
      if (!exp) throw new Error('no ApplicationSet in the text');
      return exp;
    },
    diagnostics(text, name) {
      return service
        .diagnostics(analyze(text, name))
        .map((d) => ({ code: d.code, message: d.message, severity: d.severity, start: d.span.start, end: d.span.end }));
    },
    lenses(text) {
      return service.codeLenses(analyze(text)).map((l) => l.title);
    },
    hover(text, offset) {
      return service.hover(analyze(text), offset)?.markdown;
    },
    completions(text, offset) {
      return service.completions(analyze(text), offset).map((c) => ({ label: c.label, documentation: c.documentation }));
    },
    plan(text) {
      const a = analyze(text);
      return { plan: service.rolloutPlan(a), text: service.planText(a)?.text };
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `workspace(…)` for one test: removed when the test ends, passed or failed (node:test's `t.after`). */
export function workspaceFor(
  t: { after(fn: () => void): void },
  files?: Record<string, string>,
  settings?: Partial<EngineSettings>,
  copy?: Record<string, string>,
): Ws {
  const ws = workspace(files, settings, copy);
  t.after(() => ws.close());
  return ws;
}

/** An ApplicationSet with the given generators (YAML, indented for `generators:`; a final newline is dropped) and template name. */
export function appset(
  generators: string,
  opts: { goTemplate?: boolean; name?: string; extra?: string; namespace?: string; options?: string } = {},
): string {
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: test
  namespace: ${opts.namespace ?? 'argocd'}
spec:
  goTemplate: ${opts.goTemplate ? 'true' : 'false'}
${opts.options ? `  goTemplateOptions: ${opts.options}\n` : ''}  generators:
${generators.replace(/\n$/, '')}
${opts.extra ?? ''}  template:
    metadata:
      name: '${opts.name ?? (opts.goTemplate ? '{{ .name }}' : '{{name}}')}'
${MINIMAL_TEMPLATE_SPEC}`;
}

/** A matrix of two list generators of `n` elements each (`a`, `b`): n² parameter sets, Applications x-<a>-<b>. */
export function hugeMatrix(n: number): string {
  const big = Array.from({ length: n }, (_, i) => `{a: "${i}"}`).join(', ');
  return appset(
    `    - matrix:\n        generators:\n          - list: {elements: [${big}]}\n          - list: {elements: [${big.replace(/a:/g, 'b:')}]}`,
    { name: 'x-{{a}}-{{b}}' },
  );
}

/** Several cluster Secrets (from `secret`) as one multi-document file. */
export const secrets = (...docs: string[]) => docs.join('---\n');

export function secret(name: string, server: string, labels: Record<string, string> = {}, extra = ''): string {
  const l = Object.entries(labels)
    .map(([k, v]) => `    ${k}: ${JSON.stringify(v)}`)
    .join('\n');
  return `apiVersion: v1
kind: Secret
metadata:
  name: ${name.replace(/[^a-z0-9-]/g, '-')}-secret
  namespace: argocd
  labels:
    argocd.argoproj.io/secret-type: cluster
${l}
${extra}stringData:
  name: ${JSON.stringify(name)}
  server: ${server}
`;
}
