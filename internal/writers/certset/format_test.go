package certset

import (
	"bytes"
	"testing"
)

// TestCertsWording holds certs' text line for line: the set reused, the
// set written (named under the directory as it was given), and the notes.
func TestCertsWording(t *testing.T) {
	cases := []struct {
		name       string
		rep        Report
		text, note string
	}{
		{"reused", Report{Dir: "tls", Reason: "certificates for 192.0.2.10 in tls are valid until 2030-01-01T00:00:00Z"},
			"reused tls: certificates for 192.0.2.10 in tls are valid until 2030-01-01T00:00:00Z\n", ""},
		{"written after a clean-up", Report{Dir: "/r/tls", Written: []string{"server.crt", "server.key"}, Reason: "bootstrap IP changed from 192.0.2.10 to 2001:db8::10",
			Recovered: "an interrupted certs was undone", Swept: []string{"/r/tls/.ca.key.tmp-7"}},
			"wrote /r/tls/server.crt /r/tls/server.key\ngenerated because bootstrap IP changed from 192.0.2.10 to 2001:db8::10\n",
			"recovered: an interrupted certs was undone\nremoved /r/tls/.ca.key.tmp-7: a temporary file an older certs left\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var text, notes bytes.Buffer
			if err := tc.rep.WriteText(&text); err != nil {
				t.Fatal(err)
			}
			tc.rep.WriteNotes(&notes)
			if text.String() != tc.text {
				t.Errorf("text:\n%s\nwant:\n%s", text.String(), tc.text)
			}
			if notes.String() != tc.note {
				t.Errorf("notes:\n%s\nwant:\n%s", notes.String(), tc.note)
			}
		})
	}
}
