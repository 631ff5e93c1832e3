#!/usr/bin/env bash
# Checks that `kustomize build --enable-alpha-plugins` can run the
# containerized functions here (docs/kustomize.md, "Containerized KRM function"): the
# docker kustomize runs (the first on PATH) must work, and run IMAGE with the
# flags kustomize uses. When it cannot, it says why and what to do, and exits
# 1. `make image` runs it after building; it can also be run alone.
#
# Usage: deploy/image/check-wiring.sh [IMAGE]
#   IMAGE  the image kustomize will run (make image passes what it built);
#          without it only the docker itself is checked
#   KB_WIRING_TIMEOUT  seconds the test run of IMAGE may take (60)
#   KB_WIRING_KILL_AFTER  seconds after that SIGTERM a run still there is
#          killed (10); its test sets fractions of a second for both (timeout
#          takes them), so as not to wait them out
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=deploy/image/docker.sh
source "$here/docker.sh"
image=${1:-}

say() { printf 'make image: %s\n' "$@" >&2; }
fail() {
  say "$@"
  exit 1
}
exec_wiring="use the exec wiring, which needs no container runtime: \`make plugins\`, overlays that list base/function and base/check, and \`kustomize build --enable-alpha-plugins --enable-exec\` (docs/kustomize.md, \"Exec KRM function\"); \`konnectivity-bundle build OVERLAY\` needs neither."
built=""
if [[ -n $image ]]; then built=" $image is built in podman's store, where that docker will find it."; fi

# conf_prefix is what a hand-typed kustomize command needs before it for
# podman to run the image: CONTAINERS_CONF, which make exports, when podman
# runs the image with it and fails without it (a root host that needs
# deploy/podman/containers.conf fails with "error setting rlimit type 7").
conf_prefix() {
  [[ -n ${CONTAINERS_CONF:-} && -n $image ]] && command -v podman >/dev/null || return 0
  local run=(podman run --rm --network none --user nobody "$image" version)
  if timeout 60 "${run[@]}" >/dev/null 2>&1 && ! timeout 60 env -u CONTAINERS_CONF "${run[@]}" >/dev/null 2>&1; then
    printf 'CONTAINERS_CONF=%s ' "$CONTAINERS_CONF"
  fi
}

docker_kind
case $DOCKER_KIND in
  missing)
    if command -v podman >/dev/null; then
      fail "kustomize runs container functions with \`docker\`, and there is no docker on PATH." \
        "fix: install a docker that runs podman (Debian: apt-get install podman-docker).$built" \
        "or $exec_wiring"
    fi
    fail "no container runtime: neither docker nor podman is installed, so the container wiring (the overlays, base/container) cannot run here." \
      "fix: $exec_wiring" \
      "Or install podman and podman-docker (Debian), or Docker, and run make image again."
    ;;
  no-daemon)
    msg=("the docker kustomize runs, $DOCKER_PATH (first on PATH), reaches no daemon: $DOCKER_ERR"
      "kustomize build would fail with \"couldn't execute function: exit status 125\"."
      "fix: start its daemon (or set DOCKER_HOST) and run make image again, so the image is in that daemon's store,")
    if command -v podman >/dev/null; then
      conf=$(conf_prefix)
      if later=$(podman_docker_later) && [[ -n $later ]]; then
        msg+=("or put podman's docker, $later, first on PATH where you run kustomize: ${conf}PATH=$(dirname "$later"):\$PATH kustomize build --enable-alpha-plugins ...$built")
      else
        msg+=("or install a docker that runs podman (Debian: apt-get install podman-docker, which adds /usr/bin/docker) and put it first on PATH where you run kustomize: ${conf}PATH=/usr/bin:\$PATH kustomize build --enable-alpha-plugins ...$built")
      fi
    fi
    fail "${msg[@]}" "or $exec_wiring"
    ;;
esac

if [[ -z $image ]]; then
  say "kustomize will run container functions with $DOCKER_PATH ($DOCKER_KIND), which works."
  exit 0
fi

# run_as_kustomize runs the image the way kustomize v5.8.2 runs a function,
# for at most a minute (KB_WIRING_TIMEOUT): podman 4.3's Docker API service can lose the end of
# a `docker run --rm` whose container has exited and leave the client
# waiting for ever (the same bug that loses its exit code), and a check must
# not hang a build. docker run hands a SIGTERM on to the container (its
# --sig-proxy) and goes on waiting, so timeout kills a client still there
# 10 s after the SIGTERM (KB_WIRING_KILL_AFTER; it exits 137 then, 124 when
# the SIGTERM sufficed).
wiring_timeout=${KB_WIRING_TIMEOUT:-60}
kill_after=${KB_WIRING_KILL_AFTER:-10}
run_as_kustomize() {
  timeout --kill-after="$kill_after" "$wiring_timeout" "$@" docker run --rm -i --network none --user nobody --security-opt=no-new-privileges "$image" version </dev/null 2>&1
}
rc=0
out=$(run_as_kustomize env) || rc=$?
if ((rc == 124 || rc == 137)); then
  fail "$DOCKER_PATH ($DOCKER_KIND) did not return from docker run within $wiring_timeout s: the Docker API service lost the container's end (podman issue 18889), and kustomize would hang the same way." \
    "fix: prefer podman-docker (docs/kustomize.md, \"Containerized KRM function\"), or $exec_wiring"
fi
if ((rc != 0)); then
  msg=("$DOCKER_PATH ($DOCKER_KIND) cannot run $image the way kustomize does: $(grep -v '^$' <<<"$out" | tail -n 1)")
  if grep -qE 'rlimit|cgroups in hybrid mode|crun' <<<"$out"; then
    msg+=("fix: podman on this host needs no default rlimits, runc and cgroupfs: export CONTAINERS_CONF=$repo/deploy/podman/containers.conf, also where you run kustomize (docs/kustomize.md, \"The image and bootkube\"),")
  else
    msg+=("fix: run it yourself to see why: docker run --rm --user nobody $image version,")
  fi
  fail "${msg[@]}" "or $exec_wiring"
fi
say "kustomize build --enable-alpha-plugins will run $image with $DOCKER_PATH ($DOCKER_KIND): checked by running it so."
case $DOCKER_KIND in
  podman-api)
    say "warning: that docker talks to podman's Docker API service, which in podman 4.3 loses the exit code of docker run --rm (podman issue 18889): a build the check rejects would still succeed. Prefer podman-docker (docs/kustomize.md, \"Containerized KRM function\")."
    ;;
  podman)
    if [[ -n ${CONTAINERS_CONF:-} ]] && ! out=$(run_as_kustomize env -u CONTAINERS_CONF); then
      say "note: it worked with CONTAINERS_CONF=$CONTAINERS_CONF (make sets it) and fails without it ($(grep -v '^$' <<<"$out" | tail -n 1)): export CONTAINERS_CONF=$CONTAINERS_CONF where you run kustomize."
    fi
    ;;
esac
