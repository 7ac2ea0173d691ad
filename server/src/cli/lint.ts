/**
 * `appset lint <files or folders…>`: the language server's diagnostics, for CI. Uses the same
 * language-service facade as the server, so every feature's diagnostics appear here too.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CliIO } from './io';
import { getLanguageService, type Affected, type EngineDiagnostic, type Location, type Severity } from '../engine';
import { openIndexCache } from './indexCache';
import { LineMap, UsageError, formatDiagnostic, hostForInputs, parseArgs, settingsFromArgs, sortDiagnostics, toPosix, withEngineOptions } from './common';
import { SKIPPED_FOLDERS, compareGoStrings } from '../engine';

const USAGE = `usage: appset lint <files or folders…> [options]

Validates the ApplicationSets in YAML files (folders are searched for *.yaml and *.yml,
skipping node_modules and .git). Prints path:line:col severity code message.

options:
  --format text|json           output format (default text)
  --inventory FILE             cluster inventory / cluster Secrets file (repeatable)
  --repo-map URL=DIR           use DIR as the checkout of the git repository URL (repeatable)
  --progressive-syncs auto|enabled|disabled
                               whether progressive syncs are enabled on the controller (default auto: detect)
  --max-apps N                 stop expanding an ApplicationSet after N Applications
  --argocd-version V           the Argo CD version to check against: auto (default: detect from the
                               repository's install), 2.8 … 3.5, v3.2.5, master
  --new-git-globbing           git file generators use the new globbing (--enable-new-git-file-globbing)
  --no-fail                    exit 0 even when errors are found
  --quiet                      print errors only
  --no-cache                   do not use or update the workspace index cache (see README, "Performance")

exit status: 0 no errors, 1 errors found, 2 bad usage or unreadable input`;

/** Safety bound on the files one run looks at. */
const MAX_FILES = 20000;

interface FileResult {
  path: string;
  appsets: number;
  diagnostics: (EngineDiagnostic & { line: number; col: number; endLine: number; endCol: number })[];
}

export async function runLint(args: string[], io: CliIO): Promise<number> {
  let inputs: string[];
  let format: string;
  let noFail: boolean;
  let noCache: boolean;
  let quiet: boolean;
  let settings;
  try {
    const p = parseArgs(args, withEngineOptions({ values: ['format'], flags: ['no-fail', 'quiet', 'no-cache', 'help', 'h'] }));
    if (p.flags.has('help') || p.flags.has('h')) {
      io.out(USAGE + '\n');
      return 0;
    }
    format = p.values.get('format') ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got "${format}"`);
    if (p.positional.length === 0) throw new UsageError('no files or folders given');
    inputs = p.positional;
    noFail = p.flags.has('no-fail');
    noCache = p.flags.has('no-cache');
    quiet = p.flags.has('quiet');
    settings = settingsFromArgs(p, io.cwd);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`appset lint: ${e.message}\n\n${USAGE}\n`);
    return 2;
  }

  // Collect files: named files are always reported; files found in folders only when they look
  // like ApplicationSets (a folder may hold Helm templates that are not YAML at all).
  const files: { abs: string; named: boolean }[] = [];
  for (const input of inputs) {
    const abs = path.resolve(io.cwd, input);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      io.err(`appset lint: ${input}: no such file or folder\n`);
      return 2;
    }
    if (st.isDirectory()) walk(abs, files);
    else files.push({ abs, named: true });
  }
  if (files.length >= MAX_FILES) io.err(`appset lint: stopped after ${MAX_FILES} files\n`);

  const host = hostForInputs(inputs, io.cwd, settings);
  const cache = noCache ? undefined : openIndexCache(host.roots());
  const service = getLanguageService({ host, workspaceCache: cache });
  const results: FileResult[] = [];
  let unreadable = 0;
  for (const f of files) {
    let text: string;
    try {
      text = fs.readFileSync(f.abs, 'utf8');
    } catch (e) {
      io.err(`appset lint: ${f.abs}: ${(e as Error).message}\n`);
      unreadable++;
      continue;
    }
    if (!f.named && !/^\s*kind:\s*["']?ApplicationSet\b/m.test(text)) continue;
    const abs = toPosix(f.abs);
    const analysis = service.analyze(abs, text, abs);
    const lines = new LineMap(text);
    const shown = path.relative(io.cwd, f.abs) || path.basename(f.abs);
    const diags = sortDiagnostics(service.diagnostics(analysis)).filter((d) => !quiet || d.severity === 'error');
    results.push({
      path: toPosix(shown),
      appsets: analysis.appsets.length,
      diagnostics: diags.map((d) => {
        const s = lines.position(d.span.start);
        const e = lines.position(Math.max(d.span.start, d.span.end));
        return { ...d, line: s.line, col: s.col, endLine: e.line, endCol: e.col };
      }),
    });
    if (format === 'text') for (const d of diags) io.out(formatDiagnostic(toPosix(shown), lines, d) + '\n');
  }

  cache?.save();
  const count = (s: Severity) => results.reduce((n, r) => n + r.diagnostics.filter((d) => d.severity === s).length, 0);
  const summary = {
    files: results.length,
    applicationSets: results.reduce((n, r) => n + r.appsets, 0),
    errors: count('error'),
    warnings: count('warning'),
    information: count('information'),
    hints: count('hint'),
  };
  if (format === 'json') {
    const json = {
      files: results.map((r) => ({
        path: r.path,
        applicationSets: r.appsets,
        diagnostics: r.diagnostics.map((d) => ({
          line: d.line,
          col: d.col,
          endLine: d.endLine,
          endCol: d.endCol,
          severity: d.severity,
          code: d.code,
          message: d.message,
          ...(d.tags ? { tags: d.tags } : {}),
          ...(d.affected ? { affected: affectedJson(d.affected, io.cwd) } : {}),
          ...(d.related?.length ? { related: d.related.map((r) => ({ message: r.message, ...locationJson(r.location, io.cwd) })) } : {}),
        })),
      })),
      summary,
    };
    io.out(JSON.stringify(json, null, 2) + '\n');
  } else {
    const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
    io.out(
      `${plural(summary.applicationSets, 'ApplicationSet')} in ${plural(summary.files, 'file')}: ` +
        `${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${summary.information + summary.hints} notes\n`,
    );
  }
  if (unreadable) return 2;
  return summary.errors > 0 && !noFail ? 1 : 0;
}

function walk(dir: string, out: { abs: string; named: boolean }[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => compareGoStrings(a.name, b.name));
  for (const e of entries) {
    if (out.length >= MAX_FILES) return;
    const p = path.join(dir, e.name);
    // Symlinked folders are not followed (no loops, no escaping the tree).
    if (e.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(e.name)) walk(p, out);
    } else if ((e.isFile() || e.isSymbolicLink()) && /\.ya?ml$/i.test(e.name)) out.push({ abs: p, named: false });
  }
}

/**
 * The Applications a grouped finding concerns, for machine readers (SARIF and fingerprints build on
 * it): how many of how many, their first names, and where their parameter sets came from.
 */
function affectedJson(a: Affected, cwd: string) {
  return { count: a.count, of: a.of, names: a.names, sources: a.sources.map((s) => ({ kind: s.kind, label: s.label, ...(s.location ? locationJson(s.location, cwd) : {}) })) };
}

const lineMaps = new Map<string, LineMap | null>();

/** A location as path (relative to the working directory) and 1-based line/column when the file can be read. */
function locationJson(loc: Location, cwd: string): { path: string; line?: number; col?: number } {
  const file = loc.file.startsWith('file://') ? decodeURIComponent(loc.file.slice('file://'.length)) : loc.file;
  const shown = toPosix(path.relative(cwd, file) || path.basename(file));
  if (!loc.span) return { path: shown };
  let lm = lineMaps.get(file);
  if (lm === undefined) {
    try {
      lm = new LineMap(fs.readFileSync(file, 'utf8'));
    } catch {
      lm = null;
    }
    lineMaps.set(file, lm);
  }
  if (!lm) return { path: shown };
  const p = lm.position(loc.span.start);
  return { path: shown, line: p.line, col: p.col };
}
