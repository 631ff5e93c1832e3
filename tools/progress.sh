#!/usr/bin/env bash
# Runs a long step so that its log tells progress from a hang: it prints what
# is starting and the clock time, then every $KB_PROGRESS_INTERVAL seconds
# (default 30) that it is still running, and at the end how long it took.
# Those lines go to stderr; the command's own output is untouched.
#
# Usage: tools/progress.sh LABEL COMMAND [ARG...]
#   KB_PROGRESS_INTERVAL  seconds between "still running" lines (default 30)
#   KB_PROGRESS_LOG       a `go test -v` log being written: each "still
#                         running" line also names the test it last started
# Exits with COMMAND's status.
set -uo pipefail
label=${1:?usage: tools/progress.sh LABEL COMMAND [ARG...]}
shift
interval=${KB_PROGRESS_INTERVAL:-30}
start=$(date +%s)

# last_test names the test a go test -v log last started or resumed.
last_test() {
  [[ -n ${KB_PROGRESS_LOG:-} && -f $KB_PROGRESS_LOG ]] || return 0
  local t
  t=$(grep -E '^=== (RUN|CONT|NAME) ' "$KB_PROGRESS_LOG" 2>/dev/null | tail -n 1 | awk '{print $3}')
  if [[ -n $t ]]; then echo " (in $t)"; fi
}

echo "$label: started at $(date +%T)" >&2
(
  # The sleep is stopped with the ticker, so nothing holds stderr open after.
  trap 'kill "$nap" 2>/dev/null; exit 0' TERM
  while :; do
    sleep "$interval" &
    nap=$!
    wait "$nap"
    echo "$label: still running after $(($(date +%s) - start))s$(last_test)" >&2
  done
) &
beat=$!
# The ticker is ours: stop it by its id however this script ends.
trap 'kill "$beat" 2>/dev/null' EXIT
"$@"
rc=$?
took=$(($(date +%s) - start))
if [[ $rc -eq 0 ]]; then
  echo "$label: done in ${took}s (at $(date +%T))" >&2
else
  echo "$label: FAILED (exit $rc) after ${took}s (at $(date +%T))" >&2
fi
exit "$rc"
