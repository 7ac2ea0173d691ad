/**
 * What the YAML parser is allowed to see. `checkYamlLimits` (gotemplate/yamlGuard.ts, shared with
 * `fromYaml`) measures size, line length and nesting without parsing; here a file over the size
 * limit, or a `---` document over the line or depth limit, becomes one finding and is blanked (its
 * characters turned into spaces, newlines kept) so the other documents keep their offsets and are
 * still checked, and nothing that could exhaust the stack inside the parser reaches it.
 */
import { checkYamlLimits, checkYamlLimitsSteps, withinLimitsEach, YAML_LIMITS, type YamlLimitHit } from '@appset-tools/gotemplate';
import type { EngineDiagnostic } from '../types';
import { finding } from '../diagnostics/codes';
import { runSteps } from '../steps';
import { lineNumber } from './lines';

export { YAML_LIMITS };

export interface GuardedText {
  /** The text the parser may read (equal to the input when nothing was over a limit). */
  text: string;
  diagnostics: EngineDiagnostic[];
}

export function guardYaml(text: string): GuardedText {
  return runSteps(guardYamlSteps(text));
}

/** `guardYaml` in steps (lsp/scheduler.ts): the measure of a long document pauses every few thousand lines. */
export function* guardYamlSteps(text: string): Generator<void, GuardedText> {
  const diagnostics: EngineDiagnostic[] = [];
  const firstLine = () => ({ start: 0, end: Math.max(1, Math.min(text.length, lineEnd(text, 0))) });
  if (text.length > YAML_LIMITS.maxChars) {
    diagnostics.push(
      finding(
        'yaml/too-large',
        `This file is not checked: it has ${mb(text.length)} characters, and ApplicationSet Tools reads YAML files of up to ${mb(YAML_LIMITS.maxChars)}.`,
        firstLine(),
      ),
    );
    return { text: '', diagnostics };
  }
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    diagnostics.push(
      finding(
        'yaml/encoding',
        'This file is not checked: it contains NUL characters, so it is not UTF-8 text (UTF-16 without a byte-order mark?). Argo CD and kubectl cannot read it either.',
        { start: nul, end: nul + 1 },
      ),
    );
    return { text: '', diagnostics };
  }
  const parts = documents(text);
  // Several documents: one bound for all of them (gotemplate/yamlGuard.ts `withinLimitsEach`), else each alone.
  if (parts.length > 1 && withinLimitsEach(text, parts, YAML_LIMITS)) return { text, diagnostics };
  const blanked: [number, number][] = [];
  for (const [start, end] of parts) {
    const hit = yield* checkYamlLimitsSteps(text.slice(start, end), YAML_LIMITS, start);
    if (!hit) continue;
    diagnostics.push(limitFinding(text, hit));
    blanked.push([start, end]);
  }
  if (!blanked.length) return { text, diagnostics };
  let safe = '';
  let at = 0;
  for (const [s, e] of blanked) {
    safe += text.slice(at, s) + text.slice(s, e).replace(/[^\n]/g, ' ');
    at = e;
  }
  safe += text.slice(at);
  return { text: safe, diagnostics };
}

function limitFinding(text: string, hit: YamlLimitHit): EngineDiagnostic {
  const line = lineNumber(text, hit.offset);
  if (hit.kind === 'line') {
    return finding(
      'yaml/line-too-long',
      `This document is not checked: line ${line} is ${hit.value.toLocaleString('en-US')} characters long, and ApplicationSet Tools reads lines of up to ${hit.limit.toLocaleString('en-US')}.`,
      { start: hit.offset, end: hit.offset + 1 },
    );
  }
  return finding(
    'yaml/too-deep',
    `This document is not checked: it nests more than ${hit.limit} levels deep here (line ${line}). Argo CD's YAML parser stops at 10000 levels; ApplicationSet Tools stops at ${hit.limit} so that no document can exhaust the language server.`,
    { start: hit.offset, end: Math.min(text.length, hit.offset + 1) },
  );
}

/** [start, end) of each `---`/`...`-separated document (a marker line belongs to the document after it). */
function documents(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  // A marker at a line start after the first line: `---` or `...` before a space, tab, carriage return,
  // line break or the text's end. One native search instead of a loop over every line (issue 39).
  // Not even that for a text without one (most): the pattern would be compiled in the first answer (issue 39).
  if (!text.includes('\n---') && !text.includes('\n...')) return [[0, text.length]];
  MARKER_LINE.lastIndex = 0;
  for (let m = MARKER_LINE.exec(text); m; m = MARKER_LINE.exec(text)) {
    out.push([start, m.index + 1]);
    start = m.index + 1;
  }
  out.push([start, text.length]);
  return out;
}

const MARKER_LINE = /\n(?:---|\.\.\.)(?![^ \t\r\n])/g;

function lineEnd(text: string, from: number): number {
  const e = text.indexOf('\n', from);
  return e < 0 ? text.length : e;
}

function mb(chars: number): string {
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * For YAML the engine parses from inside a document (elementsYaml, a rendered templatePatch, a git
 * generator's file, inline Helm values): why it must not be parsed, or undefined when it may be.
 */
export function yamlLimitMessage(text: string): string | undefined {
  const hit = checkYamlLimits(text);
  if (!hit) return undefined;
  if (hit.kind === 'size') return `the YAML text has ${mb(hit.value)} characters, more than ApplicationSet Tools reads (${mb(hit.limit)})`;
  if (hit.kind === 'line')
    return `the YAML text has a line of ${hit.value.toLocaleString('en-US')} characters, more than ApplicationSet Tools reads (${hit.limit.toLocaleString('en-US')})`;
  return `the YAML text nests more than ${hit.limit} levels deep, more than ApplicationSet Tools reads`;
}
