/**
 * `appset diff --base <rev> [files or folders…]`: what a change does to the fleet. Every ApplicationSet
 * is rendered at the base revision (read from git objects through a git-revision host: the work tree
 * is never read for it) and in the work tree, and the generated Applications are compared by the
 * engine (`features/impact/diff.ts`, which the editor's "this change" lens uses too). Output: text, markdown (a pull-request comment) or json.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CliIO } from './io';
import { oneLine } from './safeText';
import {
  appSetSides,
  changeGateMessage,
  changeImpact,
  declaresAppSet,
  diffReport,
  getLanguageService,
  type DiffReport,
  type EngineHost,
  type EngineSettings,
  type LanguageService,
  type RepoConfig,
  type SideAppSet,
} from '@appset-tools/engine';
import { createNodeHost } from '../host/nodeHost';
import { readTextFileWithin } from '../host/files';
import { createGitRevisionHost, resolveCommit, workTreeRoot, GitError } from '../host/gitRevisionHost';
import { MINUTES_USAGE, UsageError, choice, readCommand, settingsFromArgs, toPosix } from './common';
import { walkYaml } from './inputs';
import { diffMarkdown, diffText } from './diffFormats';
import { diffSarif } from './diffSarif';

const USAGE = `usage: appset diff --base <git revision> [files or folders…] [options]

Renders every ApplicationSet at the base revision (from git, without touching the work tree) and in
the work tree, and reports the generated Applications added, removed and changed (field by field),
the rollout step and wave each change lands in, and how many Applications sync at once. Cluster
Secrets, inventories and Argo CD configuration are read from each side's own revision.

options:
  --base REV                   the revision to compare with (a branch, tag or commit; required)
  --format text|markdown|json|sarif
                               output format (default text; markdown is a pull-request comment; sarif
                               for code scanning: deletions, permission denials and rollout risks in
                               the ApplicationSet's file)
  --output FILE                write the report to FILE instead of standard output
  --report FILE                also write the whole report to FILE as markdown, never cut to a comment's
                               size (every ApplicationSet and every Application: the CI artifact)
  --inventory FILE             cluster inventory / cluster Secrets file (repeatable; both sides)
  --repo-map URL=DIR           use DIR as the checkout of the git repository URL (repeatable)
  --progressive-syncs auto|enabled|disabled
${MINUTES_USAGE}
  --max-apps N                 stop expanding an ApplicationSet after N Applications
  --new-git-globbing           git file generators use the new globbing

exit status: 0 report printed (whether or not anything changed), 1 more removed Applications would
delete their resources than policy.maxDeletes in .appset-tools.yaml allows, or the change makes more
Applications or clusters sync at once than policy.maxChangeAtOnce / maxChangeClustersAtOnce allow, 2 bad usage, not a git
work tree, unknown revision, a path that exists neither in the work tree nor at the base revision, or
unreadable input, 3 an ApplicationSet's YAML does not parse on one side (its comparison is not known),
4 no ApplicationSet on either side in the given paths`;

export async function runDiff(args: string[], io: CliIO): Promise<number> {
  const opts = readCommand('diff', USAGE, args, { values: ['base', 'format', 'output', 'report'] }, io, (p) => {
    const baseRev = p.values.get('base');
    if (!baseRev) throw new UsageError('--base <git revision> is required');
    return {
      baseRev,
      format: choice(p, 'format', ['text', 'markdown', 'json', 'sarif']),
      outFile: p.values.get('output'),
      reportFile: p.values.get('report'),
      inputs: p.positional.length ? p.positional : ['.'],
      settings: settingsFromArgs(p, io.cwd),
    };
  });
  if (typeof opts === 'number') return opts;
  const { baseRev, format, outFile, reportFile, inputs, settings } = opts;
  const root = workTreeRoot(io.cwd);
  if (!root) {
    io.err('appset diff: not inside a git work tree\n');
    return 2;
  }
  const commit = resolveCommit(root, baseRev);
  if (!commit) {
    io.err(oneLine(`appset diff: unknown revision "${baseRev}"`) + '\n');
    return 2;
  }
  const rootPosix = toPosix(fs.realpathSync(root));
  const prefixes = repoPrefixes(rootPosix, inputs, io);
  if (typeof prefixes === 'number') return prefixes;
  const sides = readSides({ rootPosix, commit, baseRev, inputs, prefixes, settings, sarif: format === 'sarif' }, io);
  if (typeof sides === 'number') return sides;
  const { baseSide, headSide, maxDeletes, policy } = sides;
  if (!baseSide.length && !headSide.length) {
    io.err(`appset diff: no ApplicationSet in ${inputs.join(', ')}, in the work tree or at ${baseRev}\n`);
    return 4;
  }
  const report = diffReport(baseRev, 'working tree', baseSide, headSide);
  const output =
    format === 'json'
      ? JSON.stringify(report, null, 2) + '\n'
      : format === 'markdown'
        ? diffMarkdown(report)
        : format === 'sarif'
          ? JSON.stringify(diffSarif(report, headSide), null, 2) + '\n'
          : diffText(report);
  // The comment is cut to fit a pull-request comment; the report file (the CI artifact) holds all of it.
  const writes: [string, string][] = [];
  if (reportFile) writes.push([reportFile, diffMarkdown(report, Infinity)]);
  if (outFile) writes.push([outFile, output]);
  for (const [file, text] of writes) {
    try {
      fs.writeFileSync(path.resolve(io.cwd, file), text);
    } catch (e) {
      io.err(oneLine(`appset diff: cannot write ${file}: ${(e as Error).message}`) + '\n');
      return 2;
    }
  }
  if (!outFile) io.out(output);
  // An ApplicationSet whose YAML does not parse (on either side) was compared as far as it could be
  // read: its comparison is not known, and the gate fails closed (exit 3, as lint's for a document
  // it could not check), whatever the report above says of it.
  const broken = [...baseSide.map((b) => ({ side: baseRev, a: b })), ...headSide.map((h) => ({ side: 'the work tree', a: h }))].filter(
    (x) => x.a.broken,
  );
  for (const { side, a } of broken)
    io.err(
      oneLine(
        `appset diff: ${a.file}: ApplicationSet ${a.name}: the YAML does not parse at ${side} (${a.broken}): its comparison is NOT KNOWN; exit status 3`,
      ) + '\n',
    );
  if (broken.length) return 3;
  let status = 0;
  const deletes = report.summary.deletesResources;
  if (maxDeletes !== undefined && deletes > maxDeletes) {
    io.err(
      `appset diff: ${deletes} removed Application${deletes === 1 ? '' : 's'} would delete ${deletes === 1 ? 'its' : 'their'} resources, more than policy.maxDeletes (${maxDeletes}) in .appset-tools.yaml\n`,
    );
    status = 1;
  }
  // The change gate (policy.maxChangeAtOnce / maxChangeClustersAtOnce), as the editor judges it (features/policy/changeGate.ts).
  for (const d of report.appsets) {
    const head = headSide.find((h) => h.file === d.file.head && h.name === d.name && h.namespace === d.namespace);
    const why = head && changeGateMessage(changeImpact(d, head), policy);
    if (!why) continue;
    io.err(oneLine(`appset diff: ${d.file.head}: ApplicationSet ${d.name}: ${why} in .appset-tools.yaml (policy/change-at-once)`) + '\n');
    status = 1;
  }
  return status;
}

/** The inputs as repository-relative prefixes ('' = everything); exit 2 for one outside the repository. */
function repoPrefixes(rootPosix: string, inputs: string[], io: CliIO): string[] | number {
  const prefixes: string[] = [];
  for (const i of inputs) {
    const abs = toPosix(path.resolve(io.cwd, i));
    const real = fs.existsSync(abs) ? toPosix(fs.realpathSync(abs)) : abs;
    const rel = path.posix.relative(rootPosix, real);
    if (rel.startsWith('..') || path.posix.isAbsolute(rel)) {
      io.err(oneLine(`appset diff: ${i} is outside the repository ${rootPosix}`) + '\n');
      return 2;
    }
    prefixes.push(rel);
  }
  return prefixes;
}

/**
 * Both sides' ApplicationSets under the prefixes: the base revision's, read from git, and the work
 * tree's, with the head's `policy.maxDeletes`. Exit 2 for a path on neither side or a git failure.
 */
function readSides(
  w: {
    rootPosix: string;
    commit: string;
    baseRev: string;
    inputs: string[];
    prefixes: string[];
    settings: Partial<EngineSettings>;
    sarif: boolean;
  },
  io: CliIO,
): { baseSide: SideAppSet[]; headSide: SideAppSet[]; maxDeletes: number | undefined; policy: RepoConfig['policy'] } | number {
  const { rootPosix, commit, baseRev, inputs, prefixes, settings, sarif } = w;
  const under = (rel: string) => prefixes.some((p) => p === '' || rel === p || rel.startsWith(p + '/'));
  try {
    const baseHost = createGitRevisionHost(rootPosix, commit, settings);
    const baseFiles = baseHost
      .files()
      .filter((f) => /\.ya?ml$/i.test(f) && under(f.slice(rootPosix.length + 1)) && !/(^|\/)(node_modules|\.git)\//.test(f));
    // A path that is in neither the work tree nor the base revision is a mistake, not "no changes"
    // (a path only the base has is a deletion, which the report shows).
    const missing = inputs.filter(
      (input, i) =>
        prefixes[i] !== '' &&
        !fs.existsSync(path.resolve(io.cwd, input)) &&
        !baseHost.files().some((f) => f === `${rootPosix}/${prefixes[i]}` || f.startsWith(`${rootPosix}/${prefixes[i]}/`)),
    );
    if (missing.length) {
      for (const m of missing) io.err(`appset diff: ${m}: no such file or folder in the work tree or at ${baseRev}\n`);
      return 2;
    }
    const baseSide = collect(baseHost, baseFiles, rootPosix, (f) => baseHost.readFile(f), false);

    const headHost = createNodeHost([rootPosix, ...extraRoots(settings)], settings);
    // The gate is the repository's own (.appset-tools.yaml at its root, as the head has it).
    const policy = getLanguageService({ host: headHost }).configFor(`${rootPosix}/.appset-tools.yaml`).policy;
    const maxDeletes = policy.maxDeletes;
    const headFiles: string[] = [];
    for (const p of prefixes) {
      const abs = p ? `${rootPosix}/${p}` : rootPosix;
      if (fs.existsSync(abs) && fs.statSync(abs).isFile()) headFiles.push(abs);
      else walkYaml(abs, headFiles);
    }
    // The work tree is read as lint reads it (host/files.ts): regular files inside the repository,
    // size-capped, never blocking; a device, FIFO or link out of the repository is skipped and said.
    const headSide = collect(
      headHost,
      [...new Set(headFiles.map(toPosix))].sort(),
      rootPosix,
      (f) => {
        const r = readTextFileWithin(f, [rootPosix], 'the repository');
        if ('text' in r) return r.text;
        io.err(`appset diff: ${f.slice(rootPosix.length + 1)}: skipped: ${r.skipped}\n`);
        return undefined;
      },
      sarif,
    );
    return { baseSide, headSide, maxDeletes, policy };
  } catch (e) {
    if (e instanceof GitError) {
      io.err(oneLine(`appset diff: git: ${e.message}`) + '\n');
      return 2;
    }
    throw e;
  }
}

/**
 * Checkouts named with `--repo-map` are roots of the work tree side. `--inventory` files are not: the
 * host reads exactly those files (nodeHost.ts `namedPlaces`), and their folders are not scanned (a
 * stray Secret beside an inventory is not a cluster).
 */
function extraRoots(settings: ReturnType<typeof settingsFromArgs>): string[] {
  return Object.values(settings.repoMappings ?? {});
}

/** Analyses the ApplicationSet files of one side (the engine's `appSetSides` reads each file). */
function collect(
  host: EngineHost,
  files: string[],
  root: string,
  read: (f: string) => string | undefined,
  withSites: boolean,
): SideAppSet[] {
  const service: LanguageService = getLanguageService({ host });
  const out: SideAppSet[] = [];
  // One workspace per side: its registered clusters are the same for every ApplicationSet.
  let clusters: SideAppSet['clusters'] | null | undefined;
  for (const f of files) {
    const text = read(f);
    if (text === undefined || !declaresAppSet(text)) continue;
    if (service.isIgnored(f)) continue;
    const sides = appSetSides(service, service.analyze(f, text, f), { root, path: f, text, sites: withSites, clusters });
    if (sides.length) clusters = sides[0].clusters ?? null;
    out.push(...sides);
  }
  return out;
}

export type { DiffReport };
