#!/usr/bin/env bash
# The GitHub Action's diff step: `appset diff` against the pull request's base commit, in the job
# summary and as one pull request comment that later pushes update.
set -euo pipefail
: "${APPSET_CLI:?the appset command (install.sh)}" "${APPSET_OUT:?}" "${APPSET_BASE:?no base revision (not a pull request?)}"
read -r -a paths <<< "${APPSET_PATHS:-.}"
# Shallow checkouts lack the base commit: fetch just that one.
if ! git cat-file -e "$APPSET_BASE^{commit}" 2>/dev/null; then
  git fetch --no-tags --depth=1 origin "$APPSET_BASE"
fi
# The artifact folder gets the whole report (--report, never cut); the comment and the job summary get the
# text cut to a comment's size, which says where the whole report is.
md="$APPSET_OUT/appset-diff.md"
comment="$(dirname "$APPSET_OUT")/appset-diff-comment.md"
mkdir -p "$APPSET_OUT"
"$APPSET_CLI" diff --base "$APPSET_BASE" "${paths[@]}" --format markdown --output "$comment" --report "$md"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$comment" >> "$GITHUB_STEP_SUMMARY"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "diff-file=$md" >> "$GITHUB_OUTPUT"; fi
if [ "${APPSET_COMMENT:-true}" = true ]; then
  node "$(dirname "$0")/pr-comment.mjs" github "$comment"
fi
