#!/usr/bin/env bash
# Builds the real components the e2e suite runs (kustomize, proxy-server and
# proxy-agent of every supported proxy version, kube-apiserver, etcd, the
# release callers kas-caller-<minor>; for the real-node test also kubelet,
# kube-controller-manager, kube-scheduler of a pair's minor) from the pinned Go
# modules under tools/, one binary at a time, into _output/bin (or $KB_TOOLS_BIN).
#
# Usage: tools/build.sh [-f|--print] [name...|node|releases]   (no name: all but
#        the node tools and the releases' kube-apiservers; `node`: kubelet,
#        kube-controller-manager, kube-scheduler of the default pair;
#        `releases`: every pair's whole kube-apiserver but the default one)
#   -f       rebuild even when the binary is up to date
#   --print  build nothing: print each name with its module dir and package
#
# The proxy versions are the ones `konnectivity-bundle proxy-version --list`
# prints (internal/proxyversion.Versions): version V is built from the module
# tools/anp-V as proxy-server-V and proxy-agent-V, so adding a version to the
# code and its module here is all it takes.
#
# The release pairs are the code's too (internal/proxyversion.Pairs, printed
# by `go run ./tools/pairs`): a pair proven by its release caller is built from
# tools/kas-caller with its own go.mod, tools/kas-caller/k8s-1.N.mod (go build
# -modfile), as kas-caller-1.N; a pair with a whole kube-apiserver other than
# the one `make test` runs is built from tools/kube-apiserver-1.N as
# kube-apiserver-1.N, only by `tools/build.sh releases` (`make releases`).
# Every pair with a whole kube-apiserver has its node tools too, built from the
# same module (so of the same minor) and named as it is: kubelet-1.N,
# kube-controller-manager-1.N, kube-scheduler-1.N (the default pair's are plain
# kubelet, ...: `tools/build.sh node`). Every kube-apiserver and node tool is
# stamped with the version the table gives its pair.
#
# Idempotent: a binary is rebuilt only when its module's go.mod/go.sum/sources,
# the package path or the Go version changed (recorded in <bin>/.stamps/<name>).
set -euo pipefail

tools=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$tools")
out=${KB_TOOLS_BIN:-$repo/_output/bin}

# name -> "module-dir package"
declare -A spec=(
  [kustomize]="kustomize sigs.k8s.io/kustomize/kustomize/v5"
  [kube-apiserver]="kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver"
  [etcd]="etcd go.etcd.io/etcd/server/v3"
)

force=0 print=0
case ${1:-} in
  -f) force=1; shift ;;
  --print) print=1; shift ;;
esac
names=("$@")

proxies=()
if [[ ${names[*]} != node ]]; then
  # One module per proxy version, named after it; the code holds the list.
  list=$(cd "$repo" && go run ./cmd/konnectivity-bundle proxy-version --list) || {
    echo "tools/build.sh: cannot list the proxy versions (go run ./cmd/konnectivity-bundle proxy-version --list failed)" >&2
    exit 1
  }
  for v in $list; do
    if [[ ! -f $tools/anp-$v/go.mod ]]; then
      echo "tools/build.sh: proxy version $v has no module tools/anp-$v (tools/README.md says how to add one)" >&2
      exit 1
    fi
    spec[proxy-server-$v]="anp-$v sigs.k8s.io/apiserver-network-proxy/cmd/server"
    spec[proxy-agent-$v]="anp-$v sigs.k8s.io/apiserver-network-proxy/cmd/agent"
    proxies+=("proxy-server-$v" "proxy-agent-$v")
  done
fi
# The release pairs' tools, from the table in code.
pairs=$(cd "$repo" && go run ./tools/pairs) || {
  echo "tools/build.sh: cannot list the release pairs (go run ./tools/pairs failed)" >&2
  exit 1
}
# The node tools are slow to build (the kubelet alone takes about twice the
# kube-apiserver's time) and only the real-node test needs them: not in the
# default set. node: the default pair's (make node-e2e); pair_node: the others'.
callers=() releases=() node=() pair_node=()
declare -A kube_version=() # module dir -> the k8s.io/kubernetes tag its pair names
while read -r kind minor name version rest; do
  case $kind in
    caller)
      if [[ ! -f $tools/kas-caller/k8s-$minor.mod || ! -f $tools/kas-caller/k8s-$minor.sum ]]; then
        echo "tools/build.sh: release pair $minor: no tools/kas-caller/k8s-$minor.mod and .sum (tools/README.md says how to add a pair)" >&2
        exit 1
      fi
      spec[$name]="kas-caller . k8s-$minor.mod"
      callers+=("$name") ;;
    kube-apiserver)
      if [[ ! -f $tools/$name/go.mod ]]; then
        echo "tools/build.sh: release pair $minor: no module tools/$name for its kube-apiserver $version (tools/README.md says how to add one)" >&2
        exit 1
      fi
      kube_version[$name]=$version
      if [[ $name != kube-apiserver ]]; then
        spec[$name]="$name k8s.io/kubernetes/cmd/kube-apiserver"
        releases+=("$name")
      fi ;;
    node) # node MINOR TOOL KUBERNETES MODULE COMPONENT
      read -r module component <<<"$rest"
      spec[$name]="$module k8s.io/kubernetes/cmd/$component"
      if [[ $module == kube-apiserver ]]; then node+=("$name"); else pair_node+=("$name"); fi ;;
  esac
done <<<"$pairs"
if [[ -z ${kube_version[kube-apiserver]:-} ]]; then
  echo "tools/build.sh: no release pair names the default kube-apiserver (internal/proxyversion.Pairs: Proof FullKubeAPIServer)" >&2
  exit 1
fi
order=(kustomize "${proxies[@]}" etcd kube-apiserver "${callers[@]}")

# Version stamps so `kube-apiserver --version` tells the truth: the tag the
# pair table gives the module's pair (a pair's node tools share its module).
kube_ldflags() { # module-dir -> the -X flags
  local v=${kube_version[$1]} minor
  minor=${v#v1.}
  minor=${minor%%.*}
  echo "-X k8s.io/component-base/version.gitVersion=$v -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean"
}

if [[ ${#names[@]} -eq 0 ]]; then names=("${order[@]}"); fi
if [[ ${names[*]} == node ]]; then names=("${node[@]}"); fi
if [[ ${names[*]} == releases ]]; then names=("${releases[@]}"); fi
for n in "${names[@]}"; do
  if [[ -z ${spec[$n]:-} ]]; then
    echo "tools/build.sh: unknown tool '$n' (known: ${order[*]} ${node[*]} ${releases[*]} ${pair_node[*]}, or node, or releases)" >&2
    exit 2
  fi
done
if [[ $print -eq 1 ]]; then
  for n in "${names[@]}"; do
    read -r dir _ <<<"${spec[$n]}"
    echo "$n tools/${spec[$n]}${kube_version[$dir]:+ stamped ${kube_version[$dir]}}"
  done
  exit 0
fi

mkdir -p "$out/.stamps"
# Serialise concurrent callers (tests and `make tools` may race on the same output).
exec 9>"$out/.stamps/.lock"
if ! flock -n 9; then
  echo "tools/build.sh: another tools/build.sh holds $out/.stamps/.lock; waiting for it"
  "$tools/progress.sh" "tools/build.sh: waiting for the lock" flock 9
fi

stamp_of() { # module-dir package ldflags modfile -> hash of everything that decides the binary
  local dir=$tools/$1 mod=${4:-go.mod}
  {
    echo "$2 $3${4:+ $4}" # a binary built before modfiles existed keeps its stamp
    go version
    cat "$dir/$mod" "$dir/${mod%.mod}.sum"
    find "$dir" -name '*.go' -type f | LC_ALL=C sort | xargs -r cat
  } | sha256sum | cut -d' ' -f1
}

for n in "${names[@]}"; do
  read -r dir pkg modfile <<<"${spec[$n]}"
  ldflags="-s -w"
  if [[ -n ${kube_version[$dir]:-} ]]; then ldflags="$ldflags $(kube_ldflags "$dir")"; fi
  want=$(stamp_of "$dir" "$pkg" "$ldflags" "$modfile")
  if [[ $force -eq 0 && -x $out/$n && -f $out/.stamps/$n && $(<"$out/.stamps/$n") == "$want" ]]; then
    echo "tools/build.sh: $n is up to date"
    continue
  fi
  echo "tools/build.sh: building $n ($pkg in tools/$dir; minutes on a cold cache)"
  tmp="$out/.$n.tmp"
  rm -f "$tmp" "$out/.stamps/$n"
  # progress.sh says every 30 s that the build is still running: a cold
  # kube-apiserver build is silent for many minutes otherwise.
  "$tools/progress.sh" "tools/build.sh: $n" env -C "$tools/$dir" CGO_ENABLED=0 GOFLAGS="-mod=readonly -buildvcs=false" \
    go build ${modfile:+-modfile="$modfile"} -trimpath -ldflags "$ldflags" -o "$tmp" "$pkg" || {
    echo "tools/build.sh: $n did not build from tools/$dir${modfile:+/$modfile} (go build's errors above)" >&2
    exit 1
  }
  mv -f "$tmp" "$out/$n"
  echo "$want" >"$out/.stamps/$n"
  echo "tools/build.sh: built $out/$n"
done
