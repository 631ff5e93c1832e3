#!/usr/bin/env bash
# Prints what a failed `go test -v` run needs a reader to see: for each
# failed test, its own output lines (the last 80, from the streamed -v log,
# attributed by the === RUN/CONT/NAME markers), then where the full log is.
# Usage: tools/e2e-failures.sh LOG
set -euo pipefail
log=${1:?usage: $0 LOG}
awk -v max=80 '
	/^=== (RUN|CONT|NAME|PAUSE) / { cur = $3; next }
	/^ *--- FAIL: / {
		name = $3
		if (!(name in failed)) { failed[name] = 1; order[++n] = name }
		next
	}
	/^ *--- (PASS|SKIP): / { next }
	/^(PASS|FAIL|ok |figure:)/ { cur = ""; next }
	cur != "" {
		c = ++count[cur]
		lines[cur, c] = $0
		if (c > max) delete lines[cur, c - max]
	}
	/^(panic|fatal error):/ { panicked = 1 }
	END {
		for (i = 1; i <= n; i++) {
			t = order[i]
			# a parent fails because a subtest did; print only tests with lines of their own
			if (count[t] == 0) continue
			printf "\n===== %s: its own output (last %d lines) =====\n", t, (count[t] < max ? count[t] : max)
			start = count[t] - max + 1; if (start < 1) start = 1
			for (j = start; j <= count[t]; j++) print lines[t, j]
		}
		if (n == 0 && !panicked) print "\nno --- FAIL line: the test binary did not finish (build error, timeout or panic); see the end of the log"
	}
' "$log"
echo
echo "full log: $(realpath "$log")"
