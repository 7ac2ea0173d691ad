/**
 * `appset render <file>`: the Applications each ApplicationSet in a file generates, offline — like
 * `argocd appset generate`, but without a server: clusters come from the workspace inventory and git
 * generators read the local checkout.
 */
import type { CliIO } from './io';
import {
  LineMap,
  loadOneFile,
  formatDiagnostic,
  INPUT_USAGE,
  VERSION_USAGE,
  engineArgs,
  sortDiagnostics,
  readCommand,
  choice,
  onlyFile,
} from './common';
import { compareGoStrings } from '@appset-tools/engine';

const USAGE = `usage: appset render <file> [options]

Prints the Applications that the ApplicationSets in the file generate, as the Argo CD ApplicationSet
controller would create them (sorted by name). Generator and template errors are printed to stderr.

options:
  --output yaml|json           output format (default yaml)
${INPUT_USAGE}
  --max-apps N                 stop after N Applications
${VERSION_USAGE}
  --new-git-globbing           git file generators use the new globbing
  --no-limits                  lift the template work, step, output and slow-function budgets

exit status: 0 rendered, 1 the file has errors (YAML, schema) or the controller would fail (generator or template
errors) or skip Applications,
2 bad usage or unreadable file, 3 a document could not be checked (a limit), 4 no ApplicationSet`;

export async function runRender(args: string[], io: CliIO): Promise<number> {
  const opts = readCommand('render', USAGE, args, { values: ['output'] }, io, (p) => ({
    output: choice(p, 'output', ['yaml', 'json']),
    file: onlyFile(p),
    ...engineArgs(p, io.cwd),
  }));
  if (typeof opts === 'number') return opts;
  const { output, file, settings, workspace } = opts;
  const loaded = loadOneFile('render', file, io, settings, workspace);
  if (typeof loaded === 'number') return loaded;
  const { text, service, analysis } = loaded;
  const lines = new LineMap(text);
  let failed = false;
  const json: unknown[] = [];
  const docs: string[] = [];
  // YAML and schema errors of the file fail the render too (the controller would not accept it).
  const said = new Set<string>();
  const appsets = service.appsets(analysis).map((x) => ({ ...x, exp: service.applications(analysis, x.span.start)! }));
  for (const { exp } of appsets) for (const p of exp.problems) said.add(`${p.code}@${p.span?.start}`);
  for (const d of sortDiagnostics(service.diagnostics(analysis))) {
    if (d.severity !== 'error' || said.has(`${d.code}@${d.span.start}`)) continue;
    failed = true;
    io.err(formatDiagnostic(file, lines, d) + '\n');
  }
  for (const { exp, ...x } of appsets) {
    for (const d of sortDiagnostics(
      exp.problems.map((p) => ({
        code: p.code,
        severity: p.severity,
        message: p.message,
        span: p.span ?? { start: x.span.start, end: x.span.start },
      })),
    )) {
      if (d.severity === 'error') failed = true;
      io.err(formatDiagnostic(file, lines, d) + '\n');
    }
    for (const a of exp.apps) if (a.invalid?.length) failed = true;
    if (output === 'json') {
      json.push({
        applicationSet: x.name,
        exact: exp.exact,
        notes: exp.notes,
        applications: [...exp.apps]
          .sort((a, b) => compareGoStrings(a.name, b.name))
          .map((a) => (a.invalid ? { ...a.app, 'x-skipped-by-controller': a.invalid.map((m) => m.message) } : a.app)),
      });
    } else docs.push(service.preview(analysis, x.span.start, { lineSafe: true })?.yaml ?? '');
  }
  io.out(output === 'json' ? JSON.stringify(json.length === 1 ? json[0] : json, null, 2) + '\n' : docs.join(''));
  return failed ? 1 : 0;
}
