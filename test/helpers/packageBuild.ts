/**
 * What the build says of a source text planted in a workspace package: the errors of its TypeScript
 * project (the package's tsconfig.json, with the references it names, as `tsc -b tsconfig.packages.json`
 * checks it) and of esbuild (the package resolution and the package-boundaries plugin of esbuild.js).
 * Nothing is written: the planted texts live in memory, at the paths they are planted at.
 * test/unit/architecture-rules.test.ts plants the breaks of the packages' boundaries through these.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { repoRoot } from './cli';

// esbuild.js's plugin, as the bundles use it (a CommonJS module of the build).
const { packageBoundaries } = require(join(repoRoot, 'scripts/arch/packageBoundaries.js')) as {
  packageBoundaries: (root: string) => esbuild.Plugin;
};

const WORKSPACES: string[] = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).workspaces;
/** The workspace package folder (repo-relative) holding a repo-relative file: the deepest one. */
export const packageOf = (file: string) =>
  WORKSPACES.filter((d) => file.startsWith(d + '/')).sort((a, b) => b.length - a.length)[0] as string | undefined;

/** Builds the packages' declarations that a project sees of the projects it references (incremental). */
export function buildPackages(): void {
  const r = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.packages.json'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`tsc -b tsconfig.packages.json failed:\n${r.stdout}${r.stderr}`);
}

/**
 * TypeScript's errors for each planted text (repo-relative file → text), each text checked in the
 * project of the package it is planted in, beside that project's own files. Call buildPackages() first.
 */
export function tscErrors(plants: Map<string, string>): Map<string, string[]> {
  const byPackage = new Map<string, string[]>();
  for (const file of plants.keys()) {
    const pkg = packageOf(file);
    if (!pkg) throw new Error(`${file} is in no workspace package`);
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), file]);
  }
  const out = new Map<string, string[]>();
  for (const [pkg, files] of byPackage) {
    const texts = new Map(files.map((f) => [resolve(repoRoot, f), plants.get(f)!]));
    const parsed = ts.getParsedCommandLineOfConfigFile(
      join(repoRoot, pkg, 'tsconfig.json'),
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    )!;
    const host = ts.createCompilerHost(parsed.options);
    const { getSourceFile, fileExists, readFile } = host;
    host.getSourceFile = (f, lang, ...rest) =>
      texts.has(resolve(f)) ? ts.createSourceFile(f, texts.get(resolve(f))!, lang) : getSourceFile.call(host, f, lang, ...rest);
    host.fileExists = (f) => texts.has(resolve(f)) || fileExists.call(host, f);
    host.readFile = (f) => texts.get(resolve(f)) ?? readFile.call(host, f);
    const program = ts.createProgram({
      rootNames: [...parsed.fileNames, ...texts.keys()],
      options: parsed.options,
      projectReferences: parsed.projectReferences,
      host,
    });
    const general = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
    for (const file of files) {
      const sf = program.getSourceFile(resolve(repoRoot, file))!;
      const diagnostics = [
        ...program.getSyntacticDiagnostics(sf),
        ...program.getSemanticDiagnostics(sf),
        ...general.filter((d) => d.file === sf),
      ];
      out.set(
        file,
        diagnostics.map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`),
      );
    }
  }
  return out;
}

/**
 * esbuild's errors for a text planted at `file`, bundled as esbuild.js bundles (its package-boundaries
 * plugin, esbuild's own package resolution and `exports` maps); what the text imports is resolved,
 * then left out of the bundle.
 */
export async function esbuildErrors(file: string, text: string): Promise<string[]> {
  const abs = resolve(repoRoot, file);
  const planted: esbuild.Plugin = {
    name: 'planted',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind === 'entry-point') return { path: abs };
        if (args.pluginData === 'planted') return undefined;
        const r = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'planted',
        });
        return r.errors.length ? { errors: r.errors } : { path: r.path, external: true };
      });
      b.onLoad({ filter: /.*/ }, (args) => (args.path === abs ? { contents: text, loader: 'ts', resolveDir: dirname(abs) } : undefined));
    },
  };
  try {
    await esbuild.build({
      entryPoints: [abs],
      absWorkingDir: repoRoot,
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      logLevel: 'silent',
      plugins: [packageBoundaries(repoRoot), planted],
    });
    return [];
  } catch (e) {
    return ((e as esbuild.BuildFailure).errors ?? [{ text: String(e) }]).map((m) => m.text);
  }
}
