#!/usr/bin/env bash
# Builds the konnectivity-bundle image without pulling anything: a static
# binary (CGO_ENABLED=0) stamped with VERSION, FROM scratch. Tags it
# $IMAGE_REPO:$VERSION and $IMAGE_REPO:v1alpha1, the tag base/container names
# (the function's config API version). Prints the versioned reference.
#   VERSION     default: git describe of the checkout
#   IMAGE_REPO  default: localhost/konnectivity-bundle
#   PODMAN      default: podman
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
: "${VERSION:=$(git describe --tags --always --dirty --abbrev=12 2>/dev/null || echo unknown)}"
: "${IMAGE_REPO:=localhost/konnectivity-bundle}"
: "${PODMAN:=podman}"
ctx=_output/image
mkdir -p "$ctx"
# Concurrent callers (parallel test packages) share the build context.
exec 9>"$ctx/.lock"
flock 9
cp deploy/image/Containerfile deploy/image/passwd deploy/image/group "$ctx/"
CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X main.version=$VERSION" \
  -o "$ctx/konnectivity-bundle" ./cmd/konnectivity-bundle
"$PODMAN" build --quiet --pull=never -f "$ctx/Containerfile" \
  -t "$IMAGE_REPO:$VERSION" -t "$IMAGE_REPO:v1alpha1" "$ctx" >/dev/null
echo "$IMAGE_REPO:$VERSION"
