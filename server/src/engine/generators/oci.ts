/**
 * The oci generator (Argo CD 3.6, PR #26121: `applicationset/generators/oci.go` and
 * `repo_path_utils.go` at argo-cd `refs/pull/26121/merge`): the directories and files of an OCI
 * artifact, read the way the git generator reads a repository. Offline, the artifact is a local
 * folder holding its content, named by a repo mapping (`appsetTools.repoMappings`,
 * `.appset-tools.yaml` `repoMappings`, `--repo-map oci://…=./folder`); without one the generator
 * yields nothing and says so once. Workspace git remotes are never taken for an artifact.
 *
 * Where the two differ, as the PR's repo server does (`GetOciDirectories`, `GetOciFiles` in
 * `reposerver/repository/repository.go`): directories are every directory of the artifact (empty
 * ones too; hidden ones and their subtrees left out), files are globbed with doublestar (`""` and
 * `"."` mean every file) and matching directories are skipped. Errors read "from oci".
 */
import { GeneratorError, noLocalSource, wrapErrors, type Generate } from './types';
import { fromDirectories, fromFiles, listTree, mappedFolder, repoPlaceholder } from './git';

export const generateOci: Generate = (spec, ctx, path) => {
  const repoURL = String(spec.repoURL ?? '');
  const dirs = Array.isArray(spec.directories) && spec.directories.length ? spec.directories : undefined;
  const files = Array.isArray(spec.files) && spec.files.length ? spec.files : undefined;
  if (!dirs && !files) throw new GeneratorError('ApplicationSet is empty', path);
  const placeholder = repoPlaceholder(repoURL);
  const root = placeholder ? undefined : mappedFolder(repoURL, ctx.file, path);
  if (!root) {
    const message = placeholder
      ? `repoURL is the placeholder ${placeholder}, filled in before Argo CD reads this file: the oci generator yields nothing offline; map the real artifact to a folder with appsetTools.repoMappings (or --repo-map) to preview it`
      : `no local copy of the OCI artifact ${repoURL || '(no repoURL)'}: the oci generator yields nothing offline; map it to a folder holding the artifact's content with appsetTools.repoMappings, repoMappings in .appset-tools.yaml or --repo-map ${repoURL || 'oci://…'}=./folder`;
    return noLocalSource(ctx, path, 'generator/no-oci-artifact', message);
  }
  ctx.inexact.value = true;
  const note = `the oci generator read the folder ${root}, mapped to ${repoURL}, not the artifact at revision ${String(spec.revision ?? '')}`;
  ctx.notes.add(note);
  ctx.findings.push({ code: 'generator/working-tree', message: note, path: [...path, 'repoURL'] });
  const tree = listTree(ctx.file.host, root);
  if (tree.truncated)
    ctx.notes.add(
      `the folder ${root} has more than 50000 entries or folders more than 64 levels deep; the oci generator only saw part of it`,
    );
  const prefix = typeof spec.pathParamPrefix === 'string' ? spec.pathParamPrefix : '';
  // Every directory of the extracted artifact, hidden ones and their subtrees left out (walkDirectoryTree).
  const all = tree.allDirs.filter((d) => !d.split('/').some((s) => s.startsWith('.')));
  return wrapErrors('error generating params from oci: ', () =>
    dirs
      ? wrapErrors('error generating params from apps: ', () => fromDirectories(dirs, all, ctx, prefix, path, spec.values, root))
      : fromFiles(files!, tree, root, ctx, prefix, path, spec, 'oci'),
  );
};
