package kustbuild

import (
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// BenchmarkOverlays builds every overlay once per iteration, in-process and
// with the real kustomize CLI running the exec function, side by side so one
// run gives the ratio: benchstat -col /impl (make bench-build).
func BenchmarkOverlays(b *testing.B) {
	b.Run("impl=in-process", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, overlay := range Overlays() {
				if _, err := Build(overlay, inputs(b, overlay)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("impl=kustomize-cli", func(b *testing.B) {
		cli := newKustomizeCLI(b)
		tree := tooltest.ExecWiredTree(b)
		for b.Loop() {
			for _, overlay := range Overlays() {
				dir := filepath.Join(tree, "overlays", overlay)
				if _, err := cli.build(b, dir, inputs(b, overlay), "--enable-alpha-plugins", "--enable-exec"); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkReadSpec is what render's read of the overlay's spec, before its
// one build, costs beside that build, every overlay once per iteration:
// go test ./internal/fnrun/kustbuild -run '^$' -bench ReadSpec -count 6, then
// benchstat -col /step.
func BenchmarkReadSpec(b *testing.B) {
	b.Run("step=read-spec", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, overlay := range Overlays() {
				if _, err := ReadSpec(overlay, inputs(b, overlay)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("step=build-model", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, overlay := range Overlays() {
				if _, err := BuildModel(overlay, inputs(b, overlay)); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
