#!/usr/bin/env bash
# The Konnectivity stages of bootkube.sh, written like the installer's own
# stages: each runs the konnectivity-bundle image with podman, with the host
# root mounted, and leaves a .done marker in the asset directory so a
# restarted bootkube.service skips what is done. docs/bootkube.md shows
# where each call goes.
#
#   konnectivity.sh render      before the kube-apiserver render; prints on
#                               stdout the flag that render needs (nothing
#                               when the overlay deploys no tunnel)
#   konnectivity.sh wait        after cluster-bootstrap (which applies the agent
#                               manifests): waits for the tunnel, logs the
#                               verdict and writes wait.json into GATHER_DIR;
#                               fails only when KONNECTIVITY_WAIT_STRICT=true
#   konnectivity.sh teardown    at the end of bootstrap: gathers, then removes
#   konnectivity.sh gather DIR  status.json, metrics.txt and usage.json into host DIR
#
# Environment (the defaults are the bootstrap node's):
#   KONNECTIVITY_BUNDLE_IMAGE  the konnectivity-bundle image (required)
#   KONNECTIVITY_IMAGE         the apiserver-network-proxy image (render) for an
#                              overlay that pins none; an overlay's pin wins
#   KONNECTIVITY_PROXY_VERSION the proxy version the image runs (v0.28 or
#                              v0.36); unset, render asks KONNECTIVITY_IMAGE's
#                              own proxy-server --help (docs/bootkube.md)
#   KONNECTIVITY_OVERLAY       overlay name (default ipv4)
#   HOST_ROOT                  host root (default /); tests pass a scratch root
#   ASSET_DIR                  bootkube's asset dir, mounted as /assets in the
#                              KAS render (default /opt/openshift)
#   KAS_OVERRIDE               the override render writes (default
#                              $ASSET_DIR/konnectivity-config-override.yaml)
#   CLUSTER_KUBECONFIG         kubeconfig for teardown, "" for files only
#                              (default /opt/openshift/auth/kubeconfig)
#   GATHER_DIR                 where teardown gathers (default
#                              /var/log/bootstrap-control-plane/konnectivity,
#                              which openshift-install gather bootstrap copies)
#   KONNECTIVITY_WAIT_TIMEOUT  how long the wait stage waits (default 5m)
#   KONNECTIVITY_WAIT_STRICT   true: the wait stage fails when the tunnel is not
#                              ready; false (default): it logs and goes on
#   OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP  passed to render --bootstrap-ip auto
#   PODMAN                     podman binary (default podman)
set -euo pipefail

HOST_ROOT=${HOST_ROOT:-/}
ASSET_DIR=${ASSET_DIR:-/opt/openshift}
KAS_OVERRIDE=${KAS_OVERRIDE:-$ASSET_DIR/konnectivity-config-override.yaml}
CLUSTER_KUBECONFIG=${CLUSTER_KUBECONFIG-/opt/openshift/auth/kubeconfig}
GATHER_DIR=${GATHER_DIR:-/var/log/bootstrap-control-plane/konnectivity}
KONNECTIVITY_OVERLAY=${KONNECTIVITY_OVERLAY:-ipv4}
PODMAN=${PODMAN:-podman}
KONNECTIVITY_WAIT_TIMEOUT=${KONNECTIVITY_WAIT_TIMEOUT:-5m}
KONNECTIVITY_WAIT_STRICT=${KONNECTIVITY_WAIT_STRICT:-false}
assets="${HOST_ROOT%/}$ASSET_DIR"

log() { echo "konnectivity.sh: $*" >&2; }

# Stopping bootkube.service sends SIGTERM to the stage's processes, podman
# among them, and podman passes it into the container (podman run's
# --sig-proxy, on by default), where render, teardown and certs stop at
# their next safe point (docs/render.md, "Signals"). The script waits for
# that instead of dying first, so the command's own message is shown and
# no .done marker is written.
stopped=
trap 'stopped=1' TERM INT

# bundle runs one konnectivity-bundle command from the image with the host
# root at /host: host network (render detects the bootstrap IP, status reaches
# the server on 127.0.0.1), root (it writes root-owned host files; the image's
# default user is nobody) and no SELinux relabelling of the host root.
# Its stderr is passed on after the command ends, and explained when podman
# could not start the container at all.
# With -i first, the command reads this script's stdin.
# cluster_kubeconfig is CLUSTER_KUBECONFIG as the container sees it under
# /host, or "" (files only) when it is empty.
cluster_kubeconfig() {
  echo "${CLUSTER_KUBECONFIG:+/host$CLUSTER_KUBECONFIG}"
}

bundle() {
  : "${KONNECTIVITY_BUNDLE_IMAGE:?set KONNECTIVITY_BUNDLE_IMAGE to the konnectivity-bundle image}"
  local errf rc=0 stdin=()
  if [[ $1 == -i ]]; then stdin=(--interactive); shift; fi
  errf=$(mktemp)
  "$PODMAN" run --quiet --rm "${stdin[@]}" --net=host --user 0 --security-opt label=disable \
    --env OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP \
    --volume "$HOST_ROOT:/host" "$KONNECTIVITY_BUNDLE_IMAGE" "$@" 2>"$errf" || rc=$?
  cat "$errf" >&2
  # konnectivity-bundle exits 0..11 (docs/commands.md); 125..127 are podman's own: no container ran.
  if ((rc >= 125 && rc < 128)); then explain_podman "$rc" "$errf" "$KONNECTIVITY_BUNDLE_IMAGE"; fi
  rm -f "$errf"
  if [[ -n $stopped ]]; then
    log "stopped by a signal: $1 exited $rc"
    exit $((rc ? rc : 143))
  fi
  return "$rc"
}

# explain_podman names the cause and the fix of a container podman could not
# start, from podman's exit code (125..127: no container ran) and its error:
# an image it could not pull or find (podman 4.3 says "initializing source
# docker://...", "image not known", "manifest unknown", "unable to pull" or
# "unauthorized"), which says nothing about podman itself, or a podman that
# cannot start containers here. On hosts like CI sandboxes (no
# CAP_SYS_RESOURCE, a hybrid cgroup layout) podman's defaults fail;
# docs/bootkube.md says what the stage needs.
explain_podman() {
  local rc=$1 errf=$2 image=$3
  if grep -qE 'initializing source|image not known|manifest unknown|unable to pull|pinging container registry|unauthorized|short-name' "$errf"; then
    log "podman could not pull the image $image (exit $rc; its error is above): podman itself ran. Fix: check the reference, that this host reaches the registry and that podman has credentials for it (podman pull $image shows the same error)."
  elif grep -qE 'rlimit|cgroups in hybrid mode|crun' "$errf"; then
    log "podman could not start the container (exit $rc): this host's podman needs no default rlimits, runc and cgroupfs." \
      "Fix: set CONTAINERS_CONF to a containers.conf that says so (the repository's deploy/podman/containers.conf; docs/bootkube.md, \"What the stage needs from podman\") and run the stage again."
  else
    log "podman could not start the container (exit $rc; its error is above): check that $PODMAN runs images here (docs/bootkube.md, \"What the stage needs from podman\")."
  fi
}

# proxy_version prints the proxy version the image runs: the one given in
# KONNECTIVITY_PROXY_VERSION, else what the image's own proxy-server says
# by the flags its --help lists. The payload's image comes by digest, which
# names no release, and bootkube.sh computes no release version, so asking
# the binary is the one source that cannot be wrong about its flags.
proxy_version() {
  if [[ -n ${KONNECTIVITY_PROXY_VERSION:-} ]]; then
    echo "$KONNECTIVITY_PROXY_VERSION"
    return
  fi
  # No image to ask: an overlay that pins its own names its version too
  # (spec.proxyVersion, as overlays/upi does); render says when it does not.
  [[ -n ${KONNECTIVITY_IMAGE:-} ]] || return 0
  local help errf rc=0
  errf=$(mktemp)
  help=$("$PODMAN" run --quiet --rm --net=none --entrypoint /usr/bin/proxy-server "$KONNECTIVITY_IMAGE" --help 2>"$errf") || rc=$?
  if ((rc != 0)); then
    cat "$errf" >&2
    # One fix per failure: podman's own (125..127) is explain_podman's.
    if ((rc >= 125 && rc < 128)); then
      explain_podman "$rc" "$errf" "$KONNECTIVITY_IMAGE"
      log "so the stage could not ask it which proxy it runs; KONNECTIVITY_PROXY_VERSION (v0.28 for OpenShift 4.14 to 4.22, v0.36 for 4.23 and later) spares the asking"
    else
      log "could not run /usr/bin/proxy-server --help from $KONNECTIVITY_IMAGE (exit $rc) to learn which proxy it runs;" \
        "fix: make the image runnable here, or set KONNECTIVITY_PROXY_VERSION (v0.28 for OpenShift 4.14 to 4.22, v0.36 for 4.23 and later)"
    fi
    rm -f "$errf"
    return 1
  fi
  help+=$'\n'$(<"$errf") # cobra may print --help on either stream
  rm -f "$errf"
  printf '%s\n' "$help" | bundle -i proxy-version --from-help -
}

render_stage() {
  if [[ -f "$assets/konnectivity.done" ]]; then
    log "konnectivity.done exists: the bundle is rendered"
  else
    # The release's image serves overlays that pin none; an overlay's pin
    # (a mirror, say) wins over it (--keep-pin). Without KONNECTIVITY_IMAGE
    # render refuses an overlay that pins no image, naming the fix.
    local args=() version
    if [[ -n ${KONNECTIVITY_IMAGE:-} ]]; then
      args=(--image "$KONNECTIVITY_IMAGE" --keep-pin)
    fi
    version=$(proxy_version)
    if [[ -n $version ]]; then
      args+=(--proxy-version "$version")
    fi
    log "rendering the Konnectivity bundle (overlay $KONNECTIVITY_OVERLAY${version:+, proxy $version})"
    # The overlay is render's argument, after -- so that no name is read
    # as a flag.
    bundle render --root /host --bootstrap-ip auto "${args[@]}" \
      -- "$KONNECTIVITY_OVERLAY" >&2
    touch "$assets/konnectivity.done"
  fi
  # The KAS render runs with $ASSET_DIR mounted at /assets.
  if [[ -f "${HOST_ROOT%/}$KAS_OVERRIDE" ]]; then
    case $KAS_OVERRIDE in
      "$ASSET_DIR"/*) echo "--config-override-files=/assets/${KAS_OVERRIDE#"$ASSET_DIR"/}" ;;
      *) log "$KAS_OVERRIDE is outside $ASSET_DIR, which the KAS render mounts"; exit 1 ;;
    esac
  fi
}

# wait_stage holds bootkube.sh until the tunnel carries webhook calls or
# KONNECTIVITY_WAIT_TIMEOUT passes. The verdict goes to the journal and, as
# JSON, to GATHER_DIR/wait.json for the log bundle. A tunnel that is not ready
# fails the stage only when KONNECTIVITY_WAIT_STRICT=true; a bad setting
# (wait's usage error) or a podman that cannot run fails it either way.
wait_stage() {
  case $KONNECTIVITY_WAIT_STRICT in
    true | false) ;;
    *) log "KONNECTIVITY_WAIT_STRICT=$KONNECTIVITY_WAIT_STRICT: set it to true (fail the stage when the tunnel is not ready) or false"; exit 2 ;;
  esac
  if [[ -f "$assets/konnectivity-wait.done" ]]; then
    log "konnectivity-wait.done exists: the tunnel was waited for"
    return
  fi
  # The same test as render's flag: without the override the kube-apiserver
  # does not use the tunnel (bootstrap-in-place), so nothing waits on it.
  if [[ ! -f "${HOST_ROOT%/}$KAS_OVERRIDE" ]]; then
    log "no $KAS_OVERRIDE: the overlay deploys no tunnel, nothing to wait for"
    touch "$assets/konnectivity-wait.done"
    return
  fi
  # --kubeconfig is always given, "" for files only: without it the command
  # would look in $KUBECONFIG and the root's admin kubeconfig itself.
  local args=(wait --root /host --timeout "$KONNECTIVITY_WAIT_TIMEOUT" --gather "/host$GATHER_DIR" --kubeconfig "$(cluster_kubeconfig)")
  log "waiting up to $KONNECTIVITY_WAIT_TIMEOUT for the tunnel (strict: $KONNECTIVITY_WAIT_STRICT)"
  local verdict rc=0
  verdict=$(bundle "${args[@]}") || rc=$?
  case $rc in
    0) log "$verdict" ;;
    1)
      log "$verdict"
      if [[ $KONNECTIVITY_WAIT_STRICT == true ]]; then
        log "the tunnel is not ready and KONNECTIVITY_WAIT_STRICT=true: failing the stage (verdict in $GATHER_DIR/wait.json)"
        exit 1
      fi
      log "the tunnel is not ready; going on, as KONNECTIVITY_WAIT_STRICT=false (verdict in $GATHER_DIR/wait.json)"
      ;;
    # 10 (wait.json could not be written), 2 (a bad setting), podman's own:
    # the stage cannot tell ready from not ready, so it fails in both modes.
    *) log "wait failed (exit $rc; its error is above)"; exit "$rc" ;;
  esac
  touch "$assets/konnectivity-wait.done"
}

gather_stage() {
  local dir=${1:?usage: konnectivity.sh gather DIR}
  # An unusable tunnel is what a gather is for: record it, do not fail.
  # Files only, as always: the gather records the host, not the cluster.
  bundle status --root /host --gather "/host$dir" --kubeconfig "" >/dev/null || true
  log "status and metrics gathered into $dir (an error writing them is above)"
}

teardown_stage() {
  if [[ -f "$assets/konnectivity-teardown.done" ]]; then
    log "konnectivity-teardown.done exists: the bundle is removed"
    return
  fi
  gather_stage "$GATHER_DIR"
  # teardown reads what used the tunnel before it removes anything and
  # writes usage.json next to status.json, with the kube-apiserver's side.
  local args=(teardown --root /host --gather "/host$GATHER_DIR" --kubeconfig "$(cluster_kubeconfig)")
  local rc=0
  bundle "${args[@]}" >&2 || rc=$?
  case $rc in
    0) ;;
    # 10: the bundle is removed, but the usage report could not be read or
    # written (a full disk, a read-only GATHER_DIR). A log file is no reason
    # to fail bootstrap or to run the teardown again (docs/render.md).
    10) log "the bundle is removed, but the usage report was not gathered into $GATHER_DIR (the reason is above); going on" ;;
    *) log "teardown failed (exit $rc; its error is above)"; exit "$rc" ;;
  esac
  touch "$assets/konnectivity-teardown.done"
}

case ${1:-} in
  render) render_stage ;;
  wait) wait_stage ;;
  teardown) teardown_stage ;;
  gather) shift; gather_stage "$@" ;;
  *) echo "usage: konnectivity.sh render|wait|teardown|gather DIR" >&2; exit 2 ;;
esac
