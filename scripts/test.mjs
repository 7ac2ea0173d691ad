// `npm test`: type-check (everything as one program, then each workspace package on its own), lint (ESLint with the architecture's import zones), formatting (Prettier), build, then every suite. Exits non-zero if any step fails.
// Suites: test/unit and test/lsp (node's test runner, TypeScript through tsx), test/vscode (the
// extension inside a real VS Code, see test/vscode/README.md). Set APPSET_SKIP_VSCODE=1 to skip
// the last one locally (CI never sets it).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
function run(cmd, args, opts = {}) {
  const t = Date.now();
  console.log(`\n> ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  console.log(`  (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  if (r.status !== 0) {
    console.error(`step failed: ${cmd} ${args.join(' ')} (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}
function testFiles(dir) {
  return readdirSync(join(root, dir), { recursive: true })
    .filter((rel) => rel.endsWith('.test.ts'))
    .map((rel) => join(root, dir, rel))
    .sort();
}

run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
// The workspace packages one by one, each seeing the others only as its tsconfig.json references them.
run('npx', ['tsc', '-b', 'tsconfig.packages.json']);
run('npx', ['eslint', 'server/src', 'client/src', 'test', 'scripts', 'eslint-rules']);
run('npm', ['run', '--silent', 'format:check']);
run('node', ['esbuild.js']);
run('node', [
  '--import',
  'tsx',
  '--test',
  '--test-concurrency=2',
  ...testFiles('test/unit'),
  ...testFiles('test/gotemplate'),
  ...testFiles('test/lsp'),
]);
if (process.env.APPSET_SKIP_VSCODE !== '1') run('node', ['test/vscode/runTest.mjs']);
