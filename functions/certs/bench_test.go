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

// BenchmarkReuse is the idempotent re-run's decision: read, check and keep
// six files (internal/writers/certset's BenchmarkEnsureDirReuse adds the
// journaled writer's lock and comparison).
func BenchmarkReuse(b *testing.B) {
	opts := options(b, "192.0.2.10")
	ensure(b, opts)
	for b.Loop() {
		r, err := Plan(opts)
		if err != nil || r.Generated {
			b.Fatalf("reuse run: %v %+v", err, r)
		}
	}
}
