#!/usr/bin/env bash
# Runs the installer-style shell baseline (bench/baseline/render.sh) and
# `konnectivity-bundle render` side by side in one hyperfine run, prints the
# ratio, then the in-process Go benchmarks. `make bench` calls this.
#
# Env: RUNS (default 15), KEEP=1 keeps the scratch directory.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-15}
ip=192.0.2.10
image=quay.io/openshift/origin-apiserver-network-proxy:4.20

need() { # need COMMAND DEBIAN-PACKAGE
  command -v "$1" >/dev/null && return
  echo "installing $2 (for $1)" >&2
  { apt-get update -qq && apt-get install -y -qq "$2"; } >/dev/null
}
need hyperfine hyperfine
need openssl openssl
need envsubst gettext-base

work=$(mktemp -d)
[[ ${KEEP:-} == 1 ]] || trap 'rm -rf "$work"' EXIT
bin=$work/konnectivity-bundle
(cd "$repo" && go build -o "$bin" ./cmd/konnectivity-bundle)

fresh_prep="sh -c 'rm -rf $work/b $work/k && mkdir $work/b $work/k'"
render="$bin render -q --root $work/k --bootstrap-ip $ip --image $image"
mkdir -p "$work/again"
"$bin" render -q --root "$work/again" --bootstrap-ip "$ip" --image "$image"

hyperfine -N --warmup 2 --runs "$runs" --export-csv "$work/results.csv" \
  --command-name baseline --prepare "$fresh_prep" "$repo/bench/baseline/render.sh $work/b $ip $image" \
  --command-name render-fresh --prepare "$fresh_prep" "$render" \
  --command-name render-rerun --prepare true "$bin render -q --root $work/again --bootstrap-ip $ip --image $image" \
  --command-name version --prepare true "$bin version"

# results.csv: command,mean,stddev,median,user,system,min,max (seconds)
awk -F, '
  NR > 1 { mean[$1] = $2; median[$1] = $4 }
  END {
    printf "\nfigure: fresh render (ECDSA, all files written, fsynced) median %.1f ms vs baseline %.1f ms: %.1fx (target 20x)\n",
      median["render-fresh"] * 1000, median["baseline"] * 1000, median["baseline"] / median["render-fresh"]
    printf "figure: unchanged re-run, whole process, median %.1f ms (target 15 ms)\n", median["render-rerun"] * 1000
    printf "figure: version alone (process start-up), median %.1f ms\n", median["version"] * 1000
  }' "$work/results.csv"

# Package initialisers: the fastest of 15 runs per package, so that a busy
# machine inflates them less; the biggest ten and their sum.
for _ in $(seq 15); do GODEBUG=inittrace=1 "$bin" version 2>&1 >/dev/null; done |
  awk '$1 == "init" { if (!($2 in best) || $5 < best[$2]) best[$2] = $5 }
       END { for (p in best) { sum += best[p]; print best[p], p } print sum, "TOTAL" }' |
  sort -rn | awk '$2 == "TOTAL" { printf "figure: package initialisers, sum of per-package minimums %.1f ms\n", $1; next }
                  n++ < 10 { printf "figure:   init %-55s %.2f ms\n", $2, $1 }'

echo
echo "in-process (go test -bench ./bench):"
(cd "$repo" && go test -run '^$' -bench . -benchtime 20x ./bench | grep -E '^Benchmark')
