#!/usr/bin/env bash
# The GitHub Action's lint step: annotations on the diff (workflow commands), a SARIF file for code
# scanning, the markdown report in the job summary. The exit status is passed on as a step output,
# so SARIF upload and the diff comment still run before the job fails.
set -uo pipefail
: "${APPSET_CLI:?the appset command (install.sh)}" "${APPSET_OUT:?}"
mkdir -p "$APPSET_OUT"
sarif="$APPSET_OUT/appset-tools.sarif"
md="$APPSET_OUT/appset-lint.md"
read -r -a paths <<< "${APPSET_PATHS:-.}"
fail_on="${APPSET_FAIL_ON:-error}"
fail_args=(--fail-on "$fail_on")
[ "$fail_on" = never ] && fail_args=(--no-fail)
"$APPSET_CLI" lint "${paths[@]}" --format github --sarif "$sarif" --markdown "$md" "${fail_args[@]}"
code=$?
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$md" ]; then cat "$md" >> "$GITHUB_STEP_SUMMARY"; fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  [ -f "$sarif" ] && echo "sarif-file=$sarif" >> "$GITHUB_OUTPUT"
  echo "exit-code=$code" >> "$GITHUB_OUTPUT"
fi
# Usage errors, unreadable or missing inputs, config mistakes (2), documents that could not be checked (3)
# and no input found (4) fail the step at once; findings (1) fail the job at the end.
[ "$code" -ge 2 ] && exit "$code"
exit 0
