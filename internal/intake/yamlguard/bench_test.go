package yamlguard

import (
	"os"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/kio"
)

// BenchmarkCheck measures the guard on the ipv4 golden bundle next to the
// parse every caller does anyway, so its overhead is read side by side:
//
//	go test ./internal/intake/yamlguard -bench . -benchmem
func BenchmarkCheck(b *testing.B) {
	data, err := os.ReadFile("../../../testdata/golden/ipv4.yaml")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("guard", func(b *testing.B) {
		for b.Loop() {
			if err := Check(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kyaml-parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := kio.FromBytes(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
