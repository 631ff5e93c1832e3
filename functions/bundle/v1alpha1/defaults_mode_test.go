package v1alpha1

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestModeDefaultsToTheVersions: an unset spec.mode takes the target
// version's measured default, whichever way the version is named; a set
// one is kept; with no version known yet the fallback applies.
func TestModeDefaultsToTheVersions(t *testing.T) {
	cases := []struct {
		name string
		spec Spec
		env  map[string]string
		want string
	}{
		{"v0.28 by spec", Spec{ProxyVersion: "v0.28"}, nil, proxyversion.V028.DefaultMode},
		{"v0.36 by spec", Spec{ProxyVersion: "v0.36"}, nil, proxyversion.V036.DefaultMode},
		{"v0.28 by environment", Spec{}, map[string]string{EnvProxyVersion: "v0.28"}, proxyversion.V028.DefaultMode},
		{"v0.28 by image tag", Spec{Image: "quay.io/x/apiserver-network-proxy:4.20"}, nil, proxyversion.V028.DefaultMode},
		{"v0.36 by image tag", Spec{Image: "quay.io/x/apiserver-network-proxy:4.23"}, nil, proxyversion.V036.DefaultMode},
		{"explicit grpc kept", Spec{ProxyVersion: "v0.28", Mode: ModeGRPC}, nil, ModeGRPC},
		{"explicit http-connect kept", Spec{ProxyVersion: "v0.28", Mode: ModeHTTPConnect}, nil, ModeHTTPConnect},
		{"no version yet", Spec{}, nil, defaultMode},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.spec
			s.Default(func(k string) string { return tc.env[k] })
			if s.Mode != tc.want {
				t.Errorf("mode = %q, want %q", s.Mode, tc.want)
			}
		})
	}
}
