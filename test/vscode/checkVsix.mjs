// Packages the extension with `npm run package` (vsce, offline) and installs the VSIX into
// code-server with `--install-extension`, the way a user installs it, then checks what landed:
// the identity VS Code reports and the files the extension needs at run time. Returns a list of
// problems (empty when all is well). Runnable alone: node test/vscode/checkVsix.mjs
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// What must be inside the installed extension, and what must not (sources, dependencies: the
// bundles are self-contained).
// vsce stores README.md as readme.md and LICENSE as LICENSE.txt, hence the alternatives.
const REQUIRED = [
  ['package.json'],
  ['readme.md', 'README.md'],
  ['LICENSE.txt', 'LICENSE'],
  ['changelog.md', 'CHANGELOG.md'],
  ['images/icon.png'],
  ['dist/extension.js'],
  ['dist/server.js'],
  ['dist/cli.js'],
  ['dist/lib/server.js'],
  ['dist/lib/cli.js'],
  // VS Code for the Web (package.json `browser`): the client and the language server's worker.
  ['dist/web/extension.js'],
  ['dist/web/server.js'],
];
const FORBIDDEN = ['node_modules', 'client', 'server', 'test', '.tools'];
const MAX_FILES = 40;

function listFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((p) => !statSync(join(dir, p)).isDirectory())
    .sort();
}

// Like spawnSync, but lets the caller run the extension tests meanwhile.
function run(cmd, args, opts) {
  return new Promise((res) => {
    execFile(cmd, args, { encoding: 'utf8', maxBuffer: 16 << 20, ...opts }, (err, stdout, stderr) => {
      res({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, signal: err?.signal, stdout, stderr });
    });
  });
}

export async function checkVsix({ repoRoot, codeServer, workDir }) {
  const problems = [];
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const id = `${pkg.publisher}.${pkg.name}`;
  const vsix = join(repoRoot, 'dist', 'appset-tools.vsix');

  rmSync(vsix, { force: true });
  let t = Date.now();
  const pack = await run('npm', ['run', 'package', '--silent'], { cwd: repoRoot });
  if (pack.status !== 0 || !existsSync(vsix)) {
    return [`npm run package failed (exit ${pack.status}):\n${pack.stdout}\n${pack.stderr}`];
  }
  console.log(`[vsix] packaged ${relative(repoRoot, vsix)} (${statSync(vsix).size} bytes) in ${Date.now() - t} ms`);

  rmSync(workDir, { recursive: true, force: true });
  const d = { home: join(workDir, 'home'), tmp: join(workDir, 'tmp'), ud: join(workDir, 'user-data'), ext: join(workDir, 'extensions') };
  for (const p of Object.values(d)) mkdirSync(p, { recursive: true });
  const cs = (...args) =>
    run(codeServer.node, [codeServer.entry, '--user-data-dir', d.ud, '--extensions-dir', d.ext, ...args], {
      env: { ...process.env, HOME: d.home, TMPDIR: d.tmp },
      timeout: 60_000,
    });

  t = Date.now();
  const inst = await cs('--install-extension', vsix);
  if (inst.status !== 0)
    return [`code-server --install-extension failed (exit ${inst.status ?? inst.signal}):\n${inst.stdout}\n${inst.stderr}`];
  const list = await cs('--list-extensions', '--show-versions');
  const listed = list.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (!listed.includes(`${id}@${pkg.version}`))
    problems.push(`--list-extensions shows ${JSON.stringify(listed)}, expected ${id}@${pkg.version}`);
  console.log(`[vsix] installed into code-server in ${Date.now() - t} ms: ${listed.join(', ')}`);

  const installed = join(d.ext, `${id}-${pkg.version}`);
  if (!existsSync(installed)) return [...problems, `no folder ${installed} after install`];
  const files = listFiles(installed).filter((f) => f !== '.vsixmanifest');
  for (const names of REQUIRED) if (!names.some((f) => files.includes(f))) problems.push(`the VSIX lacks ${names.join(' / ')}`);
  for (const f of files) if (FORBIDDEN.some((x) => f === x || f.startsWith(`${x}/`))) problems.push(`the VSIX should not ship ${f}`);
  if (files.length > MAX_FILES) problems.push(`the VSIX has ${files.length} files (more than ${MAX_FILES}): ${files.join(', ')}`);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
  for (const entry of ['main', 'browser'])
    if (!manifest[entry] || !existsSync(join(installed, manifest[entry])))
      problems.push(`package.json ${entry} ${manifest[entry]} is not in the VSIX`);
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { ensureCodeServer } = await import('./install-code-server.mjs');
  const here = dirname(fileURLToPath(import.meta.url));
  const problems = await checkVsix({
    repoRoot: resolve(here, '..', '..'),
    codeServer: ensureCodeServer(),
    workDir: join(here, '.tmp', 'vsix'),
  });
  if (problems.length) {
    console.error(`VSIX check FAILED:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log('VSIX check passed');
}
