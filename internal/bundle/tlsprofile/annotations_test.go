package tlsprofile

import (
	"strings"
	"testing"
)

// TestAsked: what Annotate records is read back; annotations a patch
// edited into no profile's type or minimum record nothing.
func TestAsked(t *testing.T) {
	s, err := Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	recorded := map[string]string{}
	Annotate(recorded, s)
	for _, tc := range []struct {
		name string
		ann  map[string]string
		ok   bool
	}{
		{"as rendered", recorded, true},
		{"none", map[string]string{}, false},
		{"a forged type", map[string]string{AnnotationProfile: "Inter\x1b[31m\u202e\nfake " + strings.Repeat("A", 5000), AnnotationMinVersion: "VersionTLS13"}, false},
		{"a forged minimum", map[string]string{AnnotationProfile: "Modern", AnnotationMinVersion: "TLS13"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, ok := Asked(tc.ann); ok != tc.ok {
				t.Errorf("Asked ok = %v, want %v", ok, tc.ok)
			}
		})
	}
}
