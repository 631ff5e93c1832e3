package proxyversion

import (
	"errors"
	"strings"
	"testing"
)

// TestFromImage: every release in a family's OpenShift range maps to that
// family, the ends included; an older release is refused naming the oldest
// supported one; references that name no release say why.
func TestFromImage(t *testing.T) {
	cases := []struct {
		ref  string
		want *Version
		err  string
	}{
		{"quay.io/openshift/origin-apiserver-network-proxy:4.14", V028, ""},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.17.3", V028, ""},
		{"quay.io/openshift/origin-apiserver-network-proxy:v4.20.0-rc.1", V028, ""},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.22", V028, ""},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.23", V036, ""},
		{"quay.io/openshift/origin-apiserver-network-proxy:5.0", V036, ""},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.13", nil, "names OpenShift 4.13, older than 4.14, the oldest release this tool supports"},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.9.0", nil, "older than 4.14"},
		{"quay.io/openshift/origin-apiserver-network-proxy:latest", nil, "names no OpenShift release"},
		{"quay.io/openshift/origin-apiserver-network-proxy", nil, "has no tag"},
		{"quay.io/openshift/origin-apiserver-network-proxy@" + testDigest, nil, "is pinned by digest"},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.20@" + testDigest, nil, "is pinned by digest"}, // the digest decides what runs
		{"quay.io/openshift-release-dev/ocp-release:4.13.0-x86_64@" + testDigest, nil, "names OpenShift 4.13, older than 4.14"},
	}
	for _, tc := range cases {
		t.Run(tc.ref, func(t *testing.T) {
			got, err := FromImage(tc.ref)
			switch {
			case tc.err == "" && (err != nil || got != tc.want):
				t.Fatalf("FromImage = %v, %v; want %v", got, err, tc.want)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("FromImage = %v, %v; want an error containing %q", got, err, tc.err)
			}
		})
	}
	var old *oldReleaseError
	if _, err := FromImage("x:4.13"); !errors.As(err, &old) || old.Release != (Release{4, 13}) {
		t.Errorf("4.13 gave %v; want an *OldReleaseError for 4.13", err)
	}
}

// testDigest is a well-formed digest, pinning nothing real.
const testDigest = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

// TestUnsupported: an image whose tag names a release older than the oldest
// supported one is refused whether or not a digest follows the tag (the tag
// still says which release pair it is); any other reference is not.
func TestUnsupported(t *testing.T) {
	cases := []struct {
		ref     string
		refused bool
	}{
		{"quay.io/openshift-release-dev/ocp-release:4.13.0-x86_64", true},
		{"quay.io/openshift-release-dev/ocp-release:4.13.0-x86_64@" + testDigest, true},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.9@" + testDigest, true},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.14@" + testDigest, false},
		{"quay.io/openshift/origin-apiserver-network-proxy:latest@" + testDigest, false},
		{"quay.io/openshift/origin-apiserver-network-proxy@" + testDigest, false},
		{"quay.io/openshift/origin-apiserver-network-proxy:4.22", false},
		{"not a reference", false},
	}
	for _, tc := range cases {
		t.Run(tc.ref, func(t *testing.T) {
			err := Unsupported(tc.ref)
			if got := err != nil; got != tc.refused {
				t.Fatalf("Unsupported(%q) = %v; want refused %v", tc.ref, err, tc.refused)
			}
			if tc.refused && !strings.Contains(err.Error(), "older than 4.14") {
				t.Fatalf("Unsupported(%q) = %v; want it to name the oldest release", tc.ref, err)
			}
		})
	}
}

// TestReleasesAreOneRange: the families' ranges follow each other with no
// gap or overlap, oldest first, and only the newest is open-ended, so every
// release from the oldest on maps to exactly one family.
func TestReleasesAreOneRange(t *testing.T) {
	for i, v := range Versions {
		last := v.OpenShift.Last
		if i == len(Versions)-1 {
			if last != (Release{}) {
				t.Errorf("%s: the newest family's range ends at %s; want it open (and later)", v, last)
			}
			continue
		}
		next := Versions[i+1].OpenShift.First
		if last == (Release{}) || next != (Release{last.Major, last.Minor + 1}) {
			t.Errorf("%s ends at %s but %s starts at %s; want the next minor", v, last, Versions[i+1], next)
		}
	}
	if got := V028.Describe(); got != "v0.28 (OpenShift 4.14 to 4.22)" {
		t.Errorf("V028.Describe() = %q", got)
	}
	if got := V036.Describe(); got != "v0.36 (OpenShift 4.23 and later)" {
		t.Errorf("V036.Describe() = %q", got)
	}
}
