// A workspace package imports another workspace package only if its package.json lists it in
// `dependencies` (ARCHITECTURE.md, Packages). esbuild refuses an unlisted one as it bundles
// (scripts/arch/packageBoundaries.js, whose reading of the package.json files this rule shares), but tsc
// takes it (npm links every workspace package at the root) and esbuild never sees a type-only import:
// this rule holds the list for both, in the editor and in `npm run lint`. Files of the root package
// (test/, scripts/) are not a workspace package's: test/unit/architecture.test.ts holds what they import.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { workspacePackages, packageName, ownerOf } = require('../scripts/arch/packageBoundaries.js');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default {
  meta: {
    type: 'problem',
    docs: { description: "A workspace package imports only the workspace packages its package.json lists in 'dependencies'." },
    schema: [],
    messages: {
      unlisted:
        '{{from}} imports "{{spec}}", but its package.json does not list {{to}} in "dependencies" (the packages\' layers: ARCHITECTURE.md, Packages).',
    },
  },
  create(context) {
    // Read when a file is linted, so that an edited package.json counts in a running editor too.
    const packages = workspacePackages(ROOT);
    const from = ownerOf(packages, path.resolve(context.filename));
    if (!from) return {};
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string' || source.value.startsWith('.')) return;
      const to = packages.find((k) => k.name === packageName(source.value));
      if (to && to !== from && !from.dependencies.has(to.name))
        context.report({ node: source, messageId: 'unlisted', data: { from: from.name, spec: source.value, to: to.name } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      // import('pkg').Type
      TSImportType: (node) => check(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
      // import x = require('pkg')
      TSExternalModuleReference: (node) => check(node.expression),
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments.length === 1) check(node.arguments[0]);
      },
    };
  },
};
