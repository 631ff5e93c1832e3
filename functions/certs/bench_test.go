package certs

import "testing"

// BenchmarkPlanFresh makes CA, server and agent from nothing (in memory).
func BenchmarkPlanFresh(b *testing.B) {
	for _, bc := range []struct{ name, algo string }{{"ecdsa-p256", "ecdsa"}, {"rsa-2048", "rsa"}} {
		b.Run(bc.name, func(b *testing.B) {
			opts := options(b, "192.0.2.10")
			opts.KeyAlgorithm = bc.algo
			for b.Loop() {
				if _, err := Plan(opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReuse is the idempotent re-run: read, check and keep six files.
func BenchmarkReuse(b *testing.B) {
	for _, bc := range []struct {
		name string
		run  func(Options) (*Result, error)
	}{{"plan", Plan}, {"ensure", Ensure}} {
		b.Run(bc.name, func(b *testing.B) {
			opts := options(b, "192.0.2.10")
			ensure(b, opts)
			for b.Loop() {
				r, err := bc.run(opts)
				if err != nil || r.Generated {
					b.Fatalf("reuse run: %v %+v", err, r)
				}
			}
		})
	}
}
