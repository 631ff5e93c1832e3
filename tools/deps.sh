#!/usr/bin/env bash
# Installs the Debian packages the tests and benchmarks use, only when one is
# missing, so it is a no-op on a prepared machine and works on a fresh one.
set -euo pipefail
need=()
command -v openssl >/dev/null || need+=(openssl)
command -v ip >/dev/null || need+=(iproute2)
command -v diff >/dev/null || need+=(diffutils)
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v envsubst >/dev/null || need+=(gettext-base)
command -v flock >/dev/null || need+=(util-linux)
command -v strace >/dev/null || need+=(strace)
command -v nft >/dev/null || need+=(nftables)
# Containers: podman runs the image, kube play and the agent (with runc; see
# deploy/podman/containers.conf); kustomize runs container functions with a
# docker CLI, which podman-docker provides when no docker CLI is installed.
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
# Only recommended by podman, but kube play's infra (pause) container is built from it.
[[ -x /usr/libexec/podman/catatonit ]] || need+=(catatonit)
command -v docker >/dev/null || need+=(podman-docker)
if [[ ${#need[@]} -eq 0 ]]; then exit 0; fi
if [[ $(id -u) != 0 ]]; then
  echo "tools/deps.sh: missing ${need[*]}; run as root or install them with apt-get" >&2
  exit 1
fi
echo "tools/deps.sh: installing ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
