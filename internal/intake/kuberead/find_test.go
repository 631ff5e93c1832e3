package kuberead

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/adminkubeconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// TestFind: --kubeconfig wins, "" given reads nothing, then $KUBECONFIG
// (a list, empty entries and repeats dropped), then the admin kubeconfig
// of a root render wrote; ~/.kube/config never. Each answer says where
// the file came from or why there is none.
func TestFind(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // a ~/.kube/config must not matter
	writeFile(t, filepath.Join(os.Getenv("HOME"), ".kube", "config"))
	rendered := t.TempDir()
	writeFile(t, filepath.Join(rendered, hostlayout.StatePath))
	writeFile(t, filepath.Join(rendered, hostlayout.AdminKubeconfig))
	admin := filepath.Join(rendered, hostlayout.AdminKubeconfig)
	unrendered := t.TempDir()
	writeFile(t, filepath.Join(unrendered, hostlayout.AdminKubeconfig))
	linked := t.TempDir()
	writeFile(t, filepath.Join(linked, hostlayout.StatePath))
	linkedAdmin := filepath.Join(linked, hostlayout.AdminKubeconfig)
	if err := os.MkdirAll(filepath.Dir(linkedAdmin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(admin, linkedAdmin); err != nil { // may lead off the root
		t.Fatal(err)
	}
	empty := t.TempDir()
	list := "/a" + string(filepath.ListSeparator) + string(filepath.ListSeparator) + "/b" + string(filepath.ListSeparator) + "/a"
	for _, tc := range []struct {
		name string
		l    Lookup
		want Choice
		line string
	}{
		{"flag wins", Lookup{Flag: "/k", FlagGiven: true, Env: "/e", Root: adminkubeconfig.In(rendered)}, Choice{Paths: []string{"/k"}, From: fromFlag}, "kubeconfig: /k (from --kubeconfig)"},
		{"explicit empty reads nothing", Lookup{FlagGiven: true, Env: "/e", Root: adminkubeconfig.In(rendered)}, Choice{None: `--kubeconfig "" given: the cluster is not read`}, `no kubeconfig: --kubeconfig "" given: the cluster is not read`},
		{"$KUBECONFIG list", Lookup{Env: list, Root: adminkubeconfig.In(rendered)}, Choice{Paths: []string{"/a", "/b"}, From: fromEnv}, "kubeconfig: /a" + string(filepath.ListSeparator) + "/b (from $KUBECONFIG)"},
		{"root's admin kubeconfig", Lookup{Root: adminkubeconfig.In(rendered)}, Choice{Paths: []string{admin}, From: fromRoot, Root: adminkubeconfig.In(rendered)}, "kubeconfig: " + admin + " (from --root's admin kubeconfig)"},
		{"empty $KUBECONFIG is unset", Lookup{Env: string(filepath.ListSeparator), Root: adminkubeconfig.In(rendered)}, Choice{Paths: []string{admin}, From: fromRoot, Root: adminkubeconfig.In(rendered)}, ""},
		{"root render did not write", Lookup{Root: adminkubeconfig.In(unrendered)}, Choice{None: "none found: no --kubeconfig, $KUBECONFIG unset, " + unrendered + " is not a root render wrote (no " + hostlayout.StatePath + "), so its " + hostlayout.AdminKubeconfig + " is not taken"}, ""},
		{"no admin kubeconfig", Lookup{Root: adminkubeconfig.In(empty)}, Choice{None: "none found: no --kubeconfig, $KUBECONFIG unset, no " + filepath.Join(empty, hostlayout.AdminKubeconfig)}, "no kubeconfig: none found: no --kubeconfig, $KUBECONFIG unset, no " + filepath.Join(empty, hostlayout.AdminKubeconfig)},
		// a link is found, to be refused by Open with its reason, not passed over
		{"admin kubeconfig through a link", Lookup{Root: adminkubeconfig.In(linked)}, Choice{Paths: []string{linkedAdmin}, From: fromRoot, Root: adminkubeconfig.In(linked)}, ""},
		{"no root", Lookup{}, Choice{None: "none found: no --kubeconfig, $KUBECONFIG unset"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Find(tc.l)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Find(%+v) = %+v; want %+v", tc.l, got, tc.want)
			}
			if tc.line != "" && got.String() != tc.line {
				t.Errorf("line %q; want %q", got.String(), tc.line)
			}
		})
	}
}

// TestKubeconfigListIsMerged: $KUBECONFIG's files are merged as kubectl
// merges them (missing ones skipped, the first to set a value wins);
// a list with no file in it, and a named file that is missing, are errors.
func TestKubeconfigListIsMerged(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "first")
	if err := os.WriteFile(first, []byte("apiVersion: v1\nkind: Config\ncurrent-context: c\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url, _ := pagedServer(t, 1, false)
	second := fakekas.Kubeconfig(t, filepath.Join(dir, "second"), url)
	missing := filepath.Join(dir, "missing")
	sep := string(filepath.ListSeparator)
	if _, err := Open(context.Background(), Find(Lookup{Env: missing + sep + first + sep + second}), Within(10*time.Second)); err != nil {
		t.Errorf("merged list: %v", err)
	}
	if _, err := Open(context.Background(), Find(Lookup{Env: missing}), Within(10*time.Second)); err == nil {
		t.Error("a $KUBECONFIG of missing files was accepted")
	}
	if _, err := Open(context.Background(), Find(Lookup{Flag: missing, FlagGiven: true}), Within(10*time.Second)); err == nil {
		t.Error("a missing --kubeconfig was accepted")
	}
}

func writeFile(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}
