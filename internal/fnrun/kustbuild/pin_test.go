package kustbuild

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

const (
	upiPin   = "mirror.example.com:5000/openshift/apiserver-network-proxy:4.20"
	givenRef = "quay.io/example/apiserver-network-proxy:4.21"
	specPin  = "registry.example.com/spec/apiserver-network-proxy:1"
)

// TestImagePin: an image given by --image or KONNECTIVITY_IMAGE never
// replaces an overlay's pin silently. Without a policy the build fails
// naming both references and the flag that means it; --override-pin deploys
// the given image, --keep-pin the pinned one; a given image equal to the
// pin, or an overlay that pins nothing, builds as before. Both kinds of pin
// count: an images: entry (overlays/upi) and spec.image.
func TestImagePin(t *testing.T) {
	specDir := specImageOverlay(t)
	cases := []struct {
		name, target string
		image, env   string
		pin          PinPolicy
		wantErr      []string // substrings; nil = builds
		wantImage    string   // every container's image when it builds
	}{
		{"flag over images: pin", "upi", givenRef, "", PinRefuse, []string{"--image " + givenRef, upiPin, "--override-pin", "--keep-pin"}, ""},
		{"env over images: pin", "upi", "", givenRef, PinRefuse, []string{"KONNECTIVITY_IMAGE " + givenRef, upiPin, "--override-pin"}, ""},
		{"override-pin", "upi", givenRef, "", PinOverride, nil, givenRef},
		{"keep-pin", "upi", givenRef, "", PinKeep, nil, upiPin},
		{"keep-pin with env", "upi", "", givenRef, PinKeep, nil, upiPin},
		{"the pinned reference itself", "upi", upiPin, "", PinRefuse, nil, upiPin},
		{"no pin in the overlay", "ipv4", givenRef, "", PinRefuse, nil, givenRef},
		{"keep-pin without a pin", "ipv4", givenRef, "", PinKeep, nil, givenRef},
		{"flag over spec.image", specDir, givenRef, "", PinRefuse, []string{"--image " + givenRef, "spec.image of KonnectivityBundle", specPin, "--override-pin"}, ""},
		{"override-pin over spec.image", specDir, givenRef, "", PinOverride, nil, givenRef},
		{"keep-pin over spec.image", specDir, givenRef, "", PinKeep, nil, specPin},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{BootstrapIP: inputs(t, "ipv4").BootstrapIP, Image: tc.image, Pin: tc.pin, Getenv: func(k string) string {
				if k == "KONNECTIVITY_IMAGE" {
					return tc.env
				}
				return ""
			}}
			out, err := Build(tc.target, opts)
			if tc.wantErr != nil {
				var pe *PinConflictError
				if !errors.As(err, &pe) {
					t.Fatalf("want a PinConflictError, got %v", err)
				}
				for _, want := range tc.wantErr {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error lacks %q: %v", want, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			images := containerImages(string(out))
			if len(images) != 2 {
				t.Fatalf("want the server's and the agent's image, got %q", images)
			}
			for _, got := range images {
				if got != tc.wantImage {
					t.Errorf("image %s, want %s", got, tc.wantImage)
				}
			}
		})
	}
}

// specImageOverlay is a copy of overlays/upi whose config pins spec.image
// and whose kustomization has no images: entry.
func specImageOverlay(t *testing.T) string {
	tree := tooltest.ExecWiredTree(t)
	dir := filepath.Join(tree, "overlays", "upi")
	kust := filepath.Join(dir, "kustomization.yaml")
	data, err := os.ReadFile(kust)
	if err != nil {
		t.Fatal(err)
	}
	images := "images:\n- name: apiserver-network-proxy\n  newName: mirror.example.com:5000/openshift/apiserver-network-proxy\n  newTag: \"4.20\"\n"
	if !strings.Contains(string(data), images) {
		t.Fatalf("overlays/upi no longer pins the image as this test expects; adapt it:\n%s", data)
	}
	if err := os.WriteFile(kust, []byte(strings.Replace(string(data), images, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	patch := filepath.Join(dir, "config", "config-patch.yaml")
	if data, err = os.ReadFile(patch); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "\nspec:\n") {
		t.Fatalf("the upi config patch has no spec: line:\n%s", data)
	}
	data = []byte(strings.Replace(string(data), "\nspec:\n", "\nspec:\n  image: "+specPin+"\n", 1))
	if err := os.WriteFile(patch, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func containerImages(stream string) []string {
	var out []string
	for _, line := range strings.Split(stream, "\n") {
		if s := strings.TrimSpace(line); strings.HasPrefix(s, "image: ") {
			out = append(out, strings.TrimPrefix(s, "image: "))
		}
	}
	return out
}
