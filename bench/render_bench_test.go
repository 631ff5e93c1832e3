// Package bench measures render against the installer's shell way of doing
// the same job (bench/baseline, compared by bench/compare.sh).
package bench

import (
	"context"
	"net/netip"
	"os"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

func opts(root string) render.Options {
	return render.Options{
		Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"),
		Image:  "quay.io/openshift/origin-apiserver-network-proxy:4.20",
		Getenv: func(string) string { return "" },
	}
}

// BenchmarkRenderFresh: empty root, IP given, ECDSA certificates generated
// from scratch, every file written.
func BenchmarkRenderFresh(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		root, err := os.MkdirTemp(b.TempDir(), "root")
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		rep, err := render.Run(context.Background(), opts(root))
		if err != nil {
			b.Fatal(err)
		}
		if !rep.CertsGenerated || rep.Count(hosttxn.Create) != len(rep.Files) {
			b.Fatalf("not a fresh render: %+v", rep)
		}
	}
}

// BenchmarkRenderUnchanged: the idempotent re-run that writes nothing.
func BenchmarkRenderUnchanged(b *testing.B) {
	root := b.TempDir()
	if _, err := render.Run(context.Background(), opts(root)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rep, err := render.Run(context.Background(), opts(root))
		if err != nil {
			b.Fatal(err)
		}
		if rep.Changed() {
			b.Fatalf("re-run changed files: %+v", rep.Files)
		}
	}
}
