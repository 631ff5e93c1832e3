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
# The completion tests run each shell's script in that shell; bash's calls
# bash-completion's _get_comp_words_by_ref (internal/cli/completion_shell_test.go).
[[ -f /usr/share/bash-completion/bash_completion ]] || need+=(bash-completion)
command -v zsh >/dev/null || need+=(zsh)
command -v fish >/dev/null || need+=(fish)
# Firewall rules (internal/bundle/firewall): applied in network namespaces with nft and
# iptables/ip6tables; firewalld's rich rules checked with firewall-offline-cmd.
command -v nft >/dev/null || need+=(nftables)
command -v iptables >/dev/null || need+=(iptables)
command -v firewall-offline-cmd >/dev/null || need+=(firewalld)
# Containers: podman runs the image, kube play and the agent (with runc; see
# deploy/podman/containers.conf); kustomize runs container functions with the
# first docker on PATH. podman-docker provides one that runs podman; it is
# installed unless that docker works, judged by what it does
# (deploy/image/docker.sh): a Docker CLI whose daemon does not answer, as on
# many CI images, does not count.
command -v podman >/dev/null || need+=(podman)
command -v runc >/dev/null || need+=(runc)
# Only recommended by podman, but kube play's infra (pause) container is built from it.
[[ -x /usr/libexec/podman/catatonit ]] || need+=(catatonit)
# shellcheck source=deploy/image/docker.sh
source "$(dirname "${BASH_SOURCE[0]}")/../deploy/image/docker.sh"
docker_kind
podman_docker=0
if dpkg-query -W -f '${Status}' podman-docker 2>/dev/null | grep -q 'ok installed'; then podman_docker=1; fi
case $DOCKER_KIND in
  docker | podman | podman-api) ;;
  *) [[ $podman_docker == 1 ]] || need+=(podman-docker) ;;
esac
# note_docker says, after any install, when the docker kustomize runs still
# does not work (a daemonless Docker CLI ahead of podman's on PATH). The tests
# do not need it (they put their own docker first); make image explains the fix.
note_docker() {
  docker_kind
  case $DOCKER_KIND in
    missing | no-daemon)
      echo "tools/deps.sh: note: the docker kustomize would run (${DOCKER_PATH:-none on PATH}) does not work${DOCKER_ERR:+: $DOCKER_ERR}; run make image for the fix" >&2
      ;;
  esac
}
# The real-node test (make node-e2e): containerd with its CRI plugin, and the
# CNI bridge plugin it wires pods with.
command -v containerd >/dev/null || need+=(containerd)
[[ -x /usr/lib/cni/bridge ]] || need+=(containernetworking-plugins)
if [[ ${#need[@]} -eq 0 ]]; then
  note_docker
  exit 0
fi
if [[ $(id -u) != 0 ]]; then
  echo "tools/deps.sh: missing ${need[*]}; run as root or install them with apt-get" >&2
  exit 1
fi
echo "tools/deps.sh: installing ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
note_docker
