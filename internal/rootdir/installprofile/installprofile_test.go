package installprofile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

const apiserver = "apiVersion: config.openshift.io/v1\nkind: APIServer\nmetadata:\n  name: cluster\nspec:\n"

const modern = apiserver + "  tlsSecurityProfile:\n    type: Modern\n    modern: {}\n"

// TestRead: the APIServer named cluster is found in either directory, in a
// file of several documents too, and its profile read; other APIServers,
// other files, links and render's own manifests are passed over.
func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		path  string // "" when none is found
		typ   configv1.TLSProfileType
	}{
		{"none", map[string]string{"opt/openshift/manifests/cluster-config.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"}, "", ""},
		{"in manifests", map[string]string{"opt/openshift/manifests/apiserver.yaml": modern}, "/opt/openshift/manifests/apiserver.yaml", configv1.TLSProfileModernType},
		{"in openshift", map[string]string{"opt/openshift/openshift/99-tls.yml": modern}, "/opt/openshift/openshift/99-tls.yml", configv1.TLSProfileModernType},
		{"copied to both, as bootkube.sh does", map[string]string{"opt/openshift/openshift/99-tls.yaml": modern, "opt/openshift/manifests/99-tls.yaml": modern}, "/opt/openshift/manifests/99-tls.yaml", configv1.TLSProfileModernType},
		{"two that agree, one spelling out its member", map[string]string{"opt/openshift/manifests/a.yaml": modern, "opt/openshift/openshift/b.yaml": apiserver + "  tlsSecurityProfile: {type: Modern}\n"}, "/opt/openshift/manifests/a.yaml", configv1.TLSProfileModernType},
		{"among other documents", map[string]string{"opt/openshift/manifests/all.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n" + modern}, "/opt/openshift/manifests/all.yaml", configv1.TLSProfileModernType},
		{"without a profile", map[string]string{"opt/openshift/manifests/apiserver.yaml": apiserver + "  audit: {profile: Default}\n"}, "/opt/openshift/manifests/apiserver.yaml", ""},
		{"another APIServer", map[string]string{"opt/openshift/manifests/other.yaml": strings.Replace(modern, "name: cluster", "name: other", 1)}, "", ""},
		{"not a manifest's name", map[string]string{"opt/openshift/manifests/apiserver.yaml.bak": modern}, "", ""},
		{"render's own file name", map[string]string{"opt/openshift/manifests/konnectivity-00-namespace.yaml": modern}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read(rootWith(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.path == "" && f != nil:
				t.Errorf("found %+v, want none", f)
			case tc.path != "" && (f == nil || f.Path != tc.path):
				t.Errorf("found %+v, want %s", f, tc.path)
			case tc.typ == "" && f != nil && f.Profile != nil:
				t.Errorf("profile %+v, want none", f.Profile)
			case tc.typ != "" && (f.Profile == nil || f.Profile.Type != tc.typ):
				t.Errorf("profile %+v, want %s", f.Profile, tc.typ)
			}
		})
	}
}

// TestReadRefuses: a manifest render cannot follow names itself, the
// field and the fix; two that disagree are refused naming both.
func TestReadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name        string
		files       map[string]string
		path, field string
		says        string
	}{
		{"unknown type", map[string]string{"opt/openshift/manifests/a.yaml": apiserver + "  tlsSecurityProfile: {type: Strict}\n"},
			"/opt/openshift/manifests/a.yaml", "spec.tlsSecurityProfile.type", `unknown profile type "Strict"`},
		{"Custom without ciphers", map[string]string{"opt/openshift/manifests/a.yaml": apiserver + "  tlsSecurityProfile: {type: Custom, custom: {minTLSVersion: VersionTLS12}}\n"},
			"/opt/openshift/manifests/a.yaml", "spec.tlsSecurityProfile.custom.ciphers", "lists no ciphers"},
		{"a cipher Go does not know", map[string]string{"opt/openshift/manifests/a.yaml": apiserver + "  tlsSecurityProfile: {type: Custom, custom: {minTLSVersion: VersionTLS12, ciphers: [ECDHE-RSA-AES129-GCM-SHA256]}}\n"},
			"/opt/openshift/manifests/a.yaml", "spec.tlsSecurityProfile.custom.ciphers[0]", "is not a cipher name"},
		{"an unknown field", map[string]string{"opt/openshift/manifests/a.yaml": apiserver + "  tlsSecurityProfile: {type: Modern, modren: {}}\n"},
			"/opt/openshift/manifests/a.yaml", "spec.tlsSecurityProfile", `unknown field "modren"`},
		{"YAML that does not parse", map[string]string{"opt/openshift/manifests/a.yaml": apiserver + "  tlsSecurityProfile: {type: Modern\n\t: : [\n"},
			"/opt/openshift/manifests/a.yaml", "its YAML", "yaml"},
		{"not UTF-8", map[string]string{"opt/openshift/manifests/a.yaml": apiserver + "  tlsSecurityProfile: {type: \"Mo\xff\xfedern\"}\n"},
			"/opt/openshift/manifests/a.yaml", "its YAML", ""},
		{"an unknown key of 200 KB", map[string]string{"opt/openshift/manifests/a.yaml": apiserver + "  tlsSecurityProfile:\n    type: Modern\n    ? " + strings.Repeat("k", 200000) + "\n    : 1\n"},
			"/opt/openshift/manifests/a.yaml", "spec.tlsSecurityProfile", `unknown field "kkkk`},
		{"two documents of one file that disagree", map[string]string{"opt/openshift/manifests/a.yaml": modern + "---\n" + apiserver + "  tlsSecurityProfile: {type: Old}\n"},
			"/opt/openshift/manifests/a.yaml", "spec.tlsSecurityProfile", "(Modern there, Old here)"},
		{"two that disagree", map[string]string{"opt/openshift/manifests/a.yaml": modern, "opt/openshift/openshift/b.yaml": apiserver + "  tlsSecurityProfile: {type: Old}\n"},
			"/opt/openshift/openshift/b.yaml", "spec.tlsSecurityProfile", "and so does /opt/openshift/manifests/a.yaml, differently (Modern there, Old here)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Read(rootWith(t, tc.files))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Read = %+v, %v; want an *Error", f, err)
			}
			if e.Path != tc.path || e.Field != tc.field || !strings.Contains(e.Message, tc.says) || e.Fix == "" || len(e.Message) > 1000 {
				t.Errorf("got %.500v, want %s %s saying %q in under 1000 bytes, with a fix", e, tc.path, tc.field, tc.says)
			}
		})
	}
}

// TestReadPassesOverLinks: a link among the manifests is not followed, so
// a profile it points at is not read.
func TestReadPassesOverLinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "apiserver.yaml")
	if err := os.WriteFile(outside, []byte(modern), 0o644); err != nil {
		t.Fatal(err)
	}
	root := rootWith(t, map[string]string{"opt/openshift/manifests/x.yaml": "a: b\n"})
	if err := os.Symlink(outside, root.Abs("opt/openshift/manifests/apiserver.yaml")); err != nil {
		t.Fatal(err)
	}
	if f, err := Read(root); f != nil || err != nil {
		t.Errorf("Read = %+v, %v; want nothing found", f, err)
	}
}

func rootWith(t *testing.T, files map[string]string) *hostfs.Root {
	dir := t.TempDir()
	for rel, data := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := hostfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root
}
