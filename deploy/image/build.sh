#!/usr/bin/env bash
# Builds the konnectivity-bundle image without pulling anything: a static
# binary (CGO_ENABLED=0) stamped with VERSION, FROM scratch. Tags it
# $IMAGE_REPO:$VERSION and $IMAGE_REPO:v1alpha1, the tag base/container names
# (the function's config API version). Prints the versioned reference.
#
# Usage: deploy/image/build.sh [--for-kustomize]
#   --for-kustomize  (make image) build it where the `docker` that kustomize
#                    runs will find it, then run it the way kustomize does;
#                    when that cannot work here, say why and what to do as a
#                    warning, and still exit 0 (exit 1 only when no image
#                    could be built). Without it the image is built with $PODMAN.
#   VERSION     default: git describe of the checkout
#   IMAGE_REPO  default: localhost/konnectivity-bundle
#   PODMAN      default: podman
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$repo"
: "${VERSION:=$(git describe --tags --always --dirty --abbrev=12 2>/dev/null || echo unknown)}"
: "${IMAGE_REPO:=localhost/konnectivity-bundle}"
: "${PODMAN:=podman}"
for_kustomize=0
case ${1:-} in
  --for-kustomize) for_kustomize=1 ;;
  "") ;;
  *) echo "usage: deploy/image/build.sh [--for-kustomize]" >&2; exit 2 ;;
esac

say() { echo "make image: $*" >&2; }
# shellcheck source=deploy/image/docker.sh
source "$here/docker.sh"

# builder is the CLI that builds: podman, or a docker whose store kustomize's
# docker reads. build_flags are its flags that keep it from pulling.
builder=$PODMAN
build_flags=(--pull=never)
if [[ $for_kustomize == 1 ]]; then
  docker_kind
  case $DOCKER_KIND in
    docker | podman-api) builder=docker build_flags=() ;;
  esac
  if [[ $builder == "$PODMAN" ]] && ! command -v "$PODMAN" >/dev/null; then
    "$here/check-wiring.sh"
    exit 1
  fi
fi

ctx=_output/image
mkdir -p "$ctx"
# Concurrent callers (parallel test packages) share the build context.
exec 9>"$ctx/.lock"
flock 9
cp deploy/image/Containerfile deploy/image/passwd deploy/image/group "$ctx/"
"$repo/tools/progress.sh" "image: go build of the binary" env CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X main.version=$VERSION" \
  -o "$ctx/konnectivity-bundle" ./cmd/konnectivity-bundle
"$repo/tools/progress.sh" "image: $builder build of $IMAGE_REPO:$VERSION" \
  "$builder" build --quiet "${build_flags[@]}" -f "$ctx/Containerfile" \
  -t "$IMAGE_REPO:$VERSION" -t "$IMAGE_REPO:v1alpha1" "$ctx" >/dev/null
echo "$IMAGE_REPO:$VERSION"
# The image is built: a docker that cannot run it is a warning about the
# container wiring, not a failed build (the exec wiring and
# `konnectivity-bundle build` need no docker).
if [[ $for_kustomize == 1 ]] && ! "$here/check-wiring.sh" "$IMAGE_REPO:v1alpha1"; then
  say "warning: $IMAGE_REPO:$VERSION is built, but kustomize's container wiring cannot run it here (the cause and the fix are above)."
fi
