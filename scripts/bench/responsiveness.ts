/**
 * Responsiveness under load (issue 16): while the server works on a heavy document A (its YAML parse,
 * 10,000 expanded Applications, their findings, a preview of all of them), hovers on a small document
 * B are sent one after another; the worst and the 95th-percentile answer time are what a user typing
 * in B meets. The same hovers with nothing else to do give the baseline of this run.
 */
import { pathToFileURL } from 'node:url';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import type { LspProcess } from './lsp';
import { longListAppSet } from '../../test/helpers/appsets';

export interface Responsiveness {
  /** Hover answer times on B, in ms. */
  worst: number;
  p95: number;
  hovers: number;
  /** ms from opening A until its diagnostics and preview were both answered. */
  heavyMs: number;
}

const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];

async function hoverOnce(s: LspProcess, uri: string): Promise<number> {
  const t0 = performance.now();
  await s.conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 3, character: 4 } });
  return performance.now() - t0;
}

/** Hover times on `small` with nothing else going on (B is open already). */
export async function idleHovers(s: LspProcess, small: string, n: number): Promise<Responsiveness> {
  const uri = pathToFileURL(small).toString();
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push(await hoverOnce(s, uri));
  return { worst: Math.max(...times), p95: p95(times), hovers: n, heavyMs: 0 };
}

/**
 * Opens `heavyPath` with `heavyText` and asks for its preview, then hovers on `small` (open already)
 * until both the diagnostics and the preview of the heavy document are answered.
 */
export async function hoversDuring(s: LspProcess, small: string, heavyPath: string, heavyText: string): Promise<Responsiveness> {
  const uri = pathToFileURL(small).toString();
  const t0 = performance.now();
  let done = false;
  const heavy = Promise.all([
    // Its first publish ends the scenario (no wait for the server to go quiet).
    s.open(heavyPath, heavyText, 0),
    s.conn.sendRequest('appsetTools/preview', { uri: pathToFileURL(heavyPath).toString() }),
  ]).finally(() => (done = true));
  const times: number[] = [];
  while (!done) {
    times.push(await hoverOnce(s, uri));
    await new Promise((r) => setTimeout(r, 2));
  }
  await heavy;
  return { worst: Math.max(...times), p95: p95(times), hovers: times.length, heavyMs: performance.now() - t0 };
}

/** A matrix of two lists: `a × b` Applications. */
export function matrixAppSet(a: number, b: number): string {
  const list = (key: string, n: number) => Array.from({ length: n }, (_, i) => `                  - ${key}: ${key}${i}`).join('\n');
  return `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata:
  name: heavy
spec:
  goTemplate: true
  generators:
    - matrix:
        generators:
          - list:
              elements:
${list('a', a)}
          - list:
              elements:
${list('b', b)}
  template:
    metadata:
      name: 'app-{{ .a }}-{{ .b }}'
    spec:
      project: default
      source: {repoURL: https://example.com/r.git, targetRevision: main, path: 'apps/{{ .a }}/{{ .b }}'}
      destination: {server: https://kubernetes.default.svc, namespace: '{{ .a }}'}
`;
}

/** One ApplicationSet of `lines` lines: a list generator with two keys per element. */
export const longAppSet = (lines: number): string => longListAppSet(Math.floor((lines - 16) / 2));
