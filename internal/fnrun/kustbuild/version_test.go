package kustbuild

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestProxyVersionPrecedence: in-process, the generator and ReadSpec
// target spec.proxyVersion, else Options.ProxyVersion (handed over as a
// value), else $KONNECTIVITY_PROXY_VERSION, else the image's tag, as
// docs/proxy-versions.md orders them.
func TestProxyVersionPrecedence(t *testing.T) {
	cases := []struct {
		name, overlay string
		option        *proxyversion.Version
		env, image    string
		want          *proxyversion.Version
	}{
		{"the option over the environment", "ipv4", proxyversion.V028, "v0.36", "", proxyversion.V028},
		{"the environment without the option", "ipv4", nil, "v0.28", "", proxyversion.V028},
		{"the option over the image tag", "ipv4", proxyversion.V028, "", "registry.test.invalid/anp:4.23", proxyversion.V028},
		{"the image tag alone", "ipv4", nil, "", "registry.test.invalid/anp:4.23", proxyversion.V036},
		{"the overlay's spec over the option and the environment", "upi", proxyversion.V036, "v0.36", "", proxyversion.V028},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := func(k string) string { return map[string]string{proxyversion.EnvProxyVersion: tc.env}[k] }
			opts := Options{BootstrapIP: ipOf("192.0.2.10"), ProxyVersion: tc.option, Image: tc.image, Getenv: env}
			if tc.overlay == "upi" {
				opts.BootstrapIP = ipOf("") // upi names its own
			}
			spec, err := ReadSpec(tc.overlay, opts)
			if err != nil || spec == nil {
				t.Fatalf("ReadSpec: %v, %v", spec, err)
			}
			if spec.Version() != tc.want || spec.ProxyVersion != tc.want.Name {
				t.Errorf("ReadSpec: version %v, spec.proxyVersion %q; want %v", spec.Version(), spec.ProxyVersion, tc.want)
			}
			out, err := Build(tc.overlay, opts)
			if err != nil {
				t.Fatal(err)
			}
			if want := proxyversion.AnnotationProxyVersion + ": " + tc.want.Name; !strings.Contains(string(out), want) {
				t.Errorf("the bundle lacks %q", want)
			}
		})
	}
}
