// The workspace packages' boundaries at build time, as an esbuild plugin (esbuild.js uses it in every
// bundle; test/unit/architecture-rules.test.ts plants breaks through it).
//
// esbuild itself holds the doors: a package is imported by its name, and a name past its `exports`
// map (`@appset-tools/engine/validate/checks`) does not resolve. What a name cannot hold, this plugin
// does, from the package.json files (never from the source text):
// - a relative path from one workspace package into another (`../engine/validate/checks` from the
//   server) is refused: the path walks around the door;
// - a package imports another workspace package only if its package.json lists it in `dependencies`
//   (npm links every workspace package at the root, so Node would find an unlisted one too). tsc takes
//   such an import, and esbuild never sees a type-only one: the lint rule
//   eslint-rules/listedDependencies.mjs holds the same list in the editor and in `npm run lint`.
// Files outside the workspace packages (the root package: test/, scripts/, the loaders) are the harness
// that builds, tests and measures the packages and are not checked here; test/unit/architecture.test.ts
// holds what tests may import.
const fs = require('fs');
const path = require('path');

/** The workspace packages of the repository at `root`: folder (absolute), name, dependencies. */
function workspacePackages(root) {
  const rootPkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return (rootPkg.workspaces ?? []).map((dir) => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, dir, 'package.json'), 'utf8'));
    return { dir: path.join(root, dir), name: pkg.name, dependencies: new Set(Object.keys(pkg.dependencies ?? {})) };
  });
}

/** The name of the package an import specifier names (`@scope/name/sub` is `@scope/name`). */
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');

/** The package of `packages` holding a file (absolute): the deepest package folder it is in (undefined: the root package). */
const ownerOf = (packages, file) =>
  packages.filter((k) => file === k.dir || file.startsWith(k.dir + path.sep)).sort((a, b) => b.dir.length - a.dir.length)[0];

function packageBoundaries(root) {
  const packages = workspacePackages(root);
  const owner = (file) => ownerOf(packages, file);
  return {
    name: 'package-boundaries',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (!args.importer || args.namespace !== 'file') return undefined;
        const from = owner(args.importer);
        if (!from) return undefined;
        if (args.path.startsWith('.')) {
          const to = owner(path.resolve(args.resolveDir, args.path));
          if (to && to !== from)
            return {
              errors: [
                {
                  text: `${from.name} reaches into ${to.name} by a relative path ("${args.path}"): import "${to.name}" (its door, package.json "exports") instead`,
                },
              ],
            };
          return undefined;
        }
        const to = packages.find((k) => k.name === packageName(args.path));
        if (to && to !== from && !from.dependencies.has(to.name))
          return {
            errors: [
              {
                text: `${from.name} imports "${args.path}" but its package.json does not list ${to.name} in "dependencies" (the packages' layers: ARCHITECTURE.md)`,
              },
            ],
          };
        return undefined;
      });
    },
  };
}

module.exports = { packageBoundaries, workspacePackages, packageName, ownerOf };
