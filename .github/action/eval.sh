#!/usr/bin/env bash
# Runs `tausik policy eval` once and keeps every output CI wants from that
# one decision: the log in the chosen format, the Markdown summary appended
# to the job summary, and SARIF for code scanning. It always exits 0 and
# reports tausik's exit code as the step output exit-code, so the SARIF
# upload runs before action.yml's last step passes the code on.
#
# Environment (set by action.yml):
#   TAUSIK_TRIGGER   the trigger (required)
#   TAUSIK_FILES     files to judge, one per line (empty: the whole project)
#   TAUSIK_FORMAT    the log's format (default github)
#   TAUSIK_ARGS      more arguments, split on whitespace
#   TAUSIK_SARIF     where to write SARIF ("" for none)
#   TAUSIK_BIN       the tausik to run (default: tausik on PATH)
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT
set -uo pipefail

trigger=${TAUSIK_TRIGGER:-}
if [ -z "$trigger" ]; then
  echo "::error title=tausik::no trigger: set the action's trigger input" >&2
  exit 2
fi
args=(policy eval --trigger "$trigger" --format "${TAUSIK_FORMAT:-github}")
summary=$(mktemp "${RUNNER_TEMP:-/tmp}/tausik-summary.XXXXXX")
args+=(--write "markdown=$summary")
if [ -n "${TAUSIK_SARIF:-}" ]; then
  args+=(--write "sarif=$TAUSIK_SARIF")
fi
if [ -n "${TAUSIK_ARGS:-}" ]; then
  read -r -a extra <<< "$TAUSIK_ARGS"
  args+=("${extra[@]}")
fi
# Files go after --, as positional paths: a comma or a leading dash in a
# name stays part of the name.
files=()
if [ -n "${TAUSIK_FILES:-}" ]; then
  while IFS= read -r f; do
    [ -n "$f" ] && files+=("$f")
  done <<< "$TAUSIK_FILES"
fi
[ ${#files[@]} -eq 0 ] || args+=(-- "${files[@]}")

"${TAUSIK_BIN:-tausik}" "${args[@]}"
code=$?

if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -s "$summary" ]; then
  cat "$summary" >> "$GITHUB_STEP_SUMMARY"
fi
rm -f "$summary"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  echo "exit-code=$code" >> "$GITHUB_OUTPUT"
  if [ -n "${TAUSIK_SARIF:-}" ] && [ -s "$TAUSIK_SARIF" ]; then
    echo "sarif=$TAUSIK_SARIF" >> "$GITHUB_OUTPUT"
  fi
fi
exit 0
