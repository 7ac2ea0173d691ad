/**
 * The docs' Helix setup, checked as far as no Helix can run it here: Debian 12 (what .ci/run runs on)
 * packages no Helix, Debian 13's `hx` 25.01 needs glibc 2.39 (Debian 12 has 2.36), and npm holds no
 * Helix binary. So the languages.toml block of docs/editors.md is parsed by a real TOML parser
 * (Python's tomllib), its keys are the ones Helix reads, and the server is started with the block's
 * command and arguments and sent what Helix sends: `config` as initializationOptions and as the answer
 * to workspace/configuration, no workspace when Helix is started outside the repository (from ~), and
 * `:lsp-workspace-command <command>` without arguments (Helix before 25.07 sends none).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ConfigurationRequest,
  DidOpenTextDocumentNotification,
  ExecuteCommandRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShowMessageNotification,
  type Diagnostic,
} from 'vscode-languageserver-protocol/node';
import { until as untilValue } from '../helpers/guard';
import { repoRoot, serverPath, spawnStdio, stopStdio } from './client';
import { readmeBlock, writeRepository } from './editors';

const SECTION = 'Helix 23.10 or later';

/** Waits (within the hang guard) until `ok()` holds. */
const until = (ok: () => boolean | undefined, what: string) =>
  untilValue(
    () => !!ok(),
    (v) => v,
    () => what,
  );

/** The TOML block parsed by Python's tomllib (a TOML 1.0 parser), or why it cannot be. */
function parseToml(text: string): Record<string, any> | string {
  const r = spawnSync('python3', ['-c', 'import sys, json, tomllib; print(json.dumps(tomllib.loads(sys.stdin.read())))'], {
    input: text,
    encoding: 'utf8',
  });
  if (r.error || (r.status !== 0 && /No module named 'tomllib'/.test(r.stderr)))
    return 'python3 with tomllib (Python 3.11+) is not installed';
  assert.equal(r.status, 0, `the Helix block is not valid TOML: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const docs = readFileSync(join(repoRoot, 'docs', 'editors.md'), 'utf8');
const helixText = docs.slice(docs.indexOf(SECTION), docs.indexOf('Emacs, eglot'));
const parsed = parseToml(readmeBlock(SECTION, 'toml'));
const skip = typeof parsed === 'string' && !process.env.CI ? parsed : false;

test('the Helix block is TOML that Helix reads: the server command, its config, the yaml language', { skip }, () => {
  assert.ok(typeof parsed !== 'string', String(parsed));
  const server = parsed['language-server']?.appset;
  assert.equal(server.command, 'node');
  // The server over stdio (spawned through client.ts's spawnStdio below).
  assert.equal(server.args.at(-2), serverPath);
  assert.equal(server.args.at(-1), '--stdio');
  // Every key under config is a setting of the server (package.json lists them for VS Code too).
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const known = Object.keys(pkg.contributes.configuration.properties);
  for (const key of Object.keys(server.config.appsetTools)) assert.ok(known.includes(`appsetTools.${key}`), key);
  const yaml = parsed.language.find((l: { name: string }) => l.name === 'yaml');
  assert.ok(yaml['language-servers'].includes('appset'));
  assert.ok(yaml['language-servers'].includes('yaml-language-server'), 'beside Red Hat’s server, as the docs say');
});

test('Helix started from ~ (no workspace) runs the commands the docs name, as it sends them', { skip, timeout: 150_000 }, async () => {
  assert.ok(typeof parsed !== 'string', String(parsed));
  const server = parsed['language-server'].appset;
  const dir = mkdtempSync(join(tmpdir(), 'appset-helix-'));
  const { proc, conn } = spawnStdio(server.args, 'pipe', { HOME: join(dir, 'home'), APPSET_CACHE_DIR: 'off' });
  try {
    const file = writeRepository(join(dir, 'repo'));
    const messages: string[] = [];
    const diagnostics = new Map<string, Diagnostic[]>();
    conn.onNotification(ShowMessageNotification.type, (m) => void messages.push(m.message));
    conn.onNotification(PublishDiagnosticsNotification.type, (p) => void diagnostics.set(p.uri, p.diagnostics));
    // Helix answers workspace/configuration from `config`.
    conn.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => server.config.appsetTools));
    conn.listen();
    const init = await conn.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      workspaceFolders: [],
      initializationOptions: server.config,
      capabilities: { workspace: { configuration: true, executeCommand: {} } },
    });
    await conn.sendNotification(InitializedNotification.type, {});
    const commands = init.capabilities.executeCommandProvider?.commands ?? [];
    // Every server command the Helix section names is one the server runs.
    const named = [...new Set(helixText.match(/appsetTools\.\w+/g) ?? [])];
    assert.ok(named.length > 0, 'the Helix section names the commands to run');
    for (const c of named) assert.ok(commands.includes(c), `${c} is not a server command`);

    const uri = pathToFileURL(file).toString();
    const open = (u: string, text: string) =>
      conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: u, languageId: 'yaml', version: 1, text } });
    await open(uri, readFileSync(file, 'utf8'));
    // The workspace is the file's repository: its cluster Secrets in ../clusters were read.
    await until(() => diagnostics.get(uri)?.some((d) => d.code === 'appset/unknown-field'), 'diagnostics for the file');
    await until(() => !diagnostics.get(uri)?.some((d) => d.code === 'generator/empty'), 'the repository rooted (no generator/empty)');

    // `:lsp-workspace-command appsetTools.showPreview`: no arguments, one ApplicationSet open.
    const text = await conn.sendRequest(ExecuteCommandRequest.type, { command: 'appsetTools.showPreview' });
    assert.match(String(text), /^# Preview of ApplicationSet "guestbook": 2 Applications/);
    await until(() => messages.includes('guestbook: 2 Applications (guestbook-dev, guestbook-prod)'), 'the summary in the status line');
    const plan = await conn.sendRequest(ExecuteCommandRequest.type, { command: 'appsetTools.showRollout', arguments: [] });
    assert.match(String(plan), /guestbook-dev/);

    // With two ApplicationSets open it cannot guess: it says what it needs instead of returning nothing silently.
    const other = join(dir, 'repo', 'apps', 'other.yaml');
    mkdirSync(join(dir, 'home'), { recursive: true });
    writeFileSync(other, readFileSync(file, 'utf8').replace('name: guestbook', 'name: other'));
    await open(pathToFileURL(other).toString(), readFileSync(other, 'utf8'));
    assert.equal(await conn.sendRequest(ExecuteCommandRequest.type, { command: 'appsetTools.preview' }), null);
    await until(
      () =>
        messages.some((m) =>
          /appsetTools\.preview needs the document's URI .*2 ApplicationSet files are open \(appset\.yaml, other\.yaml\)/.test(m),
        ),
      'the message naming the open files',
    );
  } finally {
    await stopStdio(conn, proc);
    rmSync(dir, { recursive: true, force: true });
  }
});
