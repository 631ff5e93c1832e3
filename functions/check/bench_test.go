package check

import "testing"

// BenchmarkCheck measures Check on the full good bundle with certificates.
func BenchmarkCheck(b *testing.B) {
	stream, certs := readGood(b), goodCerts(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(stream)))
	for b.Loop() {
		if _, err := Check(stream, Options{CertFiles: certs}); err != nil {
			b.Fatal(err)
		}
	}
}
