// The repository configuration `.appset-tools.yaml` through the language service, as the server and
// the CLI use it: found upward, settings merged, severities, ignored paths, inline suppressions,
// policy gates, and problems in the file itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService } from '@appset-tools/engine';
import { memHost } from '../../../helpers/memHost';
import { cmdParamsCm } from '../../../helpers/clusters';
import { findSuppressions } from '../../../../server/src/engine/config/suppress';
import { commentStarts } from '../../../../server/src/engine/yaml';
import { fingerprints } from '@appset-tools/engine';
import { CONFIG_KEYS } from '../../../../server/src/engine/config/keys';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appsetHead, flowTemplate, rollingSyncBy } from '../../../helpers/appsets';

/** An AllAtOnce list ApplicationSet with `n` Applications on two clusters, `env` label from the element. */
function appset(n: number, extra = '', name = 'fleet'): string {
  const els = Array.from(
    { length: n },
    (_, i) => `      - {app: a${i}, env: ${i % 2 ? 'production' : 'staging'}, server: 'https://c${i % 2}.example'}`,
  ).join('\n');
  return `${appsetHead(name, { namespace: null })}  generators:
  - list:
      elements:
${els}
${extra}${flowTemplate(
    "'{{.app}}'",
    "repoURL: 'https://example.com/r.git', path: '{{.app}}', targetRevision: HEAD",
    "server: '{{.server}}', namespace: x",
    "      labels: {env: '{{.env}}'}\n",
  )}`;
}

const ROLLING = rollingSyncBy(
  'env',
  [
    { values: ['staging'], maxUpdate: 2 },
    { values: ['production'], maxUpdate: 1 },
  ],
  { compact: true },
);

function lint(files: Record<string, string>, file: string, settings = {}) {
  const host = memHost(new Map(Object.entries(files)), settings);
  const service = getLanguageService({ host });
  const a = service.analyze(file, files[file], file);
  return { service, a, findings: service.lint(a), diags: service.diagnostics(a) };
}

test('the nearest .appset-tools.yaml above the file applies: settings and per-code severity', () => {
  const files = {
    '/ws/.appset-tools.yaml': 'blastRadiusThreshold: 4\nseverity:\n  rollout/blast-radius: warning\n',
    '/ws/apps/fleet.yaml': appset(6),
  };
  const { service, a, diags } = lint(files, '/ws/apps/fleet.yaml');
  assert.equal(service.settings(a).blastRadiusThreshold, 4);
  const blast = diags.find((d) => d.code === 'rollout/blast-radius');
  assert.ok(blast, 'the config lowered the threshold to 4, so 6 Applications on 2 clusters are reported');
  assert.equal(blast.severity, 'warning');
  // A nearer config replaces the outer one.
  const nested = lint({ ...files, '/ws/apps/.appset-tools.yaml': 'severity: {rollout/*: off}\n' }, '/ws/apps/fleet.yaml');
  assert.equal(nested.service.settings(nested.a).blastRadiusThreshold, 10);
  assert.equal(nested.diags.filter((d) => d.code.startsWith('rollout/')).length, 0);
});

test('a setting chosen in the editor or on the command line wins over the config file; inventories add up', () => {
  const files = {
    '/ws/.appset-tools.yaml': 'progressiveSyncs: disabled\nmaxApplications: 50\ninventoryFiles: [clusters/*.yaml]\nargocdVersion: 3.2\n',
    '/ws/a.yaml': appset(2),
  };
  const { service, a } = lint(files, '/ws/a.yaml', { progressiveSyncs: 'enabled', inventoryFiles: ['/elsewhere/inv.yaml'] });
  assert.equal(service.settings(a).progressiveSyncs, 'enabled');
  assert.equal(service.settings(a).maxApplications, 50);
  assert.equal(service.settings(a).argocdVersion, '3.2', 'a YAML number 3.2 is read as the release 3.2');
  assert.deepEqual(service.settings(a).inventoryFiles, ['/elsewhere/inv.yaml', '/ws/clusters/*.yaml']);
});

test('an unquoted argocdVersion: 2.10 means the release 2.10, as written (YAML alone would read the number 2.1)', () => {
  for (const [written, expected] of [
    ['2.10', '2.10'],
    ['2.10 # the install we run', '2.10'],
    ['3.0', '3.0'],
    ['"2.10"', '2.10'],
    ['v2.10.3', 'v2.10.3'],
  ]) {
    const files = { '/ws/.appset-tools.yaml': `argocdVersion: ${written}\n`, '/ws/a.yaml': appset(2) };
    const { service, a } = lint(files, '/ws/a.yaml');
    assert.equal(service.settings(a).argocdVersion, expected, written);
    assert.deepEqual(service.configDiagnostics('/ws/.appset-tools.yaml'), [], written);
  }
});

test('problems in the config file are config/invalid findings on the key or value, and that setting is ignored', () => {
  const cfg = 'severty:\n  x: off\nmaxApplications: lots\nseverity:\n  appset/unknown-field: loud\n__proto__: {polluted: true}\n';
  const files = { '/ws/.appset-tools.yaml': cfg, '/ws/a.yaml': appset(2) };
  const { service, a } = lint(files, '/ws/a.yaml');
  assert.equal(service.settings(a).maxApplications, 10000);
  const ds = service.configDiagnostics('/ws/.appset-tools.yaml');
  const msgs = ds.map((d) => `${d.code} ${cfg.slice(d.span.start, d.span.end)} ${d.message}`);
  assert.equal(ds.length, 4, msgs.join('\n'));
  assert.match(msgs[0], /^config\/invalid severty unknown setting "severty".*did you mean "severity"\?/);
  assert.match(msgs[1], /^config\/invalid lots maxApplications: expected a whole number from 1 to 1000000, got "lots"/);
  assert.match(msgs[2], /severity of appset\/unknown-field must be one of error, warning, information, hint, off/);
  assert.match(msgs[3], /unknown setting "__proto__"/);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  // The editor shows the same findings when the config file itself is open.
  const open = service.analyze('/ws/.appset-tools.yaml', cfg, '/ws/.appset-tools.yaml');
  assert.equal(service.diagnosticsToShow(open).length, 4);
  // Broken YAML: one finding, nothing applied.
  assert.deepEqual(service.configDiagnostics('/ws/nope.yaml'), []);
  const broken = lint({ '/ws/.appset-tools.yaml': 'severity: [unclosed\n', '/ws/a.yaml': appset(2) }, '/ws/a.yaml');
  assert.match(broken.service.configDiagnostics('/ws/.appset-tools.yaml')[0].message, /not valid YAML.*not used/);
});

test('ignored paths get no findings', () => {
  const bad = appset(2).replace('goTemplate: true', 'goTemplat: true');
  const files = {
    '/ws/.appset-tools.yaml': 'ignore: [legacy/, "**/*.draft.yaml"]\n',
    '/ws/legacy/old.yaml': bad,
    '/ws/x.draft.yaml': bad,
    '/ws/live.yaml': bad,
  };
  assert.deepEqual(lint(files, '/ws/legacy/old.yaml').findings, []);
  assert.deepEqual(lint(files, '/ws/x.draft.yaml').findings, []);
  assert.equal(lint(files, '/ws/live.yaml').findings.filter((d) => d.code === 'appset/unknown-field').length, 1);
  assert.equal(lint(files, '/ws/live.yaml').service.isIgnored('/ws/legacy/deep/er.yaml'), true);
});

test('inline suppressions: on the line or above it, with a reason; kept and marked for SARIF', () => {
  const text = appset(2)
    .replace('  goTemplate: true', '  goTemplat: true # appset-tools: ignore appset/unknown-field -- migrating, see TICKET-1')
    .replace('  generators:', '  # appset-tools: ignore appset/unknown-field\n  generatorz: []\n  generators:');
  const { findings, diags } = lint({ '/ws/a.yaml': text }, '/ws/a.yaml');
  const unknown = findings.filter((d) => d.code === 'appset/unknown-field');
  assert.equal(unknown.length, 2);
  assert.deepEqual(
    unknown.map((d) => d.suppressed?.justification),
    ['migrating, see TICKET-1', undefined],
  );
  assert.equal(diags.filter((d) => d.code === 'appset/unknown-field').length, 1, 'the editor hides the suppressed one');
  // The config/suppression finding on the comment with no reason (its range and message), and the
  // applied one shown by neither: test/fixtures/rules/config/suppression.yaml.
  assert.equal(diags.filter((d) => d.code === 'config/suppression').length, 1);
});

test('suppression comments: the codes and lines each applies to; "#" inside a value is not a comment', () => {
  const s = findSuppressions(
    'a: 1\n  # appset-tools: ignore rollout/*, policy/max-sync-at-once -- ok\n\n  b: 2\nc: "x # appset-tools: ignore x -- y"\n',
    commentStarts,
  );
  assert.equal(s.length, 1);
  assert.deepEqual(s[0].codes, ['rollout/*', 'policy/max-sync-at-once']);
  assert.deepEqual(s[0].appliesTo, [1, 3]);
  // The unknown code (a warning) and the unused suppression (information): their findings are in
  // test/fixtures/rules/config/suppression.yaml.
});

test('suppressions are YAML comments as the parser reads them, never text of a block scalar', () => {
  // The same `# appset-tools: ignore` line, once as a comment above the mistake and once as the last
  // line of a `|` value right above it: only the comment silences the finding.
  const comment = appset(2).replace(
    '  goTemplate: true',
    '  description: x\n  # appset-tools: ignore appset/unknown-field -- reviewed\n  goTemplat: true',
  );
  const block = appset(2).replace(
    '  goTemplate: true',
    '  description: |\n    notes\n    # appset-tools: ignore appset/unknown-field -- reviewed\n  goTemplat: true',
  );
  const real = lint({ '/ws/a.yaml': comment }, '/ws/a.yaml').findings.filter((d) => d.code === 'appset/unknown-field');
  assert.deepEqual(
    real.filter((d) => !d.suppressed).map((d) => comment.slice(d.span.start, d.span.end)),
    ['description'],
    'the comment silences goTemplat only',
  );
  const inValue = lint({ '/ws/a.yaml': block }, '/ws/a.yaml').findings;
  const shown = inValue.filter((d) => d.code === 'appset/unknown-field' && !d.suppressed).map((d) => block.slice(d.span.start, d.span.end));
  assert.deepEqual(shown, ['description', 'goTemplat'], 'text of a block scalar silences nothing');
  assert.equal(inValue.filter((d) => d.code === 'config/suppression').length, 0, 'and is no suppression at all');
  assert.deepEqual(findSuppressions('a: |\n  # appset-tools: ignore x -- y\nb: 1\n', commentStarts), []);
  assert.deepEqual(findSuppressions("a: '\n  # appset-tools: ignore x -- y'\nb: 1\n", commentStarts), []);
});

// The policy findings themselves (code, place, words) are rule fixtures: test/fixtures/rules/policy/.
test('policy gates: an ignored strategy, an error by policy, replaces the rollout warning it supersedes', () => {
  const cfg = 'policy:\n  requireRollingSync: [{env: production}]\n  requireProgressiveSyncs: true\n';
  const codes = lint({ '/ws/.appset-tools.yaml': cfg, '/ws/a.yaml': appset(4, ROLLING) }, '/ws/a.yaml').diags.map((d) => d.code);
  assert.ok(codes.includes('policy/strategy-ignored'), codes.join());
  assert.ok(!codes.includes('rollout/progressive-syncs-not-found'), 'superseded by the policy error');
});

test('fingerprints survive lines moving and message changes, and tell identical findings apart', () => {
  const t1 = 'a: 1\nfoo: bar\nfoo: bar\n';
  const t2 = '# new comment\n\na: 1\nfoo: bar\nfoo: bar\n';
  const f1 = fingerprints('x.yaml', t1, [
    { code: 'c/x', span: { start: 5, end: 8 } },
    { code: 'c/x', span: { start: 14, end: 17 } },
  ]);
  const f2 = fingerprints('x.yaml', t2, [
    { code: 'c/x', span: { start: 20, end: 23 } },
    { code: 'c/x', span: { start: 29, end: 32 } },
  ]);
  assert.deepEqual(f1, f2);
  assert.notEqual(f1[0], f1[1]);
  assert.match(f1[0], /^[0-9a-f]{16}$/);
  assert.notEqual(fingerprints('y.yaml', t1, [{ code: 'c/x', span: { start: 5, end: 8 } }])[0], f1[0]);
});

test('instances: which Argo CD runs which ApplicationSets, paths relative to the config file; maxWaveSize', () => {
  const cm = (v: string) => cmdParamsCm(v);
  const rolling = appset(12).replace(
    'spec:\n',
    'spec:\n  strategy:\n    type: RollingSync\n    rollingSync:\n      steps:\n      - matchExpressions: []\n        maxUpdate: 50%\n',
  );
  const files = {
    '/ws/.appset-tools.yaml': [
      'maxWaveSize: 3',
      'instances:',
      '  prod:',
      '    applicationSets: [apps/prod/]',
      '    config: [platform/argocd-prod]',
      '  staging:',
      '    applicationSets: "apps/staging/**"',
      '    config: platform/argocd-staging',
      '  outside:',
      '    applicationSets: [apps/hosted/*.yaml]',
      '    progressiveSyncs: enabled',
      '',
    ].join('\n'),
    // Both installs sit beside the ApplicationSets; without the mapping the nearest-install rule could not tell them apart.
    '/ws/platform/argocd-prod/cm.yaml': cm('false'),
    '/ws/platform/argocd-staging/cm.yaml': cm('true'),
    '/ws/apps/prod/a.yaml': rolling,
    '/ws/apps/staging/a.yaml': rolling,
    '/ws/apps/hosted/a.yaml': rolling,
  };
  const prod = lint(files, '/ws/apps/prod/a.yaml');
  assert.equal(prod.service.settings(prod.a).maxWaveSize, 3);
  assert.deepEqual(
    prod.service.settings(prod.a).instances.map((m) => [m.name, m.applicationSets, m.config]),
    [
      ['prod', ['/ws/apps/prod'], ['/ws/platform/argocd-prod']],
      ['staging', ['/ws/apps/staging/**'], ['/ws/platform/argocd-staging']],
      ['outside', ['/ws/apps/hosted/*.yaml'], []],
    ],
  );
  const off = prod.diags.find((d) => d.code === 'rollout/progressive-syncs-disabled');
  assert.ok(off, prod.diags.map((d) => d.code).join());
  assert.match(
    off.message,
    /platform\/argocd-prod\/cm\.yaml:6 turns them off for Argo CD prod \(mapped in \.appset-tools\.yaml instances \("prod"\)\)/,
  );
  // 12 Applications, 50% → 6 at once: more than maxWaveSize 3 from the config file.
  assert.match(
    prod.diags.find((d) => d.code === 'rollout/large-wave')!.message,
    /syncs 6 Applications at once \(more than maxWaveSize, 3\)/,
  );
  const staging = lint(files, '/ws/apps/staging/a.yaml');
  assert.equal(staging.diags.filter((d) => d.code.startsWith('rollout/progressive-syncs')).length, 0);
  const plan = staging.service.rolloutPlan(staging.a)!;
  assert.equal(plan.enablement.decidedBy?.where, 'platform/argocd-staging/cm.yaml:6');
  assert.equal(plan.enablement.instance?.why, 'mapped in .appset-tools.yaml instances ("staging")');
  const hosted = lint(files, '/ws/apps/hosted/a.yaml');
  assert.equal(
    hosted.service.rolloutPlan(hosted.a)!.enablement.decidedBy?.description,
    '.appset-tools.yaml instances ("outside") says progressiveSyncs "enabled"',
  );
  // The editor setting, when set, wins over the config file's mapping.
  const editor = lint(files, '/ws/apps/prod/a.yaml', {
    instances: [{ name: 'mine', applicationSets: ['apps/**'], progressiveSyncs: 'enabled' }],
  });
  assert.equal(editor.service.rolloutPlan(editor.a)!.enablement.state, 'enabled');
});

test('instances and maxWaveSize that cannot be used are config/invalid on the offending entry', () => {
  const cases: [string, RegExp, string][] = [
    ['instances: [a, b]\n', /instances: instance "instance 1": expected a mapping with applicationSets, got "a"/, 'a'],
    ['instances: {prod: {config: [x]}}\n', /instance "prod": applicationSets must be a path, glob or list of them/, '{config: [x]}'],
    [
      'instances:\n  prod:\n    applicationSets: [a/]\n    progressiveSyncs: yes\n',
      /progressiveSyncs must be enabled or disabled, got "yes"/,
      'yes',
    ],
    [
      'instances:\n  prod:\n    applicationSets: [a/]\n    configs: [x]\n',
      /unknown field "configs" \(known: name, applicationSets, config, progressiveSyncs\)/,
      '[x]',
    ],
    ['instances: 3\n', /expected a mapping of instance name/, '3'],
    ['maxWaveSize: 0\n', /maxWaveSize: expected a whole number from 1 to 1000000, got 0/, '0'],
    ['maxWaveSize: ten\n', /expected a whole number from 1 to 1000000, got "ten"/, 'ten'],
    // Issue 38: the settings table's one rule, as --minutes-per-sync and the editor read it.
    ['minutesPerSync: 1e300\n', /minutesPerSync: expected a whole number from 1 to 10000, got 1e\+300/, '1e300'],
    ['minutesPerSync: 10001\n', /minutesPerSync: expected a whole number from 1 to 10000, got 10001/, '10001'],
    ['minutesPerSync: 2.5\n', /minutesPerSync: expected a whole number from 1 to 10000, got 2\.5/, '2.5'],
    ['maxApplications: 1e300\n', /maxApplications: expected a whole number from 1 to 1000000, got 1e\+300/, '1e300'],
  ];
  for (const [cfg, re, at] of cases) {
    const { service, a } = lint({ '/ws/.appset-tools.yaml': cfg, '/ws/a.yaml': appset(2) }, '/ws/a.yaml');
    const ds = service.configDiagnostics('/ws/.appset-tools.yaml');
    assert.equal(ds.length, 1, cfg);
    assert.equal(ds[0].code, 'config/invalid');
    assert.match(ds[0].message, re, cfg);
    assert.equal(cfg.slice(ds[0].span.start, ds[0].span.end), at, cfg);
    assert.deepEqual(service.settings(a).instances, [], 'the setting is ignored');
    assert.equal(service.settings(a).maxWaveSize, 10);
    assert.equal(service.settings(a).minutesPerSync, 3);
    assert.equal(service.settings(a).maxApplications, 10000);
  }
});

test('docs/configuration.md: every .appset-tools.yaml key is in the config reference table', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '..', '..', '..', '..', 'docs', 'configuration.md'), 'utf8');
  const section = readme.slice(readme.indexOf('# Repository configuration'), readme.indexOf('## Suppressing a finding'));
  for (const k of CONFIG_KEYS)
    assert.match(section, new RegExp(`^\\| \`${k.key}\` \\|`, 'm'), `docs/configuration.md config table lacks ${k.key}`);
});
