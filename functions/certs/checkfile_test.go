package certs

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// TestCheckFile pins what render refuses in a certificate directory: each
// file must parse as what its name says, with nothing spliced after it.
func TestCheckFile(t *testing.T) {
	files := ensure(t, options(t, "192.0.2.10")).Files
	half := func(b []byte) []byte { return b[:len(b)/2] }
	cases := []struct {
		name, file string
		data       []byte
		want       string // "" means accepted
	}{
		{"CA certificate", hostlayout.CACertFile, files[hostlayout.CACertFile], ""},
		{"server key", hostlayout.ServerKeyFile, files[hostlayout.ServerKeyFile], ""},
		{"truncated certificate", hostlayout.AgentCertFile, half(files[hostlayout.AgentCertFile]), "damaged or truncated (no complete PEM block)"},
		{"truncated key", hostlayout.CAKeyFile, half(files[hostlayout.CAKeyFile]), "damaged or truncated (no complete PEM block)"},
		{"key where a certificate belongs", hostlayout.ServerCertFile, files[hostlayout.ServerKeyFile], `PEM block is "EC PRIVATE KEY", want ["CERTIFICATE"]`},
		{"certificate where a key belongs", hostlayout.AgentKeyFile, files[hostlayout.AgentCertFile], `PEM block is "CERTIFICATE"`},
		{"data after the block", hostlayout.AgentKeyFile, append(append([]byte{}, files[hostlayout.AgentKeyFile]...), files[hostlayout.AgentKeyFile]...), "unexpected data after the EC PRIVATE KEY block"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckFile(tc.file, tc.data)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("CheckFile(%s) = %v, want accepted", tc.file, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("CheckFile(%s) = %v, want an error containing %q", tc.file, err, tc.want)
			}
		})
	}
}
