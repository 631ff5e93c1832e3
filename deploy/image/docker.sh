# Sourced by deploy/image/build.sh and tools/deps.sh: what the `docker`
# kustomize runs for a containerized KRM function is, judged by what it does,
# not by its name. kustomize runs the first `docker` on PATH (`docker run
# --rm -i --network none --user nobody ...`), so that is the one examined.
#
# docker_kind sets:
#   DOCKER_PATH  that docker's path, empty when there is none
#   DOCKER_KIND  docker      a Docker CLI whose daemon answers
#                podman      a docker that runs podman (Debian's podman-docker)
#                podman-api  a Docker CLI talking to `podman system service`
#                no-daemon   a docker CLI whose daemon (or podman) does not answer
#                missing     no docker on PATH
#   DOCKER_ERR   for no-daemon: the first line of what docker said
docker_kind() {
  DOCKER_PATH=$(command -v docker || true)
  DOCKER_ERR=
  if [[ -z $DOCKER_PATH ]]; then
    DOCKER_KIND=missing
    return
  fi
  local out
  if [[ $(docker --version 2>/dev/null) == podman* ]]; then
    DOCKER_KIND=podman
    out=$(docker info --format '{{.Host.OCIRuntime.Name}}' 2>&1 >/dev/null) || DOCKER_KIND=no-daemon
  elif out=$(docker version --format '{{range .Server.Components}}{{.Name}};{{end}}' 2>&1); then
    DOCKER_KIND=docker
    if [[ $out == *Podman* ]]; then DOCKER_KIND=podman-api; fi
  else
    DOCKER_KIND=no-daemon
  fi
  if [[ $DOCKER_KIND == no-daemon ]]; then
    DOCKER_ERR=$(grep -m1 -v '^$' <<<"$out" || true)
  fi
}

# podman_docker_later prints a working podman-docker `docker` that PATH
# lists after the first one (Debian's /usr/bin/docker behind
# /usr/local/bin/docker), or nothing.
podman_docker_later() {
  local d first=1 IFS=:
  for d in $PATH; do
    [[ -x $d/docker ]] || continue
    if [[ $first == 1 ]]; then first=0; continue; fi
    if [[ $("$d/docker" --version 2>/dev/null) == podman* ]]; then
      echo "$d/docker"
      return
    fi
  done
}
