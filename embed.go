// Package konnectivitybundle embeds the kustomize base and overlays, so the
// binary can build the default bundle from any directory.
package konnectivitybundle

import "embed"

// Kustomizations holds base/ and overlays/ exactly as they are in the repository.
//
//go:embed base overlays
var Kustomizations embed.FS
