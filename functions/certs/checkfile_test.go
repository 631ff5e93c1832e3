package certs

import (
	"strings"
	"testing"
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
		{"CA certificate", CACert, files[CACert], ""},
		{"server key", ServerKey, files[ServerKey], ""},
		{"truncated certificate", AgentCert, half(files[AgentCert]), "damaged or truncated (no complete PEM block)"},
		{"truncated key", CAKey, half(files[CAKey]), "damaged or truncated (no complete PEM block)"},
		{"key where a certificate belongs", ServerCert, files[ServerKey], `PEM block is "EC PRIVATE KEY", want ["CERTIFICATE"]`},
		{"certificate where a key belongs", AgentKey, files[AgentCert], `PEM block is "CERTIFICATE"`},
		{"data after the block", AgentKey, append(append([]byte{}, files[AgentKey]...), files[AgentKey]...), "unexpected data after the EC PRIVATE KEY block"},
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
