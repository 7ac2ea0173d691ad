#!/usr/bin/env bash
# The GitLab job (ci/appset-tools.gitlab-ci.yml), run from the installed appset-tools package: lint
# into a Code Quality report, SARIF and markdown, and in merge request pipelines diff against the
# target branch and post the note. The CLI is this script's own package (no checkout of the tool, no
# build), so the job's paths never include the tool's files.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cli="${APPSET_CLI:-$here/../../dist/cli.js}"
read -r -a paths <<< "${APPSET_PATHS:-.}"
fail_on="${APPSET_FAIL_ON:-error}"
fail_args=(--fail-on "$fail_on")
[ "$fail_on" = never ] && fail_args=(--no-fail)
node "$cli" --version || exit 2
node "$cli" lint "${paths[@]}" --format codequality --output gl-code-quality-report.json --sarif appset-tools.sarif --markdown appset-lint.md "${fail_args[@]}"
code=$?
cat appset-lint.md 2>/dev/null || true
if [ -n "${CI_MERGE_REQUEST_IID:-}" ]; then
  base="${APPSET_BASE:-${CI_MERGE_REQUEST_DIFF_BASE_SHA:-origin/${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-main}}}"
  if ! git cat-file -e "$base^{commit}" 2>/dev/null; then git fetch --no-tags origin "${CI_MERGE_REQUEST_TARGET_BRANCH_NAME:-main}" || true; fi
  # appset-diff.md (an artifact) is the whole report; the note is the text cut to a note's size, kept
  # outside the project folder.
  note="$(mktemp)"
  if node "$cli" diff --base "$base" "${paths[@]}" --format markdown --output "$note" --report appset-diff.md; then
    cat "$note"
    node "$here/pr-comment.mjs" gitlab "$note" || echo "appset-tools: could not post the merge request note"
  else
    [ "$code" -lt 2 ] && code=2
  fi
fi
exit "$code"
