#!/usr/bin/env bash
# Turns a `go test -json` stream (stdin) into what a plain `go test` prints:
# each package's result line (ok, FAIL, no test files), everything a failing
# test printed, build errors, and the "figure:" lines tests log as they
# come. A passing test's own lines are left out; the JSON log keeps them.
#
# Usage: go test -json ./... | tee LOG | tools/gotest-text.sh
# make test runs its unit stage so: tools/progress.sh names, from LOG, the
# packages and tests still running.
set -euo pipefail
exec awk '
# field returns the string value of key in a go test -json line ("" when
# absent), its JSON escapes decoded.
function field(line, key,    m, v) {
  if (!match(line, "\"" key "\":\"([^\"\\\\]|\\\\.)*\"")) return ""
  v = substr(line, RSTART + length(key) + 4, RLENGTH - length(key) - 5)
  gsub(/\\n/, "\n", v); gsub(/\\t/, "\t", v); gsub(/\\r/, "\r", v)
  gsub(/\\u003c/, "<", v); gsub(/\\u003e/, ">", v); gsub(/\\u0026/, "\\&", v)
  gsub(/\\"/, "\"", v); gsub(/\\\\/, "\\", v)
  return v
}
!/^\{/ { print; fflush(); next }   # not JSON: go test itself (a vet or setup error)
{
  action = field($0, "Action"); pkg = field($0, "Package"); test = field($0, "Test")
  out = field($0, "Output")
  if (action == "build-output") { printf "%s", out; fflush(); next }
  if (test == "") {
    if (action == "output" && out != "PASS\n") { printf "%s", out; fflush() }
    next
  }
  key = pkg SUBSEP test
  if (action == "output") {
    buf[key] = buf[key] out
    if (out ~ /^ *[^ ]+\.go:[0-9]+: figure:/) { printf "%s", out; fflush() }
  } else if (action == "fail") {
    printf "%s", buf[key]; fflush(); delete buf[key]
  } else if (action == "pass" || action == "skip") {
    delete buf[key]
  }
}'
