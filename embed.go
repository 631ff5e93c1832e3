// Package konnectivitybundle embeds the kustomize base and overlays, so the
// binary can build the default bundle from any directory.
package konnectivitybundle

import "embed"

// Kustomizations holds base/ and the shipped overlays exactly as they are in
// the repository. The overlays are listed one by one so that a user's own
// overlay kept under overlays/ is never built into the binary; each has a
// reviewed golden file in testdata/golden (a test keeps the two lists equal).
//
//go:embed base overlays/dualstack overlays/ipv4 overlays/ipv6 overlays/sno overlays/upi
var Kustomizations embed.FS
