#!/usr/bin/env bash
# Installs the Debian packages the tests use, only when something is missing:
# iproute2 (ip netns, veth: the e2e topology) and openssl (certificate tests).
set -euo pipefail
need=()
command -v ip >/dev/null || need+=(iproute2)
command -v openssl >/dev/null || need+=(openssl)
if [[ ${#need[@]} -eq 0 ]]; then
  exit 0
fi
if [[ $(id -u) != 0 ]]; then
  echo "tools/deps.sh: missing ${need[*]}; run as root (or apt-get install ${need[*]})" >&2
  exit 1
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
