/**
 * `appset instances [paths…]`: the repository's Argo CD installs as the engine models them (install
 * model, engine/install/): each install's namespaces, version, progressive syncs and other controller
 * settings, the files and lines that say so, and the ApplicationSets found under the paths it runs.
 */
import type { CliIO } from './io';
import { getLanguageService, installReportLines, looksLikeAppSet } from '@appset-tools/engine';
import { collectInputs, readInput } from './inputs';
import { INSTANCE_USAGE, VERSION_USAGE, choice, engineArgs, hostForInputs, instanceProblem, readCommand, toPosix } from './common';

const USAGE = `usage: appset instances [files or folders…] [options]

Lists the Argo CD installs the repository defines, as lint, plan, render and diff see them: for each
install its namespaces, version (and how it is known), progressive syncs and the other controller
settings that change what the ApplicationSet controller does (new git file globbing, policy, SCM
providers, namespaces), the files and lines that say so, and the ApplicationSets under the given paths
(default: the current folder) that it runs, with why.

options:
  --output text|json           output format (default text)
${INSTANCE_USAGE}
${VERSION_USAGE}

exit status: 0 listed, 2 bad usage or a path that does not exist`;

export async function runInstances(args: string[], io: CliIO): Promise<number> {
  const opts = readCommand('instances', USAGE, args, { values: ['output'], instance: true }, io, (p) => ({
    ...engineArgs(p, io.cwd, true),
    output: choice(p, 'output', ['text', 'json']),
    inputs: p.positional.length ? p.positional : ['.'],
  }));
  if (typeof opts === 'number') return opts;
  const { output, inputs, settings, workspace } = opts;
  const { files, missing } = collectInputs('instances', inputs, io);
  if (missing.length) {
    io.err(`appset instances: ${missing[0].input}: no such file or folder\n`);
    return 2;
  }
  const service = getLanguageService({ host: hostForInputs(inputs, io.cwd, settings, workspace) });
  const appsets: { path: string; namespace?: string }[] = [];
  let problem: string | undefined;
  for (const f of files) {
    const read = readInput(f);
    if (!('text' in read) || !looksLikeAppSet(read.text)) continue;
    const posix = toPosix(f.abs);
    const a = service.analyze(posix, read.text, posix);
    const found = service.appsets(a);
    for (const x of found) {
      const namespace = x.namespace || undefined;
      if (!appsets.some((x) => x.path === posix && x.namespace === namespace)) appsets.push({ path: posix, namespace });
    }
    if (found.length) problem ??= instanceProblem(service.settings(a), service.roots()) ?? '';
    service.forget(posix);
  }
  if (problem) {
    io.err(`appset instances: ${problem}\n`);
    return 2;
  }
  const report = service.installReport(appsets);
  if (output === 'json') io.out(JSON.stringify({ version: 1, ...report }, null, 2) + '\n');
  else io.out(installReportLines(report).join('\n') + '\n');
  return 0;
}
