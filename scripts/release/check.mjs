// `npm run release:check`: everything a release needs, verified without publishing anything (the
// checklist in docs/development.md says what comes after): the versions agree (versions.mjs), the
// bundles build, the npm tarball holds the bundles and no sources and declares no runtime dependency,
// and the VSIX builds with its icon, changelog and README. Exit 0 when ready, 1 with each problem.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { versionProblems } from './versions.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const problems = [];
const step = (what) => process.stdout.write(`release:check ${what}\n`);

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) problems.push(`${cmd} ${args.join(' ')} failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-5).join(' / ')}`);
  return r.status === 0 ? r.stdout : '';
}

step(`versions (package.json ${pkg.version})`);
problems.push(...versionProblems(root));
if (pkg.private) problems.push('package.json: "private" would refuse npm publish');
if (pkg.dependencies && Object.keys(pkg.dependencies).length)
  problems.push(`package.json: runtime dependencies ${Object.keys(pkg.dependencies).join(', ')} (the package ships bundles only)`);

step('bundles');
run('node', ['esbuild.js']);

step('npm tarball contents');
const packed = run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts']);
if (packed) {
  const files = JSON.parse(packed)[0].files.map((f) => f.path);
  for (const f of [
    'dist/cli.js',
    'dist/server.js',
    'dist/lib/cli.js',
    'dist/lib/server.js',
    'package.json',
    'README.md',
    'LICENSE',
    'CHANGELOG.md',
  ])
    if (!files.includes(f)) problems.push(`npm tarball: ${f} missing`);
  for (const f of files.filter((f) => /\.(ts|map)$/.test(f) || /^(server|client|test)\//.test(f)))
    problems.push(`npm tarball: ${f} should not ship`);
  for (const bin of Object.values(pkg.bin)) if (!files.includes(bin.replace(/^\.\//, ''))) problems.push(`npm tarball: bin ${bin} missing`);
}

step('VSIX');
const vsix = path.join(root, 'dist', 'appset-tools.vsix');
if (run('npm', ['run', 'package', '--silent'])) {
  const entries = run('unzip', ['-Z1', vsix]).split('\n');
  for (const f of [
    'extension/package.json',
    'extension/dist/extension.js',
    'extension/dist/server.js',
    'extension/dist/web/extension.js',
    'extension/dist/web/server.js',
    'extension/readme.md',
    'extension/changelog.md',
    `extension/${pkg.icon}`,
  ])
    if (!entries.includes(f)) problems.push(`VSIX: ${f} missing`);
  const manifest = run('unzip', ['-p', vsix, 'extension/package.json']);
  if (manifest && JSON.parse(manifest).version !== pkg.version)
    problems.push(`VSIX: version ${JSON.parse(manifest).version}, package.json says ${pkg.version}`);
}

if (problems.length) {
  process.stdout.write(`\nnot ready to release ${pkg.version}:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(1);
}
process.stdout.write(
  `\nready to release ${pkg.version}: tag v${pkg.version}, npm publish, then the VSIX (${path.relative(root, vsix)}) to the Marketplace and Open VSX (docs/development.md, "Releasing")\n`,
);
