/**
 * Every command a lens or quick fix carries runs in the server (`workspace/executeCommand`), so an
 * editor without our VS Code client can run it; dynamic registrations only when the client offers them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CodeActionRequest, CodeLensRequest, ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { SERVER_COMMANDS, startServer, messageOf } from './client';
import { appsetHead, flowTemplate, listOf, LOCAL, rollingSyncBy } from '../helpers/appsets';

const APPSET = `${appsetHead('shop', { namespace: null })}  generators:
${listOf([{ env: 'dev' }, { env: 'prod' }])}${rollingSyncBy('env', [{ values: ['dev'] }, { values: ['prod'] }], { block: true })}${flowTemplate(
  "'shop-{{.env}}'",
  'repoURL: https://example.com/shop.git, path: deploy',
  `${LOCAL}, namespace: '{{.env}}'`,
  "      labels:\n        env: '{{.env}}'\n",
)}`;

test('lens commands, text commands and the progressive-syncs quick fix run in the server', async () => {
  const s = await startServer({ 'shop.yaml': APPSET }, { progressiveSyncs: 'disabled' }, { capabilities: {} });
  try {
    const uri = s.uriOf('shop.yaml');
    const diags = await s.open('shop.yaml', APPSET);
    assert.ok(
      diags.some((d) => d.code === 'rollout/progressive-syncs-disabled'),
      JSON.stringify(diags.map(messageOf)),
    );

    // Every lens carries a command the server advertises and executes.
    const lenses = (await s.conn.sendRequest(CodeLensRequest.type, { textDocument: { uri } })) ?? [];
    assert.ok(lenses.length >= 2);
    for (const l of lenses) {
      const text = await s.conn.sendRequest(ExecuteCommandRequest.type, { command: l.command!.command, arguments: l.command!.arguments });
      assert.equal(typeof text, 'string', l.command!.command);
    }
    const preview = (await s.conn.sendRequest(ExecuteCommandRequest.type, { command: 'appsetTools.preview', arguments: [uri] })) as string;
    assert.match(preview, /^# Preview of ApplicationSet "shop": 2 Applications/);
    assert.match(preview, /name: shop-prod/);
    const plan = (await s.conn.sendRequest(ExecuteCommandRequest.type, { command: 'appsetTools.rolloutPlan', arguments: [uri] })) as string;
    assert.match(plan, /^shop: RollingSync · 2 steps/);
    assert.match(plan, /wave 1 \(1\): shop-dev/);
    assert.match(plan, /progressive syncs: disabled \(setting\)/);
    // The lens commands also said what they found; the text commands did not.
    assert.ok(
      s.messages.some((m) => m.message === 'shop: 2 Applications (shop-dev, shop-prod)'),
      JSON.stringify(s.messages),
    );
    const said = s.messages.length;
    await s.conn.sendRequest(ExecuteCommandRequest.type, { command: 'appsetTools.preview', arguments: [uri] });
    assert.equal(s.messages.length, said);

    // The quick fix's command changes the setting for the session: the warning goes away.
    const d = diags.find((x) => x.code === 'rollout/progressive-syncs-disabled')!;
    const actions =
      (await s.conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: d.range, context: { diagnostics: [d] } })) ?? [];
    const cmd = actions
      .map((a) => ('command' in a && a.command && typeof a.command === 'object' ? a.command : undefined))
      .find((c) => c?.command === 'appsetTools.setProgressiveSyncs');
    assert.ok(cmd, JSON.stringify(actions));
    const after = s.diagnostics('shop.yaml', 1);
    assert.equal(await s.conn.sendRequest(ExecuteCommandRequest.type, { command: cmd.command, arguments: cmd.arguments }), 'enabled');
    assert.ok(!(await after).some((x) => x.code === 'rollout/progressive-syncs-disabled'));

    // Unknown commands and arguments a command cannot use are answered InvalidParams with a sentence (issue 38).
    const refusal = async (params: unknown) => {
      try {
        const r = await s.conn.sendRequest(ExecuteCommandRequest.method, params);
        return `answered ${JSON.stringify(r)}`;
      } catch (e) {
        const err = e as { code?: number; message?: string };
        return `${err.code}: ${err.message}`;
      }
    };
    assert.match(
      await refusal({ command: 'appsetTools.nope', arguments: [] }),
      /^-32602: unknown command "appsetTools\.nope": this server runs appsetTools\.showPreview, /,
    );
    assert.equal(
      await refusal({ command: 'appsetTools.preview', arguments: [42] }),
      "-32602: appsetTools.preview: argument 1 must be the document's URI (a string), not the number 42",
    );
    assert.equal(
      await refusal({ command: 'appsetTools.setProgressiveSyncs', arguments: ['maybe'] }),
      '-32602: appsetTools.setProgressiveSyncs: argument 1 must be one of auto, enabled, disabled, not "maybe"',
    );
    // The probe's hostile arguments: internal errors (-32603) with the exception's text before.
    const hostile: [unknown, RegExp][] = [
      [
        { command: 'appsetTools.setProgressiveSyncs', arguments: [{ toString: 1 }] },
        /^-32602: appsetTools\.setProgressiveSyncs: argument 1 must be one of auto, enabled, disabled, not an object$/,
      ],
      [
        { command: 'appsetTools.openLocation', arguments: [{ toString: 1 }] },
        /^-32602: appsetTools\.openLocation: argument 1 must be a file path or URI \(a string\), not an object$/,
      ],
      [
        { command: 'appsetTools.openLocation', arguments: [uri, { valueOf: 1 }] },
        /^-32602: appsetTools\.openLocation: argument 2 must be a character offset/,
      ],
      [
        { command: 'appsetTools.showPreview', arguments: [uri, -1] },
        /^-32602: appsetTools\.showPreview: argument 2 must be a character offset \(a whole number, 0 or more\), not the number -1$/,
      ],
      [
        { command: 'appsetTools.showRollout', arguments: { toString: 1 } },
        /^-32602: appsetTools\.showRollout: the arguments must be a list, not an object$/,
      ],
      [{ command: 'appsetTools.preview', arguments: 'abc' }, /^-32602: appsetTools\.preview: the arguments must be a list, not a string$/],
      [{ command: { toString: 1 } }, /^-32602: workspace\/executeCommand needs a command name \(a string\), not an object$/],
      [{ command: 'appsetTools.rolloutPlan', arguments: [uri, 0, 1] }, /^-32602: appsetTools\.rolloutPlan takes at most 2 arguments/],
    ];
    for (const [params, want] of hostile) assert.match(await refusal(params), want, JSON.stringify(params));
    // The server still answers after them.
    assert.match(
      (await refusal({ command: 'appsetTools.preview', arguments: [uri, null] })) as string,
      /^answered "# Preview of ApplicationSet/,
    );
    // A client without dynamic registration is never asked to register anything.
    assert.deepEqual(s.registrations, []);
  } finally {
    await s.shutdown();
  }
});

test('the server advertises its commands; it registers for configuration changes only when the client can', async () => {
  const s = await startServer(
    {},
    {},
    { capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } } } },
  );
  try {
    assert.deepEqual((s.capabilities.executeCommandProvider as { commands: string[] }).commands.sort(), SERVER_COMMANDS);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(
      s.registrations.some((r) => r.method === 'workspace/didChangeConfiguration'),
      JSON.stringify(s.registrations),
    );
  } finally {
    await s.shutdown();
  }
  const t = await startServer({}, {}, { capabilities: { workspace: { configuration: true } } });
  try {
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!t.registrations.some((r) => r.method === 'workspace/didChangeConfiguration'), JSON.stringify(t.registrations));
  } finally {
    await t.shutdown();
  }
});

test("validate.yamlSyntax: false leaves YAML syntax errors to another YAML server (Red Hat's), other findings stay", async () => {
  const broken = APPSET.replace('  name: shop\n', '  name: shop\n  bad: [unclosed\n');
  const on = await startServer({}, {});
  const off = await startServer({}, { validate: { debounceMs: 0, yamlSyntax: false } });
  try {
    const a = await on.open('shop.yaml', broken);
    const b = await off.open('shop.yaml', broken);
    assert.ok(
      a.some((d) => d.code === 'yaml/syntax'),
      JSON.stringify(a.map((d) => d.code)),
    );
    assert.ok(!b.some((d) => d.code === 'yaml/syntax'), JSON.stringify(b.map((d) => d.code)));
  } finally {
    await on.shutdown();
    await off.shutdown();
  }
});
