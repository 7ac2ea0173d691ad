/**
 * When the language server pushes an open document into the workspace index (server/src/lsp/overlays.ts)
 * and which file events it acts on (watch.ts): ApplicationSet-only keystrokes must not invalidate
 * every cache, while edits to anything the index reads must.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FileChangeType } from 'vscode-languageserver/node';
import { getLanguageService } from '../../../../server/src/engine/service/languageService';
import { OpenDocuments, appsetOnly } from '../../../../server/src/engine/service/openDocuments';
import { emptyHost } from '@appset-tools/engine';
import { isWatchedChange } from '../../../../server/src/lsp/watch';
import { flowClusterSecret } from '../../../helpers/clusters';

const APPSET = 'apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: a}\nspec: {generators: [], template: {}}\n';
const SECRET = flowClusterSecret({ name: 'c', secretName: 'c', server: 'https://c' });

test('appsetOnly: ApplicationSets and empty documents only', () => {
  const ls = getLanguageService({ host: emptyHost() });
  const only = (text: string) => appsetOnly(ls.analyze('file:///x.yaml', text, '/x.yaml'));
  assert.equal(only(APPSET), true);
  assert.equal(only(`# header\n---\n${APPSET}---\n${APPSET}---\n`), true);
  assert.equal(only(`${APPSET}---\n${SECRET}`), false);
  assert.equal(only('a: [1, 2'), false, 'a broken document may be anything');
  assert.equal(only(`${APPSET}  bad: [`), true, 'a broken ApplicationSet is still one');
  assert.equal(only(`${APPSET}---\nkind: Secret\nstringData: {a: [`), false);
});

test('keystrokes in an ApplicationSet-only file leave the index version alone; other files bump it', () => {
  const ls = getLanguageService({ host: emptyHost() });
  const ov = new OpenDocuments(ls.workspace);
  // As the server does: sync, then analyse the (possibly new) index state and remember it.
  const sync = (p: string, text: string) => {
    const changed = ov.sync(p, text, () => ls.analyze('file://' + p, text, p));
    ov.remember(p, ls.analyze('file://' + p, text, p));
    return changed;
  };
  assert.equal(sync('/w/a.yaml', APPSET), true, 'first push');
  const v = ls.workspace.version;
  assert.equal(sync('/w/a.yaml', APPSET + '# typing\n'), false);
  assert.equal(sync('/w/a.yaml', APPSET.replace('name: a', 'name: b')), false);
  assert.equal(ls.workspace.version, v);
  assert.equal(sync('/w/a.yaml', `${APPSET}---\n${SECRET}`), true, 'gaining a Secret matters');
  assert.equal(sync('/w/a.yaml', `${APPSET}---\n${SECRET}# typing\n`), true, 'so does every edit while it has one');
  assert.equal(sync('/w/a.yaml', APPSET), true, 'and losing it');
  assert.equal(sync('/w/a.yaml', APPSET + '# more\n'), false);
  assert.equal(sync('/w/s.yaml', SECRET), true);
  assert.equal(ls.workspace.file('/w/s.yaml')?.text, SECRET);
  ov.close('/w/s.yaml');
  assert.equal(ls.workspace.file('/w/s.yaml'), undefined);
  assert.equal(sync(undefined as unknown as string, APPSET), false, 'untitled documents have no path');
});

test('file events: content files, and creations or deletions of anything else', () => {
  assert.equal(isWatchedChange('/w/clusters/c.yaml', FileChangeType.Changed), true);
  assert.equal(isWatchedChange('/w/apps/x/config.json', FileChangeType.Changed), true);
  assert.equal(isWatchedChange('/w/apps/new-app', FileChangeType.Created), true, 'a new directory for the git directories generator');
  assert.equal(isWatchedChange('/w/apps/x/main.go', FileChangeType.Changed), false);
  assert.equal(isWatchedChange('/w/node_modules/p/a.yaml', FileChangeType.Created), false);
  assert.equal(isWatchedChange('/w/.git/index', FileChangeType.Changed), false);
  assert.equal(isWatchedChange('/w/dist/x.json', FileChangeType.Changed), false);
});

test('a tab whose file was deleted on disk overlays nothing until the file is back (issue 37)', () => {
  const ls = getLanguageService({ host: emptyHost() });
  const ov = new OpenDocuments(ls.workspace);
  const sync = (text: string) => ov.sync('/w/s.yaml', text, () => ls.analyze('file:///w/s.yaml', text, '/w/s.yaml'));
  assert.equal(sync(SECRET), true);
  assert.equal(ls.workspace.file('/w/s.yaml')?.text, SECRET);
  assert.equal(ov.deletedOnDisk('/w/s.yaml'), true, 'the index changes');
  assert.equal(ls.workspace.file('/w/s.yaml'), undefined, 'not in the repository, whatever the tab holds');
  assert.equal(sync(SECRET + '# typed in the tab\n'), false, 'edits in its tab push nothing');
  assert.equal(ov.opened('/w/s.yaml', SECRET), false);
  ov.resync([{ path: '/w/s.yaml', text: SECRET }]);
  assert.equal(ls.workspace.file('/w/s.yaml'), undefined, 'nor does a resync');
  assert.equal(ov.deletedOnDisk('/w/s.yaml'), false, 'said once');
  assert.equal(ov.onDisk('/w/s.yaml', SECRET), true, 'back on disk: the tab overlays it again');
  assert.equal(ls.workspace.file('/w/s.yaml')?.text, SECRET);
  assert.equal(ov.onDisk('/w/s.yaml', SECRET), false, 'a change of a file on disk is no news for an open tab');
  ov.deletedOnDisk('/w/s.yaml');
  ov.close('/w/s.yaml');
  assert.equal(ov.opened('/w/s.yaml', SECRET), true, 'closed and opened again: pushed as any new tab');
});
