// The version a release carries, and every place a user copies it from: package.json is the truth; the
// changelog's newest entry, the package-lock, and the install snippets of the README, docs/, the GitLab
// template and the action (npm specs `appset-tools@X`, Action refs `@vX`, GitLab include URLs `/vX/`,
// pre-commit `rev: vX`) must name the same one. Used by `npm run release:check` and
// test/unit/release-versions.test.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The kinds of reference, each with the pattern that finds it (the version is group 1). */
export const KINDS = {
  'npm spec': /(?<![/\w-])appset-tools@(\d+\.\d+\.\d+[\w.-]*)/g,
  'Action ref': /\bappset-tools\/appset-tools@v(\d+\.\d+\.\d+[\w.-]*)/g,
  'GitLab include': /\/appset-tools\/appset-tools\/v(\d+\.\d+\.\d+[\w.-]*)\/ci\//g,
  'pre-commit rev': /^\s*rev:\s*v(\d+\.\d+\.\d+[\w.-]*)\s*$/gm,
};

/** The files users copy install snippets from. */
function snippetFiles(root) {
  const docs = fs.existsSync(path.join(root, 'docs'))
    ? fs
        .readdirSync(path.join(root, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`)
    : [];
  return ['README.md', ...docs, 'ci/appset-tools.gitlab-ci.yml', 'action.yml', '.pre-commit-hooks.yaml'].filter((f) =>
    fs.existsSync(path.join(root, f)),
  );
}

/** Every versioned reference in the repository at `root`: `{file, line, kind, version}`. */
export function versionReferences(root) {
  const refs = [];
  for (const file of snippetFiles(root)) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const [kind, re] of Object.entries(KINDS))
      for (const m of text.matchAll(re)) refs.push({ file, line: text.slice(0, m.index).split('\n').length, kind, version: m[1] });
  }
  return refs;
}

/** What disagrees with package.json's version, one line each; empty when the release's versions agree. */
export function versionProblems(root) {
  const version = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
  const problems = [];
  const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  const newest = /^## \[?v?(\d+\.\d+\.\d+[\w.-]*)\]?/m.exec(changelog)?.[1];
  if (newest !== version) problems.push(`CHANGELOG.md: the newest entry is ${newest ?? 'missing'}, package.json says ${version}`);
  const lockFile = path.join(root, 'package-lock.json');
  if (fs.existsSync(lockFile)) {
    const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
    for (const [where, v] of [
      ['version', lock.version],
      ['packages[""].version', lock.packages?.['']?.version],
    ])
      if (v !== version) problems.push(`package-lock.json: ${where} is ${v}, package.json says ${version} (run npm install)`);
  }
  const refs = versionReferences(root);
  for (const r of refs)
    if (r.version !== version) problems.push(`${r.file}:${r.line}: ${r.kind} names ${r.version}, package.json says ${version}`);
  // Each kind of snippet is there: a reference rewritten beyond the patterns' reach would escape the check.
  for (const kind of Object.keys(KINDS))
    if (!refs.some((r) => r.kind === kind)) problems.push(`no ${kind} found in ${snippetFiles(root).join(', ')}`);
  return problems;
}
