/**
 * The language server's first answer does not wait for the workspace to be read, and says nothing
 * it would take back: AppProjects are not checked until the workspace is read (then the index asks
 * for a re-validation).
 *
 * Files a kustomization lists as patches (engine/validate/partial.ts) are found without reading the
 * workspace: kustomize loads patch files only in or below the kustomization's folder by default, so
 * the kustomizations of the file's ancestor folders are read directly; only kustomizations whose
 * patches climb out of their folder with `..` (a build with `--load-restrictor LoadRestrictionsNone`)
 * come from the workspace index, which the language server answers from the files read so far and
 * settles after its background warm-up.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getLanguageService, type LanguageService } from '@appset-tools/engine';
import { memHost, repoFiles } from '../helpers/memHost';
import { appsetPatch, KUSTOMIZATION, patchWorkspace, WHOLE_APPSET } from '../helpers/kustomize';

/** Every YAML file (and kustomize's extension-less Kustomization) under the given folders of the repository, as one workspace at /ws. */
const allYaml = (...dirs: string[]) => repoFiles((n) => /\.ya?ml$/i.test(n) || n === 'Kustomization', ...dirs);

/**
 * Why the service leaves each ApplicationSet document of `file` unexpanded — the note its preview and
 * `appset render` show: "this document is a kustomize patch (listed under …): it changes an
 * ApplicationSet defined elsewhere …" — or undefined for a whole ApplicationSet.
 */
function reasons(ls: LanguageService, files: Map<string, string>, file: string): (string | undefined)[] {
  const a = ls.analyze(`file://${file}`, files.get(file)!, file);
  return ls.appsets(a).map((s) =>
    ls
      .applications(a, s.span.start)
      ?.notes.map((n) => /^this document is (.*): it changes an ApplicationSet defined elsewhere/.exec(n)?.[1])
      .find((r) => r !== undefined),
  );
}

test('kustomize patch files are found in the ancestor folders and, when their path climbs out, anywhere', () => {
  const files = patchWorkspace();
  const ls = getLanguageService({ host: memHost(files) });
  const reason = (f: string) => reasons(ls, files, f)[0];
  assert.equal(reason('/ws/overlays/prod/wave.yaml'), 'a kustomize patch (listed under patches in overlays/prod/kustomization.yaml)');
  assert.equal(reason('/ws/apps/deep/down/keep.yaml'), 'a kustomize patch (listed under patchesStrategicMerge in kustomization.yaml)');
  assert.equal(reason('/ws/legacy/json.yaml'), 'a kustomize patch (listed under patchesJson6902 in legacy/Kustomization)');
  assert.equal(reason('/ws/shared/dev-patch.yaml'), 'a kustomize patch (listed under patches in overlays/dev/kustomization.yaml)');
  assert.equal(
    reason('/ws/shared/qa-patch.yaml'),
    'a kustomize patch (listed under patchesStrategicMerge in overlays/qa/kustomization.yml)',
  );
  assert.equal(reason('/ws/other/ignored.yaml'), undefined);
  assert.equal(reason('/ws/base/appset.yaml'), undefined);
  // Which kustomizations the index's pre-filter passes (only those whose patches leave their folder)
  // is the workspace module's own test: test/unit/engine/workspace/index.test.ts.
});

test('the partial reason of every ApplicationSet of the fixtures and examples is the same with and without the pre-filter', () => {
  const files = allYaml('test/fixtures', 'examples');
  for (const [p, t] of patchWorkspace()) files.set(p, t);
  // Layouts the line test must not misread: a flow mapping at the top, a comment, CRLF line ends.
  files.set('/ws/flow/kustomization.yaml', '{patches: [{path: ../shared/flow-patch.yaml}]}\n');
  files.set('/ws/shared/flow-patch.yaml', appsetPatch('web'));
  files.set('/ws/crlf/kustomization.yaml', 'patches:\r\n# shared\r\n  - path: ../shared/crlf-patch.yaml\r\n');
  files.set('/ws/shared/crlf-patch.yaml', appsetPatch('web'));
  const filtered = getLanguageService({ host: memHost(files) });
  const full = getLanguageService({ host: memHost(files), prefilter: false });
  let partial = 0;
  let checked = 0;
  for (const [p, t] of files) {
    if (!p.endsWith('.yaml') || !/kind:\s*ApplicationSet/.test(t)) continue;
    const got = reasons(filtered, files, p);
    assert.deepEqual(got, reasons(full, files, p), p);
    checked += got.length;
    partial += got.filter((r) => r?.startsWith('a kustomize patch')).length;
  }
  assert.ok(checked > 50 && partial >= 9, `ApplicationSets compared: ${checked}, kustomize patches among them: ${partial}`);
});

test("the language server's first answer on a patch reads only its folders' kustomizations; one listed from afar is settled after the warm-up", () => {
  const files = patchWorkspace();
  for (let i = 0; i < 200; i++) files.set(`/ws/apps/app-${i}/kustomization.yaml`, `${KUSTOMIZATION}patches:\n  - path: p.yaml\n`);
  const host = memHost(files);
  const reads: string[] = [];
  const counting = { ...host, readFile: (p: string) => (reads.push(p), host.readFile(p)) };
  const ls = getLanguageService({ host: counting, deferWorkspaceScan: true });
  const codes = (f: string) => [...new Set(ls.diagnostics(ls.analyze(f, files.get(f)!, f)).map((d) => d.code))];

  // Listed beside it: known at once, from the kustomization beside it; the 200 others are not read.
  assert.deepEqual(codes('/ws/overlays/prod/wave.yaml'), []);
  assert.deepEqual(
    reads.filter((p) => /kustomization/i.test(p)),
    ['/ws/overlays/prod/kustomization.yaml'],
  );
  // Listed two folders up: the kustomizations on the way up are read, nothing else.
  reads.length = 0;
  assert.deepEqual(codes('/ws/apps/deep/down/keep.yaml'), []);
  assert.deepEqual(
    reads.filter((p) => /kustomization/i.test(p)),
    ['/ws/kustomization.yaml'],
  );

  // Listed from another folder (LoadRestrictionsNone): not known before the workspace is read …
  assert.deepEqual(codes('/ws/shared/dev-patch.yaml'), ['appset/missing-field']);
  while (!ls.workspace.warm(50));
  // … then the index says the answer may have changed, and the next analysis knows it.
  assert.equal(ls.workspace.settle(), true);
  assert.deepEqual(codes('/ws/shared/dev-patch.yaml'), []);
  assert.deepEqual(codes('/ws/base/appset.yaml'), []);
});

test('the language server does not call a project unknown before the workspace is read, and says it once it is', () => {
  const files = new Map<string, string>([
    ['/ws/apps/appset.yaml', WHOLE_APPSET.replace('project: default', 'project: plaform')],
    [
      '/ws/projects/platform.yaml',
      'apiVersion: argoproj.io/v1alpha1\nkind: AppProject\nmetadata: {name: platform, namespace: argocd}\nspec: {}\n',
    ],
  ]);
  const ls = getLanguageService({ host: memHost(files), deferWorkspaceScan: true });
  const codes = () =>
    ls.diagnostics(ls.analyze('/ws/apps/appset.yaml', files.get('/ws/apps/appset.yaml')!, '/ws/apps/appset.yaml')).map((d) => d.code);
  assert.deepEqual(codes(), []);
  while (!ls.workspace.warm(1));
  assert.equal(ls.workspace.settle(), true, 'the answer given before the workspace was read may change');
  assert.deepEqual(codes(), ['appset/unknown-project']);
  // The CLI (no deferral) says it at once.
  const cli = getLanguageService({ host: memHost(files) });
  assert.deepEqual(
    cli.diagnostics(cli.analyze('/ws/apps/appset.yaml', files.get('/ws/apps/appset.yaml')!, '/ws/apps/appset.yaml')).map((d) => d.code),
    ['appset/unknown-project'],
  );
  // A workspace without AppProjects settles quietly: nothing was claimed, nothing would be.
  const empty = new Map([['/ws/apps/appset.yaml', files.get('/ws/apps/appset.yaml')!]]);
  const ls2 = getLanguageService({ host: memHost(empty), deferWorkspaceScan: true });
  assert.deepEqual(ls2.diagnostics(ls2.analyze('/ws/apps/appset.yaml', empty.get('/ws/apps/appset.yaml')!, '/ws/apps/appset.yaml')), []);
  while (!ls2.workspace.warm(10));
  assert.equal(ls2.workspace.settle(), false);
});
