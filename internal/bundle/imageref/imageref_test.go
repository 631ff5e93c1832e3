package imageref

import (
	"strings"
	"testing"
)

// TestCheck: the references the kubelet's runtime takes pass, every other
// is an *Error quoting it.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		ref string
		ok  bool
	}{
		{"quay.io/openshift/origin-apiserver-network-proxy:4.20", true},
		{"apiserver-network-proxy", true},
		{"quay.io/x/y@sha256:" + strings.Repeat("a", 64), true},
		{"BAD IMAGE", false},
		{"quay.io/Upper/case:1", false},
		{"quay.io/x/y@sha256:abc", false},
		{"", false},
	} {
		err := Check(tc.ref)
		if (err == nil) != tc.ok {
			t.Errorf("Check(%q) = %v, want ok %v", tc.ref, err, tc.ok)
		}
		if err != nil && !strings.HasPrefix(err.Error(), `"`+tc.ref+`" is not a valid image reference: `) {
			t.Errorf("Check(%q) says %q", tc.ref, err)
		}
	}
}

// TestFlags: a flag keeps a good reference and refuses a bad one with the
// fix; the list form checks each of IMAGE_A,IMAGE_B.
func TestFlags(t *testing.T) {
	var one string
	if err := (Flag{P: &one}).Set("BAD IMAGE"); err == nil || !strings.Contains(err.Error(), "(fix: "+Fix+")") || one != "" {
		t.Errorf("Set(BAD IMAGE) = %v, kept %q", err, one)
	}
	if err := (Flag{P: &one}).Set("quay.io/x/y:4.20"); err != nil || one != "quay.io/x/y:4.20" {
		t.Errorf("Set(good) = %v, kept %q", err, one)
	}
	var list []string
	if s := (ListFlag{P: &list}).String(); s != "" {
		t.Errorf("an unset list says %q; --help would show it as a default", s)
	}
	if err := (ListFlag{P: &list}).Set("quay.io/x/y:4.20,BAD IMAGE"); err == nil {
		t.Error("ListFlag took a bad second reference")
	}
	list = nil
	if err := (ListFlag{P: &list}).Set("quay.io/x/y:4.20,quay.io/x/y:4.23"); err != nil || len(list) != 2 {
		t.Errorf("ListFlag = %v, %v", err, list)
	}
}
