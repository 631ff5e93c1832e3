package render

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bootstrapip"
)

// TestBootstrapIPFlagAndOverlay: --bootstrap-ip and an overlay's
// spec.bootstrapIP follow kustbuild.SettleBootstrapIP (upi pins 192.0.2.10).
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
		{"wrong family", "ipv6", testIP, "", "--bootstrap-ip", "needs IPv6"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := baseOpts(t.TempDir())
			opts.Overlay, opts.Image = tc.overlay, ""
			setIP(&opts, tc.flag)
			if tc.overlay != "upi" {
				opts.Image = testImage
			}
			opts.deps = realDeps()
			opts.deps.detectIP = func(bootstrapip.Family, func(string) string) (bootstrapip.Detection, error) {
				t.Error("auto detected although the overlay names its address")
				return bootstrapip.Detection{}, nil
			}
			if tc.want == "" {
				expectInputError(t, runBad(t, opts), tc.errField, tc.errText)
				return
			}
			if rep := mustRun(t, opts); rep.BootstrapIP != tc.want {
				t.Errorf("rendered for %s, want %s", rep.BootstrapIP, tc.want)
			}
		})
	}
}
