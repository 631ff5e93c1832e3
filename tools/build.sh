#!/usr/bin/env bash
# Builds the real components the e2e suite runs (kustomize, proxy-server and
# proxy-agent of every supported proxy version, kube-apiserver, etcd, the
# release callers kas-caller-<minor>; for the real-node test also kubelet,
# kube-controller-manager, kube-scheduler) from the pinned Go modules under tools/,
# one binary at a time, into _output/bin (or $KB_TOOLS_BIN).
#
# Usage: tools/build.sh [-f|--print] [name...|node]   (no name: all but the node
#        tools; `node`: kubelet, kube-controller-manager, kube-scheduler)
#   -f       rebuild even when the binary is up to date
#   --print  build nothing: print each name with its module dir and package
#
# The proxy versions are the ones `konnectivity-bundle proxy-version --list`
# prints (internal/proxyversion.Versions): version V is built from the module
# tools/anp-V as proxy-server-V and proxy-agent-V, so adding a version to the
# code and its module here is all it takes.
#
# The release callers are the pairs internal/proxyversion.Pairs proves with
# ReleaseCaller: pair 1.N is built from tools/kas-caller with its own go.mod,
# tools/kas-caller/k8s-1.N.mod (go build -modfile), as kas-caller-1.N.
# TestCallerModulesArePairs holds those files to the table, one each.
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
  [kubelet]="kube-apiserver k8s.io/kubernetes/cmd/kubelet"
  [kube-controller-manager]="kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager"
  [kube-scheduler]="kube-apiserver k8s.io/kubernetes/cmd/kube-scheduler"
)
# The node tools are slow to build (the kubelet alone takes about twice the
# kube-apiserver's time) and only `make node-e2e` needs them: not in the default set.
node=(kubelet kube-controller-manager kube-scheduler)

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
# One go.mod per release pair the callers prove, beside the one source.
callers=()
for mod in "$tools"/kas-caller/k8s-*.mod; do
  [[ -e $mod ]] || continue
  minor=${mod##*/k8s-}
  minor=${minor%.mod}
  if [[ ! -f ${mod%.mod}.sum ]]; then
    echo "tools/build.sh: release pair $minor: tools/kas-caller/k8s-$minor.mod has no k8s-$minor.sum (run go mod tidy -modfile=k8s-$minor.mod there)" >&2
    exit 1
  fi
  spec[kas-caller-$minor]="kas-caller . k8s-$minor.mod"
  callers+=("kas-caller-$minor")
done
order=(kustomize "${proxies[@]}" etcd kube-apiserver "${callers[@]}")

# Version stamps so `kube-apiserver --version` and `etcd --version` tell the truth.
kas_ldflags="-X k8s.io/component-base/version.gitVersion=v1.35.4 -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=35 -X k8s.io/component-base/version.gitTreeState=clean"

if [[ ${#names[@]} -eq 0 ]]; then names=("${order[@]}"); fi
if [[ ${names[*]} == node ]]; then names=("${node[@]}"); fi
for n in "${names[@]}"; do
  if [[ -z ${spec[$n]:-} ]]; then
    echo "tools/build.sh: unknown tool '$n' (known: ${order[*]} ${node[*]}, or node)" >&2
    exit 2
  fi
done
if [[ $print -eq 1 ]]; then
  for n in "${names[@]}"; do echo "$n tools/${spec[$n]}"; done
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
    echo "$2 $3 $mod"
    go version
    cat "$dir/$mod" "$dir/${mod%.mod}.sum"
    find "$dir" -name '*.go' -type f | LC_ALL=C sort | xargs -r cat
  } | sha256sum | cut -d' ' -f1
}

for n in "${names[@]}"; do
  read -r dir pkg modfile <<<"${spec[$n]}"
  ldflags="-s -w"
  if [[ $dir == kube-apiserver ]]; then ldflags="$ldflags $kas_ldflags"; fi
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
    go build ${modfile:+-modfile="$modfile"} -trimpath -ldflags "$ldflags" -o "$tmp" "$pkg"
  mv -f "$tmp" "$out/$n"
  echo "$want" >"$out/.stamps/$n"
  echo "tools/build.sh: built $out/$n"
done
