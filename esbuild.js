// Bundles the three entry points. The engine is shared by the server and the CLI; the client
// only talks to the server, so it never pulls the engine into the extension host.
const esbuild = require('esbuild');
const path = require('path');

const watch = process.argv.includes('--watch');
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  absWorkingDir: __dirname,
};

const builds = [
  { entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' },
  { entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
];

async function main() {
  if (watch) {
    for (const b of builds) (await esbuild.context({ ...common, ...b })).watch();
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build({ ...common, ...b })));
  require('fs').chmodSync(path.join(__dirname, 'dist/cli.js'), 0o755);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
