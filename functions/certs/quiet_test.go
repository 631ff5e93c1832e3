package certs

import (
	"bytes"
	"log"
	"testing"
	"testing/cryptotest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	cflog "github.com/cloudflare/cfssl/log"
)

// TestQuiet: generating prints nothing. cfssl's csr package logs through
// the standard logger; the first half proves the capture sees its lines at
// its default level, the second that this package's level silences them.
func TestQuiet(t *testing.T) {
	var buf bytes.Buffer
	orig := log.Writer()
	log.SetOutput(&buf)
	defer log.SetOutput(orig)
	level := cflog.Level
	defer func() { cflog.Level = level }()

	cflog.Level = cflog.LevelInfo
	if _, err := Plan(options(t, "192.0.2.10")); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte("generating key")) {
		t.Fatalf("capture saw no cfssl output at LevelInfo: %q", buf.String())
	}
	buf.Reset()
	cflog.Level = level
	if _, err := Plan(options(t, "192.0.2.10")); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != 0 {
		t.Errorf("generation printed: %q", buf.String())
	}
}

// TestReproducible: with a fixed random stream and clock, generation is a
// pure function of its inputs, which golden files depend on.
func TestReproducible(t *testing.T) {
	for _, algo := range []string{"ecdsa", "rsa"} {
		t.Run(algo, func(t *testing.T) {
			plan := func(seed uint64) *Result {
				cryptotest.SetGlobalRandom(t, seed)
				opts := options(t, "192.0.2.10")
				opts.KeyAlgorithm = algo
				r, err := Plan(opts)
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			a, b, c := plan(1), plan(1), plan(2)
			for _, n := range hostlayout.CertFileNames {
				if !bytes.Equal(a.Files[n], b.Files[n]) {
					t.Errorf("%s differs between two runs with the same seed", n)
				}
				if bytes.Equal(a.Files[n], c.Files[n]) {
					t.Errorf("%s is the same for different seeds", n)
				}
			}
		})
	}
}
