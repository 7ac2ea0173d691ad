/**
 * Starts a bundle (`dist/lib/server.js`, `dist/lib/cli.js`) through V8's code cache: `dist/server.js`
 * and `dist/cli.js` are small loaders built from this file; the bundles load the schema validators
 * (`dist/validators/`) the same way (`requireCached`). The first run compiles the bundle as Node
 * would and, once its first answer has run (at exit, or for the language server at its first idle
 * second after SAVE_AFTER_MS),
 * stores the compiled code — the functions that answer included, not only the top level — in the
 * cache folder (`code/`, see cacheDir.ts); later runs skip most of the compiling. A cache from another
 * build, Node version or V8 flags (heapFlags.ts keeps the server's own out of it) is refused by V8 or never looked up (the file name holds the bundle's
 * size and mtime, Node's version and the architecture) and then written again. `APPSET_CACHE_DIR=off`
 * and the CLI's `--no-cache` turn it off; any failure only costs the compile.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { performance } from 'node:perf_hooks';
import Module from 'node:module';
import { cacheDir } from './cacheDir';
import { everyPeriod } from './idle';
import { withStartFlags } from './heapFlags';

const SAVE_AFTER_MS = 5000;

/**
 * Growth of V8's bytecode since a bundle was started from its cache that makes the session write the cache
 * again (once). A cache holds what its writing session had compiled: one written by a session that opened
 * only a plain YAML file (the extension starts on any YAML file) lacked the engine's analysis, expansion and
 * findings, and every later first answer on an ApplicationSet compiled them (the 1 KiB document: 30 instead
 * of 19 ms of CPU, issue 39), until the next build. Such a session grew the bytecode by about 160 KiB; one
 * whose cache held its code, by less than nothing once collected.
 */
export const REWRITE_GROWTH_BYTES = 64 * 1024;

export function runBundle(name: string, mod: NodeJS.Module, req: NodeJS.Require, filename: string, dirname: string): void {
  runCached(name, path.join(dirname, 'lib', `${name}.js`), mod, req, filename, dirname, true);
}

/**
 * `require(file)` through the code cache (entry `name`): the schema validators that the bundles load on
 * first use (esbuild.js), whose compiling would otherwise sit in front of every start's first answer.
 */
export function requireCached(name: string, file: string): unknown {
  const mod = { exports: {} } as NodeJS.Module;
  // Its `require`, made on the module's first call: the validators call none (ajv's runtime helpers are bundled
  // in), and Node's `createRequire` ran for the first time in the process here, in front of the first answer.
  let made: NodeJS.Require | undefined;
  const req = ((id: string): unknown => (made ??= Module.createRequire(file))(id)) as NodeJS.Require;
  runCached(name, file, mod, req, file, path.dirname(file));
  return mod.exports;
}

/**
 * Runs the CommonJS file `bundle` as the module `mod` (its wrapper's arguments given) through V8's code cache;
 * with `rewriteWhenGrown`, a cache it was started from is written again once the session has compiled much
 * more (REWRITE_GROWTH_BYTES; the process's bytecode, so only for the one bundle a process starts from).
 */
function runCached(
  name: string,
  bundle: string,
  mod: NodeJS.Module,
  req: NodeJS.Require,
  filename: string,
  dirname: string,
  rewriteWhenGrown = false,
): void {
  const source = fs.readFileSync(bundle, 'utf8');
  const file = cacheFile(name, bundle);
  let cached: Buffer | undefined;
  try {
    if (file) cached = fs.readFileSync(file);
  } catch {
    cached = undefined;
  }
  // Checked and written under the flags V8 started with (heapFlags.ts: the server's heap growth is set
  // once its bundle has run).
  const script = withStartFlags(() => new vm.Script(Module.wrap(source), { filename: bundle, cachedData: cached }));
  const accepted = !!cached && !script.cachedDataRejected;
  if (file && !accepted) {
    let saved = false;
    const save = (): boolean => {
      if (!saved) write(name, file, script);
      saved = true;
      return true;
    };
    process.once('exit', save);
    saveWhenIdle(save);
  }
  // A bundle runs as the loader's module: `require.main === module`, `__dirname` is `dist/` (validators/).
  (script.runInThisContext() as (...a: unknown[]) => void).call(mod.exports, mod.exports, req, mod, filename, dirname);
  if (file && accepted && rewriteWhenGrown) rewriteWhenGrownBy(REWRITE_GROWTH_BYTES, name, file, script);
}

/** Writes `script`'s compiled code as the cache `file` of `name`; any failure only costs the next run its compile. */
function write(name: string, file: string, script: vm.Script): void {
  try {
    const data = withStartFlags(() => script.createCachedData());
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true });
    // Older builds' caches of this bundle go; a temporary name keeps concurrent writers apart.
    for (const old of fs.readdirSync(dir)) if (old.startsWith(`${name}-`)) fs.rmSync(path.join(dir, old), { force: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, data);
    fs.renameSync(tmp, file);
  } catch {
    /* a read-only or missing cache folder: the next run compiles again */
  }
}

const bytecodeBytes = (): number => v8.getHeapCodeStatistics().bytecode_and_metadata_size;

/**
 * The cache `file` that `script` was started from is written again, once, when V8's bytecode has grown by
 * `growth` since (see REWRITE_GROWTH_BYTES): looked at in idle periods after SAVE_AFTER_MS and at exit, as
 * the first writing is.
 */
function rewriteWhenGrownBy(growth: number, name: string, file: string, script: vm.Script): void {
  const start = bytecodeBytes();
  let done = false;
  const check = (): boolean => {
    if (!done && bytecodeBytes() - start >= growth) {
      done = true;
      write(name, file, script);
    }
    return done;
  };
  process.once('exit', check);
  saveWhenIdle(check);
}

/**
 * Writing the cache serializes every compiled function of the bundle: a few hundred milliseconds on
 * the main thread. The language server does it once it has run for SAVE_AFTER_MS (its first answers
 * compiled) and then sits idle for a whole second, never in the middle of a burst of requests.
 */
function saveWhenIdle(save: () => boolean): void {
  const started = performance.now();
  everyPeriod(1000, (idle) => {
    if (!idle || performance.now() - started < SAVE_AFTER_MS) return false;
    // Looked at again in the next idle period until it says it is done (a cache to write again only once
    // it has grown: see REWRITE_GROWTH_BYTES).
    return save();
  });
}

function cacheFile(name: string, bundle: string): string | undefined {
  if (process.argv.includes('--no-cache')) return undefined;
  const dir = cacheDir();
  if (!dir) return undefined;
  try {
    const st = fs.statSync(bundle);
    return path.join(dir, 'code', `${name}-${st.size}-${Math.round(st.mtimeMs)}-${process.version}-${process.arch}.bin`);
  } catch {
    return undefined;
  }
}
