import type { CliIO } from './io';
import { messageLine, oneLine } from './safeText';
import { renderString, renderValue, TemplateError } from '@appset-tools/engine';
import { applyLimits } from './common';

const USAGE = `usage:
  appset template '<template>' [--params '<json object>'] [--go-template] [--option missingkey=error]... [--no-limits]
  appset template --jsonl      read golden-render requests (JSON lines) on stdin, answer on stdout

Renders one string the way the ApplicationSet controller does (fasttemplate unless --go-template).
Prints the result, or the error Argo CD would report (exit 1). Exit 2 on bad usage. The language
server's budgets apply (template work, steps, output, slow crypto functions); --no-limits lifts them
(--jsonl runs without them).

JSON-lines requests: {"id":…, "goTemplate":bool, "options":[…], "template":<any JSON>, "params":{…}}
responses:          {"id":…, "result":<JSON>} or {"id":…, "error":"<text>"}`;

function usage(io: CliIO, msg?: string): number {
  if (msg) io.err(oneLine(`appset template: ${msg}`) + '\n');
  io.err(USAGE + '\n');
  return 2;
}

/** Answers one golden-render protocol request. */
export function answerRequest(line: string): string {
  let req: { id?: unknown; goTemplate?: unknown; options?: unknown; template?: unknown; params?: unknown };
  try {
    req = JSON.parse(line);
  } catch (e) {
    return JSON.stringify({ id: null, error: `invalid request: ${(e as Error).message}` });
  }
  const id = req?.id ?? null;
  const params = req.params;
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    return JSON.stringify({ id, error: 'invalid request: params must be a JSON object' });
  const options = Array.isArray(req.options) ? req.options.map(String) : [];
  try {
    const result = renderValue(req.template, params as Record<string, unknown>, { goTemplate: req.goTemplate === true, options });
    return JSON.stringify({ id, result });
  } catch (e) {
    if (e instanceof TemplateError) return JSON.stringify({ id, error: e.message });
    return JSON.stringify({ id, error: `internal error: ${(e as Error).message}` });
  }
}

/** `appset template`: render one template string, or speak the golden-render JSON-lines protocol. */
export async function runTemplate(args: string[], io: CliIO): Promise<number> {
  let template: string | undefined;
  let paramsText = '{}';
  let goTemplate = false;
  let jsonl = false;
  const options: string[] = [];
  let unlimited = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = (): string | undefined => (a.includes('=') && a.startsWith('--') ? a.slice(a.indexOf('=') + 1) : args[++i]);
    const flag = a.startsWith('--') ? a.split('=')[0] : a;
    switch (flag) {
      case '--help':
      case '-h':
        io.out(USAGE + '\n');
        return 0;
      case '--jsonl':
        jsonl = true;
        break;
      case '--no-limits':
        unlimited = true;
        break;
      case '--go-template':
        goTemplate = true;
        break;
      case '--params': {
        const v = value();
        if (v === undefined) return usage(io, '--params needs a JSON object');
        paramsText = v;
        break;
      }
      case '--option': {
        const v = value();
        if (v === undefined) return usage(io, '--option needs a value such as missingkey=error');
        options.push(v);
        break;
      }
      default:
        if (a.startsWith('--')) return usage(io, `unknown option ${a}`);
        if (template !== undefined) return usage(io, 'give exactly one template');
        template = a;
    }
  }
  // The JSON-lines protocol is the golden tests' oracle interface: it renders exactly, unbudgeted.
  applyLimits(unlimited || jsonl);
  if (jsonl) {
    if (template !== undefined) return usage(io, '--jsonl reads templates from stdin');
    for await (const line of io.stdinLines()) {
      if (line.trim() === '') continue;
      io.out(answerRequest(line) + '\n');
    }
    return 0;
  }
  if (template === undefined) return usage(io, 'missing template');
  let params: unknown;
  try {
    params = JSON.parse(paramsText);
  } catch (e) {
    return usage(io, `--params is not valid JSON: ${(e as Error).message}`);
  }
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return usage(io, '--params must be a JSON object');
  try {
    io.out(renderString(template, params as Record<string, unknown>, { goTemplate, options }) + '\n');
    return 0;
  } catch (e) {
    if (e instanceof TemplateError) {
      io.err(messageLine(e.message) + '\n');
      return 1;
    }
    throw e;
  }
}
