/**
 * Helpers shared by the CLI subcommands (lint, render, plan): option parsing, the Node host built
 * from the options, and offset → line/column conversion for printing diagnostics.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  codeInfo,
  getLanguageService,
  isVersionSetting,
  limitExpensiveFunctions,
  lineOfOffset,
  lineStarts,
  notRenderedHere,
  setTemplateLimits,
  SUPPORTED_ARGOCD_VERSIONS,
  type Analysis,
  type EngineDiagnostic,
  type EngineHost,
  type EngineSettings,
  type LanguageService,
} from '@appset-tools/engine';
import { createNodeHost } from '../host/nodeHost';
import { readTextFile } from '../host/files';
import { gitWorkTreeOf, workspaceOf } from '../host/workspaceOf';
import type { CliIO } from './io';
import { messageLine, oneLine } from './safeText';
import {
  isProgressiveSyncOverride,
  isWholeNumberSetting,
  wholeNumberRange,
  type WholeNumberSetting,
} from '@appset-tools/protocol/settingsTable';

/** Thrown for bad usage; subcommands print the message and exit 2. */
export class UsageError extends Error {}

export interface OptionSpec {
  /** Options that take a value (`--format json` or `--format=json`), without the dashes. */
  values?: string[];
  /** Options that may be given several times (subset of `values`); collected into arrays. */
  repeatable?: string[];
  /** Boolean flags (`--no-fail`). */
  flags?: string[];
  /** Also takes `--instance` and `--argocd-config` (INSTANCE_OPTIONS). */
  instance?: boolean;
}

export interface ParsedArgs {
  positional: string[];
  /** Last value of each single-valued option. */
  values: Map<string, string>;
  /** All values of repeatable options. */
  lists: Map<string, string[]>;
  flags: Set<string>;
}

/** Parses `--name value`, `--name=value`, flags and positionals; `--` ends options. */
export function parseArgs(args: string[], spec: OptionSpec): ParsedArgs {
  const values = new Set(spec.values ?? []);
  const repeatable = new Set(spec.repeatable ?? []);
  const flags = new Set(spec.flags ?? []);
  const out: ParsedArgs = { positional: [], values: new Map(), lists: new Map(), flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      out.positional.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      out.positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.replace(/^--?/, '').slice(0, eq < 0 ? undefined : eq - (a.startsWith('--') ? 2 : 1));
    if (flags.has(name) && eq < 0) {
      out.flags.add(name);
      continue;
    }
    if (values.has(name) || repeatable.has(name)) {
      let v: string | undefined;
      if (eq >= 0) v = a.slice(eq + 1);
      else if (i + 1 < args.length) v = args[++i];
      if (v === undefined) throw new UsageError(`option --${name} needs a value`);
      if (repeatable.has(name)) {
        const l = out.lists.get(name) ?? [];
        l.push(v);
        out.lists.set(name, l);
      } else out.values.set(name, v);
      continue;
    }
    throw new UsageError(`unknown option ${a}`);
  }
  return out;
}

/**
 * A subcommand's arguments: the engine options, its own (`own`) and -h/--help, read by `read` (which throws
 * UsageError for a bad one). Help prints the usage (exit 0); a usage error prints `appset <command>: <message>`
 * and the usage (exit 2). Returns what `read` returned, or that exit code.
 */
export function readCommand<T extends object>(
  command: string,
  usage: string,
  args: string[],
  own: OptionSpec,
  io: CliIO,
  read: (p: ParsedArgs) => T,
): T | number {
  try {
    const p = parseArgs(args, withEngineOptions({ ...own, flags: [...(own.flags ?? []), 'help', 'h'] }));
    if (p.flags.has('help') || p.flags.has('h')) {
      io.out(usage + '\n');
      return 0;
    }
    return read(p);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`${oneLine(`appset ${command}: ${e.message}`)}\n\n${usage}\n`);
    return 2;
  }
}

/** The value of option `--name` (default `allowed[0]`), which must be one of `allowed`. */
export function choice<V extends string>(p: ParsedArgs, name: string, allowed: readonly V[]): V {
  const v = p.values.get(name) ?? allowed[0];
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`--${name} must be ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}, got "${v}"`);
  return v as V;
}

/** The one file a subcommand takes. */
export function onlyFile(p: ParsedArgs): string {
  if (p.positional.length !== 1) throw new UsageError('expected exactly one file');
  return p.positional[0];
}

/** The options every engine-backed subcommand accepts. */
export const ENGINE_OPTIONS: OptionSpec = {
  values: ['progressive-syncs', 'max-apps', 'argocd-version', 'workspace', 'minutes-per-sync'],
  repeatable: ['inventory', 'repo-map'],
  flags: ['new-git-globbing', 'no-limits'],
};

/** Usage lines of the options that say what is read besides the input (every engine-backed subcommand). */
export const INPUT_USAGE = `  --inventory FILE             cluster inventory / cluster Secrets file (repeatable)
  --repo-map URL=DIR           use DIR as the checkout of the git repository URL, or as the
                               content of the OCI artifact URL (oci://…) (repeatable)
  --workspace DIR              the workspace whose cluster Secrets and Argo CD settings are read
                               (default: the input's git work tree, else its folder)`;

/** Usage lines of `--minutes-per-sync` (plan, diff: the rollout timeline). */
export const MINUTES_USAGE = `  --minutes-per-sync N         minutes one sync is assumed to take, health included (default 3, or
                               minutesPerSync in .appset-tools.yaml): the rollout timeline's pace`;

/** Usage lines of `--argocd-version` (every engine-backed subcommand). */
export const VERSION_USAGE = `  --argocd-version V           the Argo CD version to check against: auto (default: detect from the
                               repository's install), 2.4 … 3.6, v3.2.5, master, stable/latest (the
                               newest release)`;

/** `--instance NAME` and `--argocd-config PATH` (plan, lint): which Argo CD's configuration decides. */
const INSTANCE_OPTIONS: OptionSpec = { values: ['instance'], repeatable: ['argocd-config'] };

export const INSTANCE_USAGE = `  --instance NAME              judge every ApplicationSet by the Argo CD instance NAME of the instances
                               mapping (.appset-tools.yaml \`instances\`), whatever its path
  --argocd-config PATH         read progressive-sync settings only from this Argo CD configuration (a file or
                               folder inside the workspace; repeatable), instead of finding the install`;

/**
 * Puts `--instance` / `--argocd-config` into the settings: a mapping chosen by name, or a mapping that
 * runs every input on the given configuration (paths absolute against `cwd`, which must exist).
 */
export function instanceFromArgs(p: ParsedArgs, cwd: string, s: Partial<EngineSettings>): void {
  const name = p.values.get('instance');
  const cfgs = p.lists.get('argocd-config');
  if (name !== undefined && cfgs)
    throw new UsageError('--instance and --argocd-config cannot be combined (the first picks a mapping, the second is one)');
  if (name !== undefined) {
    if (!name.trim()) throw new UsageError('--instance needs the name of an instance of the instances mapping');
    s.instance = name.trim();
  }
  if (cfgs) {
    const abs = cfgs.map((c) => {
      const a = path.resolve(cwd, c);
      if (!fs.existsSync(a)) throw new UsageError(`--argocd-config ${c}: no such file or folder`);
      return toPosix(a);
    });
    s.instances = [
      {
        name: cfgs.map((c) => toPosix(path.relative(cwd, path.resolve(cwd, c)) || '.')).join(', '),
        applicationSets: ['**'],
        config: abs,
        origin: '--argocd-config',
      },
    ];
  }
}

/** After loading: the `--instance` exists in the file's mapping and `--argocd-config` lies in the workspace; else why not. */
export function instanceProblem(settings: EngineSettings, roots: readonly string[]): string | undefined {
  if (settings.instance && !settings.instances.some((m) => m.name === settings.instance)) {
    const known = settings.instances.map((m) => `"${m.name}"`);
    return `--instance ${settings.instance}: no instance of that name in the instances mapping (${known.length ? `known: ${known.join(', ')}` : 'no .appset-tools.yaml instances or appsetTools.instances found'})`;
  }
  const given = settings.instances.find((m) => m.origin === '--argocd-config');
  const outside = (given?.config ?? []).filter((c) => !roots.some((r) => c === r || c.startsWith(r.endsWith('/') ? r : r + '/')));
  if (outside.length)
    return `--argocd-config ${outside.join(', ')}: outside the workspace (${roots.join(', ')}), so it is not read; pass --workspace to include it`;
  return undefined;
}

/** Merges option specs: the engine options, the instance options when asked for, and a subcommand's own. */
export function withEngineOptions(spec: OptionSpec): OptionSpec {
  const all = spec.instance ? [ENGINE_OPTIONS, INSTANCE_OPTIONS, spec] : [ENGINE_OPTIONS, spec];
  return {
    values: all.flatMap((s) => s.values ?? []),
    repeatable: all.flatMap((s) => s.repeatable ?? []),
    flags: all.flatMap((s) => s.flags ?? []),
  };
}

/** `--workspace DIR`, absolute, when given (the folder whose cluster Secrets and settings are read). */
export function workspaceFromArgs(p: ParsedArgs, cwd: string): string | undefined {
  const w = p.values.get('workspace');
  if (w === undefined) return undefined;
  const abs = path.resolve(cwd, w);
  let dir = false;
  try {
    dir = fs.statSync(abs).isDirectory();
  } catch {
    /* reported below */
  }
  if (!dir) throw new UsageError(`--workspace must be a folder, got "${w}"`);
  return abs;
}

/**
 * What every engine-backed subcommand reads from its options: the settings (with `--instance` /
 * `--argocd-config` when the subcommand takes them) and `--workspace`.
 */
export function engineArgs(
  p: ParsedArgs,
  cwd: string,
  instance = false,
): { settings: Partial<EngineSettings>; workspace: string | undefined } {
  const settings = settingsFromArgs(p, cwd);
  if (instance) instanceFromArgs(p, cwd, settings);
  return { settings, workspace: workspaceFromArgs(p, cwd) };
}

/** EngineSettings from the common options; paths are made absolute against `cwd`. */
export function settingsFromArgs(p: ParsedArgs, cwd: string): Partial<EngineSettings> {
  const s: Partial<EngineSettings> = {};
  const inv = p.lists.get('inventory');
  if (inv) s.inventoryFiles = inv.map((f) => toPosix(path.resolve(cwd, f)));
  const maps = p.lists.get('repo-map');
  if (maps) {
    const m: Record<string, string> = Object.create(null);
    for (const entry of maps) {
      const eq = entry.lastIndexOf('=');
      if (eq <= 0 || eq === entry.length - 1) throw new UsageError(`--repo-map expects url=dir, got "${entry}"`);
      Object.defineProperty(m, entry.slice(0, eq), {
        value: toPosix(path.resolve(cwd, entry.slice(eq + 1))),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    s.repoMappings = m;
  }
  const ps = p.values.get('progressive-syncs');
  if (ps !== undefined) {
    if (!isProgressiveSyncOverride(ps)) throw new UsageError(`--progressive-syncs must be auto, enabled or disabled, got "${ps}"`);
    s.progressiveSyncs = ps;
  }
  // The settings table's one rule for whole numbers, as `.appset-tools.yaml` and the editor read them.
  const whole = (flag: string, name: WholeNumberSetting) => {
    const v = p.values.get(flag);
    if (v === undefined) return;
    const n = /^\d{1,16}$/.test(v) ? Number(v) : NaN;
    if (!isWholeNumberSetting(name, n)) throw new UsageError(`--${flag} must be ${wholeNumberRange(name)}, got "${v}"`);
    s[name] = n;
  };
  whole('max-apps', 'maxApplications');
  whole('minutes-per-sync', 'minutesPerSync');
  if (p.flags.has('new-git-globbing')) s.newGitFileGlobbing = true;
  const av = p.values.get('argocd-version');
  if (av !== undefined) {
    if (!isVersionSetting(av))
      throw new UsageError(
        `--argocd-version must be auto, master, stable, latest or a version such as 3.2 or v3.2.5 (supported: ${SUPPORTED_ARGOCD_VERSIONS[0]} … ${SUPPORTED_ARGOCD_VERSIONS.at(-1)}), got "${av}"`,
      );
    s.argocdVersion = av;
  }
  applyLimits(p.flags.has('no-limits'));
  return s;
}

/**
 * The CLI runs under the language server's budgets (template work, steps and output per execution,
 * slow crypto functions per time window), so a hostile file cannot hang a CI job; `--no-limits`
 * lifts them all, for a render that must match the controller whatever it costs.
 */
export function applyLimits(unlimited: boolean): void {
  setTemplateLimits(!unlimited);
  limitExpensiveFunctions(unlimited ? {} : { budgetMs: 4000, windowMs: 15000 });
}

/**
 * A Node host for the given inputs. The workspace is `--workspace DIR` when given, else each input's
 * git work tree (the nearest folder above it with a `.git`), else the input itself (a folder) or its
 * folder (a file), so the cluster Secrets and Argo CD configuration kept next to the ApplicationSets
 * are found. Inputs never widen it: `--inventory` files and `--repo-map` folders are readable, but
 * not workspace roots, so the neighbours of an inventory file (other projects' cluster Secrets or
 * Argo CD settings) stay out.
 */
export function hostForInputs(inputs: string[], cwd: string, settings: Partial<EngineSettings>, workspace?: string): EngineHost {
  const roots = new Set<string>();
  if (workspace !== undefined) roots.add(toPosix(path.resolve(cwd, workspace)));
  else for (const i of inputs) roots.add(toPosix(workspaceOf(path.resolve(cwd, i))));
  if (roots.size === 0) roots.add(toPosix(path.resolve(cwd)));
  // --inventory files and --repo-map folders are readable through the settings (nodeHost's namedPlaces).
  return createNodeHost(minimalRoots([...roots]), settings);
}

/** The folder report paths are relative to: the git work tree containing `cwd`, else `cwd`. */
export function reportRoot(cwd: string): string {
  return gitWorkTreeOf(cwd) ?? path.resolve(cwd);
}

/** Drops roots that lie inside another root. */
function minimalRoots(roots: string[]): string[] {
  const sorted = [...new Set(roots)].sort((a, b) => a.length - b.length);
  const out: string[] = [];
  for (const r of sorted) if (!out.some((o) => r === o || r.startsWith(o.endsWith('/') ? o : o + '/'))) out.push(r);
  return out;
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Converts character offsets to 1-based line/column, with one pass over the text per file (the engine's line table). */
export class LineMap {
  private starts: readonly number[];
  constructor(text: string) {
    this.starts = lineStarts(text);
  }
  /** 1-based line and column of `offset`. */
  position(offset: number): { line: number; col: number } {
    const line = lineOfOffset(this.starts, offset);
    return { line: line + 1, col: offset - this.starts[line] + 1 };
  }
}

/** `path:line:col severity code message`, the format every subcommand prints diagnostics in. */
export function formatDiagnostic(file: string, lines: LineMap, d: EngineDiagnostic): string {
  const { line, col } = lines.position(d.span.start);
  return oneLine(`${file}:${line}:${col} ${d.severity} ${d.code} ${messageLine(d.message)}`);
}

const SEVERITY_ORDER = { error: 0, warning: 1, information: 2, hint: 3 } as const;

/** Sorts diagnostics by position, then severity, for stable output. */
export function sortDiagnostics(ds: EngineDiagnostic[]): EngineDiagnostic[] {
  return [...ds].sort(
    (a, b) => a.span.start - b.span.start || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.code.localeCompare(b.code),
  );
}

export interface LoadedFile {
  abs: string;
  text: string;
  service: LanguageService;
  analysis: Analysis;
}

/**
 * Reads one input file and analyses it in its workspace (render and plan take exactly one file).
 * Returns the exit status after printing why: 2 when the file cannot be read, 3 when a document of it
 * could not be checked (a limit: it may be the ApplicationSet), 4 when it holds no ApplicationSet.
 */
export function loadOneFile(
  cmd: string,
  file: string,
  io: CliIO,
  settings: Partial<EngineSettings>,
  workspace?: string,
): LoadedFile | 2 | 3 | 4 {
  const abs = path.resolve(io.cwd, file);
  const read = readTextFile(abs);
  if (!('text' in read)) {
    io.err(oneLine(`appset ${cmd}: ${file}: ${read.skipped === 'no such file' ? read.skipped : `not read: ${read.skipped}`}`) + '\n');
    return 2;
  }
  const text = read.text;
  const service = getLanguageService({ host: hostForInputs([path.dirname(abs)], io.cwd, settings, workspace) });
  const posix = toPosix(abs);
  const analysis = service.analyze(posix, text, posix);
  // A Helm chart template: the ApplicationSets `helm template` renders from the chart's values.yaml.
  const helm = service.appsets(analysis).length ? undefined : service.helmRendered(analysis);
  if (helm && 'analysis' in helm && service.appsets(helm.analysis).length) {
    io.err(
      oneLine(
        `appset ${cmd}: ${file}: a Helm chart template, rendered as \`helm template\` would with ${toPosix(path.relative(io.cwd, helm.values))} alone (release name release-name); lines below refer to the rendered text`,
      ) + '\n',
    );
    return { abs, text: helm.text, service, analysis: helm.analysis };
  }
  if (!service.appsets(analysis).length) {
    const lines = new LineMap(text);
    const unchecked = service.diagnostics(analysis).filter((d) => codeInfo(d.code)?.unchecked);
    for (const d of unchecked) io.err(formatDiagnostic(file, lines, d) + '\n');
    io.err(
      oneLine(
        `appset ${cmd}: ${file}: ${unchecked.length ? 'NOT CHECKED: a document could not be read (above)' : helm && 'cannot' in helm ? notRenderedHere(helm.cannot) : 'no ApplicationSet found'}`,
      ) + '\n',
    );
    return unchecked.length ? 3 : 4;
  }
  return { abs, text, service, analysis };
}
