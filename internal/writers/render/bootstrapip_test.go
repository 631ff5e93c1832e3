package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestBootstrapIPFlagAndOverlay: --bootstrap-ip and an overlay's
// spec.bootstrapIP follow bootstrapip.Resolve (upi pins 192.0.2.10).
func TestBootstrapIPFlagAndOverlay(t *testing.T) {
	cases := []struct {
		name, overlay, flag string
		want                string // the IP rendered for; "" = an input error
		errField, errText   string
	}{
		{"overlay only", "upi", "", testIP, "", ""},
		{"both agree", "upi", testIP, testIP, "", ""},
		{"auto takes the overlay's", "upi", autoIP, testIP, "", ""},
		{"both differ", "upi", "192.0.2.99", "", "--bootstrap-ip", "192.0.2.99 disagrees with overlay upi's spec.bootstrapIP 192.0.2.10"},
		{"neither", "ipv4", "", "", "--bootstrap-ip", "was not given"},
		{"wrong family", "ipv6", testIP, "", "--bootstrap-ip", "but overlay ipv6 is for IPv6"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := baseOpts(t.TempDir())
			opts.Overlay, opts.Image = tc.overlay, ""
			setIP(&opts, tc.flag)
			if tc.overlay != "upi" {
				opts.Image = testImage
			}
			expectSettled(t, opts, tc.want, tc.errField, tc.errText)
		})
	}
}

// TestBootstrapIPOverlayOwnAddress: an overlay's own spec.bootstrapIP is
// settled before the build like the flag: an unusable one, or one of
// another family than the overlay's, is bad input naming the field at
// fault, and auto never detects over it.
func TestBootstrapIPOverlayOwnAddress(t *testing.T) {
	cases := []struct {
		name, spec, flag  string
		want              string // the IP rendered for; "" = an input error
		errField, errText string
	}{
		{"usable", "192.0.2.10", "", testIP, "", ""},
		{"written another way", "::ffff:192.0.2.10", autoIP, testIP, "", ""},
		{"loopback", "127.0.0.1", "", "", "overlay spec.bootstrapIP", `"127.0.0.1" is a loopback address`},
		{"loopback under auto", "127.0.0.1", autoIP, "", "overlay spec.bootstrapIP", "loopback"},
		{"another family", "2001:db8::10", "", "", "overlay spec.bootstrapIP", "2001:db8::10 is an IPv6 address but the overlay's ipFamily needs IPv4"},
		{"the flag agrees, another family", "2001:db8::10", "2001:db8::10", "", "--bootstrap-ip", "2001:db8::10 is an IPv6 address, but overlay /"},
		{"the flag beside an unusable one", "127.0.0.1", testIP, "", "--bootstrap-ip", "disagrees with overlay"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := baseOpts(t.TempDir())
			opts.Overlay = tooltest.WriteOverlay(t, tooltest.Overlay{Spec: "bootstrapIP: \"" + tc.spec + "\"\n"})
			setIP(&opts, tc.flag)
			expectSettled(t, opts, tc.want, tc.errField, tc.errText)
		})
	}
}

// expectSettled renders with opts, where the overlay names its address so
// that auto must not detect one, and wants the IP rendered for, or, when
// want is "", an input error naming field with text.
func expectSettled(t *testing.T, opts Options, want, field, text string) {
	t.Helper()
	opts.deps = realDeps()
	opts.deps.detectIP = func(bootstrapip.Family, func(string) string) (bootstrapip.Detection, error) {
		t.Error("auto detected although the overlay names its address")
		return bootstrapip.Detection{}, nil
	}
	if want == "" {
		expectInputError(t, runBad(t, opts), field, text)
		return
	}
	if rep := mustRun(t, opts); rep.BootstrapIP != want {
		t.Errorf("rendered for %s, want %s", rep.BootstrapIP, want)
	}
}

// TestBootstrapIPTwoConfigs: render settles the first config's address for
// the whole overlay, so a second config naming another address is a
// conflict that blames the overlay's addresses, not a --bootstrap-ip that
// was never given.
func TestBootstrapIPTwoConfigs(t *testing.T) {
	dir := t.TempDir()
	for name, ip := range map[string]string{"a": testIP, "b": "192.0.2.99"} {
		config := "apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityBundle\nmetadata:\n  name: konnectivity-" + name +
			"\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: konnectivity-bundle\n        args: [fn]\nspec:\n  bootstrapIP: " + ip + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(config), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	kustomization := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ngenerators:\n- a.yaml\n- b.yaml\n"
	if err := os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte(kustomization), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"", autoIP} {
		t.Run("flag "+flag, func(t *testing.T) {
			opts := baseOpts(t.TempDir())
			opts.Overlay = dir
			setIP(&opts, flag)
			expectSettled(t, opts, "", "overlay spec.bootstrapIP",
				"192.0.2.99 disagrees with "+testIP+", the address from the overlay's first KonnectivityBundle config")
		})
	}
}
