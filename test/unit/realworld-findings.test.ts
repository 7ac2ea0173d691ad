// Issue 10, real-world patterns (fixtures written for these tests under test/fixtures/real-world/):
// provenance in the preview and hovers, kustomize patches, placeholder repoURLs, AppProjects,
// the move-to-templatePatch fix, and files another tool renders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { getLanguageService, emptyHost } from '@appset-tools/engine';
import { bundledCli, posix, REAL_WORLD as fixtures, serviceOver } from '../helpers/realworld';

const repo = path.resolve(__dirname, '..', '..');
const cli = bundledCli('rw-find-');

function open(dir: string, file: string) {
  const root = posix(path.join(fixtures, dir));
  const ls = serviceOver(root);
  const p = `${root}/${file}`;
  const text = fs.readFileSync(p, 'utf8');
  const a = ls.analyze(p, text, p);
  return { ls, a, text, root, ds: ls.diagnostics(a) };
}

function lint(...args: string[]) {
  const r = spawnSync(process.execPath, [cli.path(), 'lint', ...args, '--no-fail'], { cwd: repo, encoding: 'utf8' });
  assert.equal(r.stderr, '');
  return r.stdout;
}

test('preview: one header line per mistake with the Applications it hits and where their parameter sets came from', () => {
  const { ls, a, text } = open('provenance', 'services.yaml');
  const yaml = ls.preview(a, 0)!.yaml;
  const errors = yaml.split('\n').filter((l) => l.startsWith('# error'));
  // One typo, four parameter sets: one line, placed where the typo is written.
  assert.equal(errors.length, 1, yaml);
  const line = text.slice(0, text.indexOf('.servic }}')).split('\n').length;
  assert.match(errors[0], new RegExp(`^# error at services\\.yaml:${line}: .*map has no entry for key "servic" — in 4 of 4 Applications`));
  assert.match(
    yaml,
    /^# {3}parameter sets from: list element 1 \(services\.yaml:15\), cluster Secret "cluster-prod-eu" \(clusters\/prod-eu\.yaml:1\)/m,
  );
  // The diagnostic is one too, with related information on the Secrets and list elements.
  const typo = ls.appsets(a)[0] && ls.diagnostics(a).filter((d) => d.code === 'template/missing-key');
  assert.equal(typo.length, 1);
  assert.ok(typo[0].related!.some((r) => r.location.file.endsWith('clusters/prod-eu.yaml')));
});

test('preview and hover: every generated Application says where its parameter set came from', () => {
  const { ls, a, text } = open('provenance', 'services.yaml');
  const at = text.indexOf('name: services-ok');
  const yaml = ls.preview(a, at)!.yaml;
  const froms = yaml.split('\n').filter((l) => l.startsWith('# from: '));
  assert.equal(froms.length, 4);
  assert.ok(
    froms.includes('# from: list element 2 (services.yaml:48) + cluster Secret "cluster-prod-us" (clusters/prod-us.yaml:1)'),
    froms.join('\n'),
  );
  // Each comment sits right above its Application.
  assert.match(
    yaml,
    /# from: list element 1 \(services\.yaml:47\) \+ cluster Secret "cluster-prod-eu" \(clusters\/prod-eu\.yaml:1\)\napiVersion: argoproj\.io\/v1alpha1\nkind: Application\nmetadata:\n {2}name: auth-prod-eu-ok/,
  );
  // Hover on the generator: each name links to the first place, and every place is the link's title (a
  // column of places would not fit a hover's width).
  const h = ls.hover(a, text.indexOf('- matrix:', at) + 2)!;
  // Columns empty in every row are left out (no labels here).
  assert.match(h.markdown, /\| Application \| destination \|\n/);
  assert.match(
    h.markdown,
    /\[`auth-prod-eu-ok`\]\(file:\/\/[^ )]*\/services\.yaml#L47 "list element 1 \(services\.yaml:47\) \+ cluster Secret 'cluster-prod-eu' \(clusters\/prod-eu\.yaml:1\)"\)/,
  );
  // Hover on a template string: its value per Application, the name linked the same way.
  const v = ls.hover(a, text.indexOf("'services/{{ .service }}'") + 3)!;
  assert.match(v.markdown, /\| \[`auth-prod-eu-ok`\]\([^ )]* "list element 1 [^"]*"\) \| `services\/auth` \|/);
});

test('appset lint text: the sources of a grouped finding are listed under it', () => {
  const out = lint('test/fixtures/real-world/provenance/services.yaml', '--workspace', 'test/fixtures/real-world/provenance');
  const lines = out.split('\n');
  const i = lines.findIndex((l) => l.includes('template/missing-key'));
  assert.ok(i >= 0, out);
  assert.match(
    lines[i + 1],
    /^ {2}test\/fixtures\/real-world\/provenance\/services\.yaml:15:\d+ from: auth-prod-eu: parameter set from list element 1$/,
  );
  assert.ok(
    lines.slice(i + 1, i + 6).some((l) => /clusters\/prod-eu\.yaml:1:1 from: /.test(l)),
    out,
  );
});

test('kustomize patches of an ApplicationSet: what they hold is checked, what they leave out is not asked for', () => {
  const out = lint('test/fixtures/real-world/kustomize-patches');
  assert.doesNotMatch(out, /missing-field/);
  // The typo in a patch is still an error, where it is written.
  assert.match(out, /overlays\/dev\/sync-wave\.yaml:12:\d+ error appset\/wrong-type .*"tru"/);
  assert.match(out, /: 1 error, 0 warnings/);
  // The preview of a patch says what it is instead of "0 Applications" with no reason.
  const { ls, a, ds } = open('kustomize-patches', 'overlays/dev/delete-logging.yaml');
  assert.deepEqual(ds, []);
  assert.match(ls.preview(a, 0)!.yaml, /note: this document is a kustomize strategic-merge patch \(\$patch directive\)/);
  const listed = open('kustomize-patches', 'overlays/prod/patches/monitoring-wave.yaml');
  assert.match(listed.ls.preview(listed.a, 0)!.yaml, /listed under patches in overlays\/prod\/kustomization\.yaml/);
  const partial = open('kustomize-patches', 'overlays/prod/partial.yaml');
  assert.deepEqual(partial.ds, []);
  // The same document outside a kustomize folder is a broken ApplicationSet.
  const ls2 = getLanguageService({ host: emptyHost() });
  const alone = ls2.analyze(
    'mem://alone.yaml',
    fs.readFileSync(path.join(fixtures, 'kustomize-patches/overlays/prod/partial.yaml'), 'utf8'),
  );
  assert.deepEqual(
    ls2.diagnostics(alone).map((d) => d.code),
    ['appset/missing-field'],
  );
});

test('placeholder repoURLs: one note each, never "no local checkout"', () => {
  const out = lint('test/fixtures/real-world/placeholder-repo');
  const notes = out.split('\n').filter((l) => l.includes('generator/placeholder-repo'));
  assert.deepEqual(
    notes.map((l) => /the placeholder ("[^"]+")/.exec(l)?.[1]),
    ['"<<platform_url>>"', '"<org>"', '"${GITOPS_REPO}"', '"changeme"'],
  );
  // A real repository that merely has "todo" in its name is not a placeholder.
  assert.equal(out.split('\n').filter((l) => l.includes('generator/no-git-checkout')).length, 1);
  assert.match(out, /no-git-checkout no local checkout of https:\/\/github\.com\/example\/todo-app\.git/);
  assert.doesNotMatch(out, /no local checkout of <</);
});

test('AppProjects: a literal project no AppProject defines is flagged with the near miss; a templated one per Application', () => {
  const { ls, a, ds, text } = open('app-projects', 'appsets.yaml');
  const found = ds.filter((d) => d.code === 'appset/unknown-project');
  assert.equal(found.length, 2, JSON.stringify(ds.map((d) => [d.code, d.message])));
  const [literal, templated] = found;
  assert.equal(text.slice(literal.span.start, literal.span.end), 'plaform');
  assert.match(
    literal.message,
    /^the controller skips .*project "plaform" is not defined by any AppProject in the repository.*did you mean "platform"\? \(AppProjects found: default, platform, team-a, team-b\)/,
  );
  const fix = ls.codeActions(a, literal.span, [literal]).find((c) => c.diagnosticCodes?.includes('appset/unknown-project'));
  assert.equal(fix?.edits?.[0].newText, 'platform');
  // team-b comes from argocd-apps values; team-c is defined nowhere: 2 of 4 Applications skipped.
  assert.equal(text.slice(templated.span.start, templated.span.end), "'{{ .team }}'");
  assert.match(templated.message, /skips these 2 Applications: project "team-c".* — in 2 of 4 Applications \(team-c-web, team-c-api\)/);
  assert.doesNotMatch(templated.message, /did you mean/);
  assert.equal(templated.affected?.count, 2);
  // With no AppProject in the workspace nothing is claimed.
  const none = open('provenance', 'services.yaml');
  assert.equal(none.ds.filter((d) => d.code === 'appset/unknown-project').length, 0);
});

test('move to templatePatch: conditional fields move with the keys above them, guarded so nothing renders empty', () => {
  for (const [file, goTemplateAdded] of [
    ['conditional-sync.yaml', false],
    ['fasttemplate.yaml', true],
  ] as const) {
    const ls = getLanguageService({ host: emptyHost() });
    const text = fs.readFileSync(path.join(fixtures, 'template-in-structure', file), 'utf8');
    const a = ls.analyze(`mem://${file}`, text);
    const ds = ls.diagnostics(a);
    assert.deepEqual(
      ds.map((d) => d.code),
      ['appset/template-in-structure'],
      file,
    );
    const fix = ls.codeActions(a, ds[0].span, ds).find((c) => c.diagnosticCodes?.includes('appset/template-in-structure'));
    assert.ok(fix, file);
    assert.equal(/goTemplate/.test(fix.title), goTemplateAdded);
    const e = fix.edits![0];
    const next = text.slice(0, e.span.start) + e.newText + text.slice(e.span.end);
    const b = ls.analyze(`mem://fixed-${file}`, next);
    assert.deepEqual(
      ls.diagnostics(b).filter((d) => d.severity === 'error'),
      [],
      next,
    );
    const preview = ls.preview(b)!.yaml;
    assert.doesNotMatch(preview, /SKIPPED/, preview);
    const apps = preview.split('\n---\n').slice(1);
    assert.equal(apps.length, 2);
    // Only the Application whose condition holds gets the conditional fields; the others keep the rest.
    assert.equal(apps.filter((x) => /syncPolicy:\n {4}automated:/.test(x)).length, 1, preview);
    assert.ok(
      apps.every((x) => /destination:\n {4}server: https:/.test(x)),
      preview,
    );
  }
  const fixed = (() => {
    const ls = getLanguageService({ host: emptyHost() });
    const text = fs.readFileSync(path.join(fixtures, 'template-in-structure', 'conditional-sync.yaml'), 'utf8');
    const a = ls.analyze('mem://c.yaml', text);
    const d = ls.diagnostics(a)[0];
    return ls.codeActions(a, d.span, [d])[0].edits![0].newText;
  })();
  // Two regions share `spec:`: it is guarded by either condition, `source:` by its own.
  assert.match(
    fixed,
    / {2}templatePatch: \|\n {4}\{\{- if or \(\.values\) \(\.autosync\) \}\}\n {4}spec:\n {6}\{\{- if \.values \}\}\n {6}source:\n {8}helm:\n {10}valueFiles:/,
  );
  assert.match(fixed, /releaseName: '\{\{ \.addon \}\}'/); // the unconditional helm field stays in the template
});

test('files another tool renders (helmfile .gotmpl, gomplate, control flow around the documents): one note each', () => {
  const dir = 'test/fixtures/real-world/templated-files';
  const out = lint(dir, `${dir}/appset.gotmpl`, `${dir}/argocd-apps.yaml.gotmpl`);
  const lines = out.trim().split('\n');
  assert.equal(lines.filter((l) => l.includes('yaml/templated-file')).length, 4, out);
  assert.match(out, /: 0 errors, 0 warnings, 4 notes/);
  assert.match(out, /appset\.gotmpl:2:7 information yaml\/templated-file this file is a template that helmfile renders/);
  assert.match(out, /gomplate\.yaml:3:7 information yaml\/templated-file this file is a template that gomplate renders/);
  assert.match(out, /per-cluster\.yaml:5:7 information yaml\/templated-file Go template control flow around the YAML structure/);
});
