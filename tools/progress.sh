#!/usr/bin/env bash
# Runs a long step so that its log tells progress from a hang: it prints what
# is starting and the clock time, then every $KB_PROGRESS_INTERVAL seconds
# (default 30) that it is still running, and at the end how long it took.
# Those lines go to stderr; the command's own output is untouched.
#
# Usage: tools/progress.sh LABEL COMMAND [ARG...]
#   KB_PROGRESS_INTERVAL  seconds between "still running" lines (default 30;
#                         a fraction such as 0.2 works, as sleep takes it)
#   KB_PROGRESS_LOG       a `go test -v` or `go test -json` log being
#                         written: each "still running" line also names the
#                         test it last started (-v), or every package still
#                         running with the test it is in (-json; the module
#                         path of ./go.mod left off)
# Exits with COMMAND's status.
set -uo pipefail
label=${1:?usage: tools/progress.sh LABEL COMMAND [ARG...]}
shift
interval=${KB_PROGRESS_INTERVAL:-30}
start=$(date +%s)

# last_test names what the log says is running: for a go test -json log,
# each package started and not finished, with its latest test still
# running; for a go test -v log, the test it last started or resumed.
last_test() {
  [[ -n ${KB_PROGRESS_LOG:-} && -f $KB_PROGRESS_LOG ]] || return 0
  local t
  if [[ $(head -c 1 "$KB_PROGRESS_LOG") == "{" ]]; then
    t=$(json_running "$KB_PROGRESS_LOG")
  else
    t=$(grep -E '^=== (RUN|CONT|NAME) ' "$KB_PROGRESS_LOG" 2>/dev/null | tail -n 1 | awk '{print $3}')
  fi
  if [[ -n $t ]]; then echo " (in $t)"; fi
}

# json_running lists the packages a go test -json log started and did not
# finish, in start order, each with the test it started last among those
# still running: "internal/x: TestY, internal/z".
json_running() {
  local mod=""
  [[ -f go.mod ]] && mod=$(awk '$1 == "module" {print $2; exit}' go.mod)
  awk -v mod="$mod/" '
    function field(key) { return match($0, "\"" key "\":\"[^\"]*\"") ? substr($0, RSTART + length(key) + 4, RLENGTH - length(key) - 5) : "" }
    {
      a = field("Action"); p = field("Package"); t = field("Test")
      if (p == "") next
      if (t == "") {
        if (a == "start") { order[++n] = p; running[p] = 1 }
        else if (a == "pass" || a == "fail" || a == "skip") delete running[p]
      } else if (a == "run") { seq[p, t] = NR }
      else if (a == "pass" || a == "fail" || a == "skip") delete seq[p, t]
    }
    END {
      for (i = 1; i <= n; i++) {
        p = order[i]
        if (!(p in running)) continue
        best = ""; at = 0
        for (k in seq) { split(k, pt, SUBSEP); if (pt[1] == p && seq[k] > at) { at = seq[k]; best = pt[2] } }
        name = index(p, mod) == 1 ? substr(p, length(mod) + 1) : p
        out = out (out == "" ? "" : ", ") name (best == "" ? "" : ": " best)
      }
      print out
    }' "$1"
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
