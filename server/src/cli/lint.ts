/**
 * `appset lint <files or folders…>`: the language server's findings, for CI and pre-commit. Uses the
 * same language-service facade as the server (repository config, severities, suppressions and policy
 * gates included), then prints one of the formats of `report.ts`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CliIO } from './io';
import {
  codeInfo,
  getLanguageService,
  fingerprints,
  looksLikeAppSet,
  mayDeclareClusters,
  type Finding,
  type LanguageService,
  type Severity,
} from '@appset-tools/engine';
import { openIndexCache } from '../host/indexCache';
import { collectInputs, readInput, type InputFile } from './inputs';
import { readTextFile } from '../host/files';
import { workspaceOf } from '../host/workspaceOf';
import { resumeOptimiser } from '../optimiser';
import {
  LineMap,
  UsageError,
  hostForInputs,
  INPUT_USAGE,
  INSTANCE_USAGE,
  VERSION_USAGE,
  engineArgs,
  instanceProblem,
  toPosix,
  readCommand,
  choice,
  reportRoot,
} from './common';
import { fails, summarize, type FailOn, type LintReport, type ReportFile, type ReportFinding } from './report';
import { toSarif } from './sarif';
import { toGithub, toMarkdown, toText } from './humanFormats';
import { toCodeQuality } from './codeQuality';
import { oneLine } from './safeText';

const FORMATS = ['text', 'json', 'sarif', 'github', 'markdown', 'codequality'] as const;
type Format = (typeof FORMATS)[number];

const USAGE = `usage: appset lint <files or folders…> [options]

Validates the ApplicationSets in YAML files (folders are searched for *.yaml and *.yml,
skipping node_modules and .git). Settings, severities, ignored paths and policy gates come from
the nearest .appset-tools.yaml above each file; command-line options win over it.

options:
  --format text|json|sarif|github|markdown|codequality
                               output format (default text; json is versioned, see docs/cli.md;
                               github: workflow-command annotations; codequality: GitLab Code Quality)
  --output FILE                write the report to FILE instead of standard output
  --sarif FILE                 also write the SARIF report to FILE
  --markdown FILE              also write the markdown report to FILE
  --only-appsets               skip named files that hold no ApplicationSet (for pre-commit's file lists)
  --fail-on error|warning|information
                               exit 1 when a finding at or above this severity remains (default error)
${INPUT_USAGE}
  --progressive-syncs auto|enabled|disabled
                               whether progressive syncs are enabled on the controller (default auto: detect
                               from the configuration of the Argo CD instance that runs each ApplicationSet)
${INSTANCE_USAGE}
  --max-apps N                 stop expanding an ApplicationSet after N Applications
${VERSION_USAGE}
  --new-git-globbing           git file generators use the new globbing (--enable-new-git-file-globbing)
  --no-limits                  lift the template work, step, output and slow-function budgets
  --no-fail                    exit 0 even when findings reach --fail-on
  --quiet                      report only the findings that fail the run (errors, or those at or above
                               --fail-on); the summary still counts every finding
  --no-cache                   do not use or update the workspace index cache (see docs/performance.md)

exit status: 0 nothing at or above --fail-on, 1 findings at or above it, 2 bad usage, an input that does
not exist or could not be read (the other inputs are still checked and reported) or a mistake in
.appset-tools.yaml, 3 a document could not be checked (a limit of ApplicationSet Tools or a parse the YAML
library could not finish; the gate fails closed unless .appset-tools.yaml lowers that code's severity),
4 no input found (no YAML file, or no ApplicationSet, in the given paths)`;

type LintOptions = Exclude<ReturnType<typeof lintOptions>, number>;

function lintOptions(args: string[], io: CliIO) {
  return readCommand(
    'lint',
    USAGE,
    args,
    {
      values: ['format', 'fail-on', 'output', 'sarif', 'markdown'],
      flags: ['no-fail', 'quiet', 'only-appsets', 'no-cache'],
      instance: true,
    },
    io,
    (p) => {
      const f = p.values.get('format') ?? 'text';
      if (!(FORMATS as readonly string[]).includes(f)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${f}"`);
      const fo = choice(p, 'fail-on', ['error', 'warning', 'information']);
      if (p.positional.length === 0) throw new UsageError('no files or folders given');
      const { settings, workspace } = engineArgs(p, io.cwd, true);
      return {
        format: f as Format,
        failOn: (p.flags.has('no-fail') ? 'never' : fo) as FailOn,
        inputs: p.positional,
        quiet: p.flags.has('quiet'),
        outFile: p.values.get('output'),
        extra: { sarif: p.values.get('sarif'), markdown: p.values.get('markdown') },
        onlyAppsets: p.flags.has('only-appsets'),
        noCache: p.flags.has('no-cache'),
        settings,
        workspace,
      };
    },
  );
}

export async function runLint(args: string[], io: CliIO): Promise<number> {
  const opts = lintOptions(args, io);
  if (typeof opts === 'number') return opts;
  const { format, failOn, inputs, quiet, onlyAppsets, noCache, settings, workspace } = opts;

  const problems: LintReport['problems'] = [];
  // Paths in every format are relative to the repository's root (its git work tree, else the current
  // folder), whichever folder the command runs in: reports travel (code scanning, artifacts, comments)
  // and must never carry the runner's absolute paths. A file outside it (an absolute argument, run outside
  // any git work tree) is shown relative to its own workspace root — the root the host reads it under,
  // else its git work tree or folder (`workspaceOf`) —, as `appset diff` shows paths relative to its repository.
  const root = reportRoot(io.cwd);
  let roots: string[] = [];
  const inside = (base: string, abs: string) => {
    const rel = path.relative(base, abs);
    return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : undefined;
  };
  const shownPath = (abs: string) => {
    const rel =
      inside(root, abs) ??
      roots.map((r) => inside(r, abs)).find((r) => r !== undefined) ??
      inside(workspaceOf(abs), abs) ??
      path.basename(abs);
    return toPosix(rel);
  };
  // Collect files: named files are always reported (unless --only-appsets); files found in folders
  // only when they look like ApplicationSets (a folder may hold Helm templates that are not YAML at all).
  const collected = collectInputs('lint', inputs, io);
  for (const m of collected.missing) problems.push({ path: shownPath(m.abs), message: `${m.input}: no such file or folder` });
  const { existing } = collected;
  const files = collected.files.map((f) => (f.named && onlyAppsets ? { ...f, named: false } : f));
  if (!files.length && !problems.length) {
    io.err(oneLine(`appset lint: no YAML file found in ${inputs.join(', ')}`) + '\n');
    return 4;
  }

  const host = hostForInputs(existing.length ? existing : ['.'], io.cwd, settings, workspace);
  const cache = noCache ? undefined : openIndexCache(host.roots());
  const service = getLanguageService({ host, workspaceCache: cache });
  roots = host.roots().map((r) => path.resolve(r));
  const checked = checkFiles(files, service, host.roots(), problems, shownPath, io);
  if (typeof checked === 'number') return checked;
  const { results, unchecked } = checked;
  cache?.save();
  if (debugStats()) {
    const c = service.workspace.counts;
    io.err(
      `appset lint: stats: workspace index: ${c.listed} YAML files listed, ${c.statted} looked at (stat), ${c.read} read, ${c.cacheSkips} not read (cache), ${c.parsed} parsed\n`,
    );
  }
  // What the workspace scan left out (caps, files over the size limit, FIFOs), once per run.
  // On stderr for a person, and in the JSON report for a machine (a limit reached is never silent there).
  const scanNotes = service.workspace.scanNotes(true);
  for (const n of scanNotes) io.err(oneLine(`appset lint: note: ${n}`) + '\n');
  results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  // --quiet hides what would not fail the run, but the summary (and so the exit status) counts everything.
  const full = summarize(results, problems, failOn, unchecked.length, scanNotes);
  const shown = (d: ReportFinding) => d.severity === 'error' || fails(d.severity, failOn);
  const report: LintReport = quiet
    ? {
        ...full,
        files: full.files
          .map((f) => ({ ...f, diagnostics: f.diagnostics.filter(shown) }))
          .filter((f) => f.diagnostics.length || f.applicationSets),
      }
    : full;
  if (!writeReports(report, opts, io)) return 2;
  if (format !== 'github') for (const p of problems) io.err(oneLine(`appset lint: ${p.message}`) + '\n');
  return exitStatus(report, problems, checked, { inputs: existing, files: files.length, onlyAppsets }, io);
}

/**
 * The exit status (the agreed table, docs/cli.md): 2 for a problem or a configuration mistake, 3 for
 * a document not checked (fail closed), 4 for nothing to check, else 1 when a finding fails the run.
 */
function exitStatus(
  report: LintReport,
  problems: LintReport['problems'],
  { results, configMistakes, unchecked, appsetFiles }: Checked,
  looked: { inputs: string[]; files: number; onlyAppsets: boolean },
  io: CliIO,
): number {
  if (problems.length) return 2;
  if (configMistakes.length) {
    io.err(
      `appset lint: ${configMistakes.join(', ')}: a setting cannot be used (config/invalid above); fix it, or the run is not the one configured\n`,
    );
    return 2;
  }
  if (unchecked.length) {
    // Fail closed: a document the tool could not read was not checked by any rule or policy gate.
    io.err(
      oneLine(
        `appset lint: ${unchecked.length === 1 ? 'a document was' : `${unchecked.length} documents were`} NOT CHECKED (${unchecked.slice(0, 5).join(', ')}${unchecked.length > 5 ? ', …' : ''}); exit status 3. To accept this, lower that code's severity in .appset-tools.yaml (e.g. "severity: {${unchecked[0].slice(unchecked[0].lastIndexOf(': ') + 2)}: information}").`,
      ) + '\n',
    );
    return 3;
  }
  // Nothing to check is not a pass: a wrong path or pattern in CI must not go green.
  const anyFinding = results.some((f) => f.diagnostics.length);
  if (!report.summary.applicationSets && !anyFinding && !appsetFiles && !looked.onlyAppsets) {
    io.err(
      `appset lint: no ${looked.files ? 'ApplicationSet' : 'YAML file'} found in ${looked.inputs.join(', ')}${looked.files ? ` (${looked.files} YAML file${looked.files === 1 ? '' : 's'} looked at)` : ''}\n`,
    );
    return 4;
  }
  return report.summary.failed ? 1 : 0;
}

/** What checking the input files found, for the report and the exit status. */
interface Checked {
  results: ReportFile[];
  /** Configuration files with a setting that cannot be used (exit 2: the run is not the one the user configured). */
  configMistakes: string[];
  /** Findings that say a document was not checked, as `path:line code` (the gate fails closed on them). */
  unchecked: string[];
  /**
   * Files that hold an ApplicationSet as text, also those a limit blanked and the user accepted as not
   * checked (a lowered or `off` limit code): they are inputs found, never "nothing to check".
   */
  appsetFiles: number;
}

/**
 * Every input file through the facade, as the language server checks it (a file that cannot be read
 * is a problem when named, a note when found), then the configuration files they use. A mapping
 * mistake of `--instance` ends the run (exit 2).
 */
function checkFiles(
  files: InputFile[],
  service: LanguageService,
  roots: string[],
  problems: LintReport['problems'],
  shownPath: (abs: string) => string,
  io: CliIO,
): Checked | number {
  const out: Checked = { results: [], configMistakes: [], unchecked: [], appsetFiles: 0 };
  const { results, unchecked } = out;
  const configs = new Map<string, string>();
  for (const f of files) {
    const abs = toPosix(f.abs);
    // Every skip is said (readInput: regular files only, a found file only inside its folder).
    const read = readInput(f);
    if (!('text' in read)) {
      // A file found in a folder that could not be read (a permission, an I/O error, over the size limit)
      // was not checked: the run fails closed on it as on a named one (exit 2), never passes beside it.
      if (f.named) problems.push({ path: shownPath(f.abs), message: `${shownPath(f.abs)}: ${read.skipped}` });
      else if (read.unread) problems.push({ path: shownPath(f.abs), message: `${shownPath(f.abs)}: NOT CHECKED: ${read.skipped}` });
      else io.err(oneLine(`appset lint: ${shownPath(f.abs)}: skipped: ${read.skipped}`) + '\n');
      continue;
    }
    const text = read.text;
    // Cluster Secrets found in folders are read for their own findings (placeholder templates) only.
    const clustersOnly = !f.named && !looksLikeAppSet(text);
    if (clustersOnly && !mayDeclareClusters(text)) continue;
    const cfg = service.configFor(abs);
    if (cfg.path) configs.set(cfg.path, cfg.text);
    if (service.isIgnored(abs)) continue;
    if (looksLikeAppSet(text)) out.appsetFiles++;
    try {
      const analysis = service.analyze(abs, text, abs);
      const appsets = service.appsets(analysis);
      const bad = appsets.length ? instanceProblem(service.settings(analysis), roots) : undefined;
      if (bad) {
        io.err(oneLine(`appset lint: ${bad}`) + '\n');
        return 2;
      }
      const all = service.lint(analysis);
      resumeOptimiser(); // the first file answered: the others are optimised (main.ts)
      // A cluster Secret that could not be read at all (an alias bomb, a limit) leaves the cluster
      // generators' answer incomplete: its finding is kept, and the gate fails closed on it too.
      for (const d of all.filter(notChecked)) unchecked.push(`${shownPath(f.abs)}: ${d.code}`);
      const findings = all.filter((d) => !(clustersOnly && d.code.startsWith('yaml/') && !notChecked(d)));
      if (clustersOnly && !findings.length) continue;
      results.push(
        reportFile(
          abs,
          shownPath(f.abs),
          text,
          appsets.length,
          findings,
          appsets.map((a) => ({ name: a.name, span: a.span })),
          shownPath,
        ),
      );
    } catch (e) {
      // One file the engine cannot handle must not stop the others from being checked.
      problems.push({ path: shownPath(f.abs), message: `${shownPath(f.abs)}: internal error: ${(e as Error).message}` });
    }
  }
  // Problems in the configuration files themselves, once per file.
  for (const [cfgPath, text] of configs) {
    const ds = service.configDiagnostics(cfgPath);
    if (ds.some((d) => d.code === 'config/invalid')) out.configMistakes.push(shownPath(cfgPath));
    if (ds.length) results.push(reportFile(cfgPath, shownPath(cfgPath), text, 0, ds, [], shownPath));
  }
  return out;
}

/** Writes the report to `--output`, `--sarif`, `--markdown` and standard output; false when a file cannot be written. */
function writeReports(report: LintReport, opts: Pick<LintOptions, 'format' | 'outFile' | 'extra'>, io: CliIO): boolean {
  const { format, outFile, extra } = opts;
  const render = (f: Format): string => {
    if (f === 'json') return JSON.stringify(report, null, 2) + '\n';
    if (f === 'sarif') return JSON.stringify(toSarif(report), null, 2) + '\n';
    if (f === 'github') return toGithub(report);
    if (f === 'markdown') return toMarkdown(report);
    if (f === 'codequality') return JSON.stringify(toCodeQuality(report), null, 2) + '\n';
    return toText(report);
  };
  const writes: [string, Format][] = [];
  if (extra.sarif) writes.push([extra.sarif, 'sarif']);
  if (extra.markdown) writes.push([extra.markdown, 'markdown']);
  if (outFile) writes.push([outFile, format]);
  for (const [file, f] of writes) {
    try {
      fs.writeFileSync(path.resolve(io.cwd, file), render(f));
    } catch (e) {
      io.err(oneLine(`appset lint: cannot write ${file}: ${(e as Error).message}`) + '\n');
      return false;
    }
  }
  // With --output the report goes to the file and the summary line to the terminal.
  io.out(outFile ? toText(report).split('\n').slice(-2).join('\n') : render(format));
  return true;
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

/**
 * A finding that says a document was not checked (`unchecked` in the registry), still at the
 * registry's severity or above: the user has not lowered it in `.appset-tools.yaml` (or `off`,
 * which drops it) nor suppressed it inline with a reason.
 */
function notChecked(d: Finding): boolean {
  const info = codeInfo(d.code);
  return !!info?.unchecked && !d.suppressed && RANK[d.severity] <= RANK[info.severity];
}

/** `APPSET_DEBUG=stats`: what the workspace index did (tests and the benchmark count files, never time them). */
const debugStats = () => (process.env.APPSET_DEBUG ?? '').split(',').includes('stats');

function reportFile(
  abs: string,
  shown: string,
  text: string,
  appsets: number,
  findings: Finding[],
  docs: { name: string; span: { start: number; end: number } }[],
  shownPath: (abs: string) => string,
): ReportFile {
  const lines = new LineMap(text);
  /** A location in this or another file as path and 1-based line/column. */
  const locationOf = (f: string, span?: { start: number; end: number }) => {
    const file = pathOfLocation(f);
    const same = file === abs || file === '';
    const map = same ? lines : linesOf(file);
    const at = span && map ? map.position(span.start) : undefined;
    return { path: same ? shown : shownPath(file), ...(at ? { line: at.line, col: at.col } : {}) };
  };
  const sorted = [...findings].sort((a, b) => a.span.start - b.span.start || a.code.localeCompare(b.code));
  const fps = fingerprints(shown, text, sorted);
  const diagnostics = sorted.map((d, i): ReportFinding => {
    const s = lines.position(d.span.start);
    const e = lines.position(Math.max(d.span.start, d.span.end));
    const doc = docs.find((x) => d.span.start >= x.span.start && d.span.start <= x.span.end);
    const r: ReportFinding = {
      path: shown,
      line: s.line,
      col: s.col,
      endLine: e.line,
      endCol: e.col,
      severity: d.severity,
      code: d.code,
      message: d.message,
      fingerprint: fps[i],
    };
    if (doc) r.applicationSet = doc.name;
    if (d.suppressed) r.suppressed = { justification: d.suppressed.justification };
    if (d.affected) {
      r.affected = {
        count: d.affected.count,
        of: d.affected.of,
        names: [...d.affected.names],
        sources: d.affected.sources.map((src) => ({
          kind: src.kind,
          label: src.label,
          ...(src.location ? locationOf(src.location.file, src.location.span) : {}),
        })),
      };
    }
    if (d.related?.length) {
      r.related = d.related.map((rel) => {
        const file = pathOfLocation(rel.location.file);
        const same = file === abs || file === '';
        const loc: NonNullable<ReportFinding['related']>[number] = { path: same ? shown : shownPath(file), message: rel.message };
        const map = same ? lines : linesOf(file);
        if (rel.location.span && map) {
          const p = map.position(rel.location.span.start);
          const q = map.position(rel.location.span.end);
          Object.assign(loc, { line: p.line, col: p.col, endLine: q.line, endCol: q.col });
        }
        return loc;
      });
    }
    if (d.tags?.length) r.tags = [...d.tags];
    return r;
  });
  return { path: shown, applicationSets: appsets, diagnostics };
}

/**
 * The file a finding's location names: the CLI gives the engine paths, never URIs, so a path is taken
 * as written (`p%41.yaml` is not `pA.yaml`, `bad%zz.yaml` is no malformed URI); only a real `file://`
 * URI is decoded.
 */
function pathOfLocation(f: string): string {
  if (!f.startsWith('file://')) return f;
  try {
    return fileURLToPath(f).replace(/\\/g, '/');
  } catch {
    return f;
  }
}

const otherFiles = new Map<string, LineMap | undefined>();
/** Line maps of files that related locations point into (read once each). */
function linesOf(file: string): LineMap | undefined {
  if (!otherFiles.has(file)) {
    // The engine read this file through the host; read it again as safely (host/files.ts).
    const r = readTextFile(file);
    const map = 'text' in r ? new LineMap(r.text) : undefined;
    otherFiles.set(file, map);
  }
  return otherFiles.get(file);
}
