package kustbuild

import (
	"bytes"
	"errors"
	"net/netip"
	"strings"
	"testing"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
)

// TestModelIsWhatBuildPrints: the model's objects, printed, are Build's
// bytes, and its spec is the one the generator used.
func TestModelIsWhatBuildPrints(t *testing.T) {
	for _, overlay := range Overlays() {
		t.Run(overlay, func(t *testing.T) {
			opts := inputs(t, overlay)
			want, err := Build(overlay, opts)
			if err != nil {
				t.Fatal(err)
			}
			m, err := BuildModel(overlay, opts)
			if err != nil {
				t.Fatal(err)
			}
			var docs []string
			for _, n := range m.Nodes {
				docs = append(docs, n.MustString())
			}
			if got := strings.Join(docs, "---\n"); got != string(want) {
				t.Errorf("model printed differs from Build:\n%s\nwant:\n%s", got, want)
			}
			if m.Spec == nil {
				t.Fatal("no spec recorded")
			}
			if !*m.Spec.Enabled {
				return
			}
			if !bytes.Contains(want, []byte(m.Spec.BootstrapIP)) || m.Spec.BootstrapIP == "" {
				t.Errorf("spec bootstrapIP %q is not the one in the output", m.Spec.BootstrapIP)
			}
		})
	}
}

// TestBootstrapIPForSettlesTheAddress: the hook sees the overlay's own
// family and bootstrapIP, and its answer is what the bundle is made for.
func TestBootstrapIPForSettlesTheAddress(t *testing.T) {
	cases := []struct {
		overlay, flag, wantFamily, wantSpecIP, wantIP, wantErr string
	}{
		{"ipv6", "2001:db8::7", "ipv6", "", "2001:db8::7", ""},
		{"upi", "", "ipv4", "192.0.2.10", "192.0.2.10", ""},
		{"upi", "192.0.2.10", "ipv4", "192.0.2.10", "192.0.2.10", ""},
		{"upi", "192.0.2.99", "ipv4", "192.0.2.10", "", "--bootstrap-ip 192.0.2.99 disagrees with the overlay's spec.bootstrapIP 192.0.2.10"},
	}
	for _, tc := range cases {
		t.Run(tc.overlay+"/"+tc.flag, func(t *testing.T) {
			var seen bundle.Spec
			calls := 0
			image := goldenImage
			if tc.overlay == "upi" {
				image = "" // upi pins its own: --image would be a PinConflictError
			}
			opts := Options{Getenv: noEnv, Image: image, BootstrapIPFor: func(s bundle.Spec) (netip.Addr, error) {
				seen, calls = s, calls+1
				return SettleBootstrapIP(ipOf(tc.flag), s)
			}}
			m, err := BuildModel(tc.overlay, opts)
			var conflict *BootstrapIPConflictError
			if tc.wantErr != "" {
				if !errors.As(err, &conflict) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want a conflict saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if calls != 1 || seen.IPFamily != tc.wantFamily || seen.BootstrapIP != tc.wantSpecIP {
				t.Errorf("hook called %d times with family %q bootstrapIP %q", calls, seen.IPFamily, seen.BootstrapIP)
			}
			if m.Spec.BootstrapIP != tc.wantIP || m.BootstrapIP.String() != tc.wantIP {
				t.Errorf("generated for %s, want %s", m.Spec.BootstrapIP, tc.wantIP)
			}
		})
	}
}

// TestModelSpecIsThePatchedConfig: the spec BuildModel returns is each
// overlay's config after its patches, defaulted, from the same build.
func TestModelSpecIsThePatchedConfig(t *testing.T) {
	cases := []struct {
		overlay, ip, family, mode string
		enabled                   bool
		agentPort                 int32
	}{
		{"ipv4", "192.0.2.10", "ipv4", "http-connect", true, 8091},
		{"ipv6", "2001:db8::10", "ipv6", "http-connect", true, 8091},
		{"dualstack", "192.0.2.10", "dualstack", "http-connect", true, 8091},
		{"sno", "", "ipv4", "http-connect", false, 8091},
		{"upi", "", "ipv4", "http-connect", true, 9091},
	}
	for _, tc := range cases {
		m, err := BuildModel(tc.overlay, Options{BootstrapIP: ipOf(tc.ip), ProxyVersion: "v0.36", Getenv: noEnv})
		if err != nil {
			t.Fatalf("%s: %v", tc.overlay, err)
		}
		s := m.Spec
		if s == nil {
			t.Fatalf("%s: no KonnectivityBundle config found", tc.overlay)
		}
		if s.IPFamily != tc.family || s.Mode != tc.mode || *s.Enabled != tc.enabled || s.Server.AgentPort != tc.agentPort {
			t.Errorf("%s: got family %s mode %s enabled %v agentPort %d", tc.overlay, s.IPFamily, s.Mode, *s.Enabled, s.Server.AgentPort)
		}
	}
}
