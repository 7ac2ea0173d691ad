#!/usr/bin/env node
/**
 * Runs the held-out evaluation (docs/evaluation.md): lints every selected file of one half inside its
 * repository, as a user would in CI (cwd = the repository's root, `node dist/cli.js lint <file>
 * --format json --workspace .`), and compares every error and warning with test/data/evaluation/classification.json.
 * Needs the repositories on disk (fetched, never committed) and a built dist/ (`node esbuild.js`).
 *
 *   node scripts/eval/run.mjs --repos /tmp/eval/repos --half dev|held-out|all [--jobs 2]
 *        [--out results.json] [--list] [--timeout 120] [--repositories repositories.json] [--cli dist/cli.js]
 *
 * Exit status: 0 the goal holds for the half (no false error, ≤1% of files with a false warning,
 * nothing unclassified, no crash), 1 it does not, 2 bad usage.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { byCode, compare, percent } from './compare.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const data = join(root, 'test', 'data', 'evaluation');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
}
const reposDir = resolve(arg('--repos', '/tmp/eval/repos'));
const half = arg('--half', 'dev');
const jobs = Math.max(1, Number(arg('--jobs', '2')));
const timeoutMs = 1000 * Number(arg('--timeout', '120'));
const outFile = arg('--out', '');
const list = process.argv.includes('--list');
// --cli runs another build (a copy of dist/ kept as the "before" of a comparison, docs/evaluation.md).
const cli = resolve(arg('--cli', join(root, 'dist', 'cli.js')));

if (!['dev', 'held-out', 'all'].includes(half)) {
  console.error('--half must be dev, held-out or all');
  process.exit(2);
}
if (!existsSync(cli)) {
  console.error(`${cli} is missing: run node esbuild.js first`);
  process.exit(2);
}
// Another list (a fresh set collected later, docs/evaluation.md) may be given instead of the committed one.
const { repositories } = JSON.parse(readFileSync(resolve(arg('--repositories', join(data, 'repositories.json'))), 'utf8'));
const classification = JSON.parse(readFileSync(join(data, 'classification.json'), 'utf8'));

/** One lint of one file inside its repository: the JSON report's errors and warnings, or why not. */
function lintOne(repo, file) {
  const cwd = join(reposDir, repo.replace('/', '+'));
  return new Promise((done) => {
    if (!existsSync(join(cwd, file))) return done({ status: 'crash', detail: 'file missing: fetch the repository' });
    // The repository's root is the workspace, as a git checkout's is for the CLI (the checkouts here may
    // come without `.git`; without it the CLI would take the file's own folder as the workspace and not
    // see the chart, cluster Secrets or Argo CD configuration beside it).
    const child = spawn(process.execPath, [cli, 'lint', file, '--format', 'json', '--workspace', '.'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal) return done({ status: 'timeout', detail: `killed after ${timeoutMs / 1000} s` });
      let report;
      try {
        report = JSON.parse(out);
      } catch {
        return done({ status: 'crash', detail: `exit ${code}: ${err.trim().split('\n')[0] ?? ''}` });
      }
      // Exit 0/1 (findings) and 4 (no ApplicationSet found) are answers; 2 and 3 mean the file was not checked.
      if (code !== 0 && code !== 1 && code !== 4)
        return done({ status: 'crash', detail: `exit ${code}: ${report.problems?.map((p) => p.message).join('; ') || err.trim()}` });
      // A limit's note (`appset lint: note: …`, docs/limits.md) is an answer too; anything else on stderr is not.
      const stray = err
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('appset lint: note: '))
        .join('\n');
      if (stray) return done({ status: 'crash', detail: `stderr: ${stray.split('\n')[0]}` });
      const findings = report.files
        .flatMap((f) => f.diagnostics)
        .filter((d) => !d.suppressed)
        .map((d) => ({ severity: d.severity, code: d.code, fingerprint: d.fingerprint, line: d.line, message: d.message }));
      done({ status: 'ok', exit: code, applicationSets: report.summary.applicationSets, findings });
    });
  });
}

async function runHalf(h) {
  const work = repositories
    .filter((r) => r.half === h)
    .flatMap((r) => r.files.map((f) => ({ repo: r.repo, file: f.path, style: f.style })));
  const outcomes = new Array(work.length);
  let next = 0;
  async function worker() {
    while (next < work.length) {
      const i = next++;
      outcomes[i] = { ...work[i], ...(await lintOne(work[i].repo, work[i].file)) };
    }
  }
  await Promise.all(Array.from({ length: jobs }, worker));
  return outcomes;
}

// A checkout without `.git` (made with `git archive`) has no origin remote: every git generator that
// points at its own repository is then "no local checkout" and goes unevaluated, unlike in a user's CI.
const noGit = [...new Set(repositories.map((r) => r.repo))].filter(
  (r) => existsSync(join(reposDir, r.replace('/', '+'))) && !existsSync(join(reposDir, r.replace('/', '+'), '.git')),
);
if (noGit.length)
  console.log(
    `note: ${noGit.length} checkouts have no .git (no origin remote): their git generators are not evaluated (docs/evaluation.md)`,
  );

let failed = false;
const saved = {};
for (const h of half === 'all' ? ['dev', 'held-out'] : [half]) {
  const outcomes = await runHalf(h);
  saved[h] = outcomes;
  const r = compare(outcomes, classification);
  const repos = new Set(outcomes.map((o) => o.repo)).size;
  console.log(`== ${h}: ${r.files} files from ${repos} repositories`);
  console.log(
    `files with a false error:   ${r.filesWithFalseError} (${percent(r.filesWithFalseError, r.files)})${r.falseErrors.length ? ' — ' + byCode(r.falseErrors) : ''}`,
  );
  console.log(
    `files with a false warning: ${r.filesWithFalseWarning} (${percent(r.filesWithFalseWarning, r.files)})${r.falseWarnings.length ? ' — ' + byCode(r.falseWarnings) : ''}`,
  );
  console.log(`true errors and warnings:   ${r.trueFindings.length}${r.trueFindings.length ? ' — ' + byCode(r.trueFindings) : ''}`);
  console.log(`unclassified findings:      ${r.unclassified.length}${r.unclassified.length ? ' — ' + byCode(r.unclassified) : ''}`);
  console.log(`crashes and timeouts:       ${r.crashes.length}`);
  for (const c of r.crashes) console.log(`  ${c.status} ${c.repo} ${c.file}: ${c.detail}`);
  if (list)
    for (const u of r.unclassified)
      console.log(`  ? ${u.repo} ${u.file}:${u.line} ${u.severity} ${u.code} ${u.fingerprint} ${u.message.split('\n')[0]}`);
  const goal =
    r.filesWithFalseError === 0 && r.filesWithFalseWarning <= 0.01 * r.files && r.unclassified.length === 0 && r.crashes.length === 0;
  console.log(`goal (no false error, ≤1% false warnings, all classified, no crash): ${goal ? 'met' : 'NOT met'}`);
  failed ||= !goal;
}
if (outFile) writeFileSync(outFile, JSON.stringify(saved, null, 2) + '\n');
process.exit(failed ? 1 : 0);
