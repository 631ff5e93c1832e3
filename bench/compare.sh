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
  --command-name render-rerun --prepare true "$bin render -q --root $work/again --bootstrap-ip $ip --image $image"

# results.csv: command,mean,stddev,median,user,system,min,max (seconds)
awk -F, '
  NR > 1 { mean[$1] = $2; median[$1] = $4 }
  END {
    printf "\nfresh render (ECDSA, all files written, fsynced): %.1f ms mean vs baseline %.1f ms: %.1fx faster (target 20x)\n",
      mean["render-fresh"] * 1000, mean["baseline"] * 1000, mean["baseline"] / mean["render-fresh"]
    printf "median ratio: %.1fx\n", median["baseline"] / median["render-fresh"]
    printf "unchanged re-run (whole process, start-up included): %.1f ms mean\n", mean["render-rerun"] * 1000
  }' "$work/results.csv"

echo
echo "in-process (go test -bench ./bench):"
(cd "$repo" && go test -run '^$' -bench . -benchtime 20x ./bench | grep -E '^Benchmark')
