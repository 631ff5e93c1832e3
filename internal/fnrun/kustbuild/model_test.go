package kustbuild

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestModelIsWhatBuildPrints: the model's objects, printed, are Build's
// bytes, its spec is the config the generator ran, and the agents dial the
// bootstrap IP.
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
			ip := m.Spec.BootstrapIP // the overlay's own address, else the one given
			if opts.BootstrapIP.IsValid() {
				ip = opts.BootstrapIP.String()
			}
			if ip == "" || !bytes.Contains(want, []byte("--proxy-server-host="+ip)) {
				t.Errorf("the agents do not dial the bootstrap IP %q", ip)
			}
		})
	}
}

// TestReadSpecSettlesTheAddress: ReadSpec sees the overlay's own family
// and bootstrapIP before the build, and the address settled from it is
// what BuildModel makes the bundle for.
func TestReadSpecSettlesTheAddress(t *testing.T) {
	cases := []struct {
		overlay, flag, wantFamily, wantSpecIP, wantIP, wantErr string
	}{
		{"ipv6", "2001:db8::7", "ipv6", "", "2001:db8::7", ""},
		{"upi", "", "ipv4", "192.0.2.10", "192.0.2.10", ""},
		{"upi", "192.0.2.10", "ipv4", "192.0.2.10", "192.0.2.10", ""},
		{"upi", "192.0.2.99", "ipv4", "192.0.2.10", "", "--bootstrap-ip 192.0.2.99 disagrees with overlay upi's spec.bootstrapIP 192.0.2.10"},
	}
	for _, tc := range cases {
		t.Run(tc.overlay+"/"+tc.flag, func(t *testing.T) {
			image := goldenImage
			if tc.overlay == "upi" {
				image = "" // upi pins its own: --image would be a PinConflictError
			}
			opts := Options{Getenv: noEnv, Image: image, BootstrapIP: ipOf(tc.flag)}
			seen, err := ReadSpec(tc.overlay, opts)
			if err != nil || seen == nil {
				t.Fatalf("ReadSpec: %v, %v", seen, err)
			}
			if seen.IPFamily != tc.wantFamily || seen.BootstrapIP != tc.wantSpecIP {
				t.Errorf("ReadSpec read family %q bootstrapIP %q", seen.IPFamily, seen.BootstrapIP)
			}
			ip, err := bootstrapip.Settle(bootstrapip.Given{Flag: ipOf(tc.flag), Spec: seen.BootstrapIP, Enabled: true, Overlay: tc.overlay})
			var conflict *bootstrapip.ConflictError
			if tc.wantErr != "" {
				if !errors.As(err, &conflict) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want a conflict saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			opts.BootstrapIP = ip
			m, err := BuildModel(tc.overlay, opts)
			if err != nil {
				t.Fatal(err)
			}
			if ip.String() != tc.wantIP {
				t.Errorf("settled %s, want %s", ip, tc.wantIP)
			}
			if out := modelText(m); !strings.Contains(out, "--proxy-server-host="+tc.wantIP) {
				t.Errorf("agents do not dial %s", tc.wantIP)
			}
		})
	}
}

// TestReadSpecStopsAtTheConfig: ReadSpec generates nothing, so an
// overlay whose own address is missing or unusable is read, not refused,
// and a target without the generator reads as no spec.
func TestReadSpecStopsAtTheConfig(t *testing.T) {
	cases := []struct {
		name, target, wantIP string
		wantSpec             bool
	}{
		{"no address anywhere", "ipv4", "", true},
		{"the overlay's own", "upi", "192.0.2.10", true},
		{"disabled", "sno", "", true},
		{"no generator", writeKustomization(t, "resources: [cm.yaml]\n", "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"), "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			spec, err := ReadSpec(tc.target, Options{Getenv: noEnv})
			if err != nil {
				t.Fatal(err)
			}
			if (spec != nil) != tc.wantSpec {
				t.Fatalf("spec %+v, want one: %v", spec, tc.wantSpec)
			}
			if spec != nil && spec.BootstrapIP != tc.wantIP {
				t.Errorf("bootstrapIP %q, want %q", spec.BootstrapIP, tc.wantIP)
			}
		})
	}
}

func modelText(m *Model) string {
	var docs []string
	for _, n := range m.Nodes {
		docs = append(docs, n.MustString())
	}
	return strings.Join(docs, "---\n")
}

// TestModelSpecIsThePatchedConfig: the spec BuildModel returns is each
// overlay's config after its patches, defaulted, from the same build.
func TestModelSpecIsThePatchedConfig(t *testing.T) {
	cases := []struct {
		overlay, ip, family, mode string
		enabled                   bool
		agentPort                 int32
	}{
		{"ipv4", "192.0.2.10", "ipv4", proxyversion.V036.DefaultMode, true, 8091},
		{"ipv6", "2001:db8::10", "ipv6", proxyversion.V036.DefaultMode, true, 8091},
		{"dualstack", "192.0.2.10", "dualstack", proxyversion.V036.DefaultMode, true, 8091},
		{"sno", "", "ipv4", proxyversion.V036.DefaultMode, false, 8091},
		{"upi", "", "ipv4", proxyversion.V028.DefaultMode, true, 9091}, // the overlay pins proxyVersion v0.28 over the option
	}
	for _, tc := range cases {
		m, err := BuildModel(tc.overlay, Options{BootstrapIP: ipOf(tc.ip), ProxyVersion: proxyversion.V036, Getenv: noEnv})
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

// writeKustomization writes a kustomization (body after its header) and
// one more file into a new directory, and returns the directory.
func writeKustomization(t *testing.T, body, name, content string) string {
	t.Helper()
	dir := t.TempDir()
	kust := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n" + body
	for file, text := range map[string]string{"kustomization.yaml": kust, name: content} {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
