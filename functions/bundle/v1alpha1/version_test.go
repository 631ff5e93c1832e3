package v1alpha1

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestDefaultResolvesTheVersion: Default settles the target once, from
// the spec, else the environment, else the image tag, keeps the name as
// written in spec.proxyVersion, and keeps why there is none for validation.
func TestDefaultResolvesTheVersion(t *testing.T) {
	cases := []struct {
		name     string
		spec     Spec
		env      string
		want     *proxyversion.Version
		wantText string
	}{
		{"spec wins", Spec{ProxyVersion: "v0.28", Image: "x:4.23"}, "v0.36", proxyversion.V028, "v0.28"},
		{"environment as written", Spec{Image: "x:4.23"}, "0.28", proxyversion.V028, "0.28"},
		{"image tag fills the field", Spec{Image: "x:4.23"}, "", proxyversion.V036, "v0.36"},
		{"unknown name", Spec{}, "v9", nil, "v9"},
		{"nothing names one", Spec{Image: "x@sha256:" + sha}, "", nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.spec
			if s.Version() != nil {
				t.Fatal("Version before Default is not nil")
			}
			s.Default(func(k string) string { return map[string]string{EnvProxyVersion: tc.env}[k] })
			if s.Version() != tc.want || s.ProxyVersion != tc.wantText {
				t.Errorf("Version() = %v, ProxyVersion %q; want %v, %q", s.Version(), s.ProxyVersion, tc.want, tc.wantText)
			}
			if (s.versionErr == nil) != (tc.want != nil) {
				t.Errorf("versionErr = %v with version %v", s.versionErr, s.Version())
			}
		})
	}
}

const sha = "abababababababababababababababababababababababababababababababab"
