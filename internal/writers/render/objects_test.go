package render

import (
	"strings"
	"testing"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// placed is a document with render's placement annotations.
func placed(apiVersion, kind, name, placement, hostPath, rest string) string {
	return "apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata:\n  name: " + name +
		"\n  namespace: ns\n  annotations:\n    bundle.konnectivity.io/placement: " + placement +
		"\n    bundle.konnectivity.io/host-path: " + hostPath + "\n" + rest
}

// TestCheckPlacements: every object names where it goes, inside the root,
// each to its own file; the errors name objects by bundlemodel's identity.
func TestCheckPlacements(t *testing.T) {
	ok := placed("v1", "ConfigMap", "a", "cluster-manifest", "/opt/a.yaml", "")
	cases := []struct{ name, stream, err string }{
		{"placed", ok + "---\n" + placed("v1", "ConfigMap", "b", "static-pod", "/etc/b.yaml", ""), ""},
		{"no placement", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
			"v1 ConfigMap a has no bundle.konnectivity.io/placement annotation, so render does not know where it goes"},
		{"unknown placement", placed("v1", "ConfigMap", "a", "anywhere", "/opt/a.yaml", ""),
			`v1 ConfigMap ns/a: unknown bundle.konnectivity.io/placement "anywhere"`},
		{"relative path", placed("v1", "ConfigMap", "a", "cluster-manifest", "opt/a.yaml", ""),
			`v1 ConfigMap ns/a: bundle.konnectivity.io/host-path: "opt/a.yaml" is not absolute`},
		{"unclean path", placed("v1", "ConfigMap", "a", "cluster-manifest", "/opt/../a.yaml", ""),
			`v1 ConfigMap ns/a: bundle.konnectivity.io/host-path: "/opt/../a.yaml" is not a clean file path`},
		{"one file twice", ok + "---\n" + placed("apps/v1", "DaemonSet", "b", "cluster-manifest", "/opt/a.yaml", ""),
			"v1 ConfigMap ns/a and apps/v1 DaemonSet ns/b both have bundle.konnectivity.io/host-path /opt/a.yaml"},
	}
	for _, tc := range cases {
		m, err := bundlemodel.Parse([]byte(tc.stream))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = checkPlacements(m.Objects)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		}
	}
}

// TestCheckPinned: without --image, no container of a Pod or a workload's
// template may keep the generator's placeholder image.
func TestCheckPinned(t *testing.T) {
	pod := func(image string) string {
		return placed("v1", "Pod", "server", "static-pod", "/etc/p.yaml", "spec:\n  containers:\n  - name: c\n    image: "+image+"\n")
	}
	ds := func(image string) string {
		return placed("apps/v1", "DaemonSet", "agent", "cluster-manifest", "/opt/d.yaml",
			"spec:\n  template:\n    spec:\n      containers:\n      - name: other\n        image: busybox\n      - name: c\n        image: "+image+"\n")
	}
	cases := []struct{ name, stream, inError string }{
		{"pinned", pod("quay.io/x/y:1") + "---\n" + ds("quay.io/x/y:1"), ""},
		{"pod placeholder", pod(bundlev1.DefaultImage), "Pod server of overlay"},
		{"template placeholder", pod("quay.io/x/y:1") + "---\n" + ds(bundlev1.DefaultImage), "DaemonSet agent of overlay"},
		{"no containers", placed("v1", "ConfigMap", "a", "cluster-manifest", "/opt/a.yaml", "data:\n  image: "+bundlev1.DefaultImage+"\n"), ""},
	}
	for _, tc := range cases {
		m, err := bundlemodel.Parse([]byte(tc.stream))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = checkPinned(m, "")
		switch {
		case tc.inError == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.inError != "" && (err == nil || !strings.Contains(err.Error(), tc.inError) || !strings.Contains(err.Error(), bundlev1.DefaultImage)):
			t.Errorf("%s: error %v, want one naming %q and the placeholder", tc.name, err, tc.inError)
		}
	}
}
