package hosttxn

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSweepLegacyCertTemps: only regular files of exactly the pattern an
// older certs gave its temporaries ("."+certificate file+".tmp-"+digits),
// owned by the running user, are removed; a link of that name is neither
// followed nor removed, and each directory is swept once.
func TestSweepLegacyCertTemps(t *testing.T) {
	const other = "etc/elsewhere"
	for _, tc := range []struct {
		name   string
		plant  func(t *testing.T, dir string) // dir: the certificate directory, absolute
		dirs   []string
		swept  []string // names removed from certDir
		kept   []string // names left in certDir
		errHas string
	}{{
		name:  "every certificate file's temporary",
		plant: plantFiles(".ca.crt.tmp-1", ".ca.key.tmp-22", ".server.crt.tmp-333", ".server.key.tmp-4", ".agent.crt.tmp-5", ".agent.key.tmp-123456789"),
		dirs:  []string{certDir},
		swept: []string{".agent.crt.tmp-5", ".agent.key.tmp-123456789", ".ca.crt.tmp-1", ".ca.key.tmp-22", ".server.crt.tmp-333", ".server.key.tmp-4"},
	}, {
		name:  "names of another pattern",
		plant: plantFiles(".ca.key.tmp-12ab", "ca.key.tmp-1", ".tls.key.tmp-1", ".ca.key.tmp-", ".ca.key.kb-tmp-0123456789ab", "ca.key"),
		dirs:  []string{certDir},
		kept:  []string{".ca.key.tmp-12ab", "ca.key.tmp-1", ".tls.key.tmp-1", ".ca.key.tmp-", ".ca.key.kb-tmp-0123456789ab", "ca.key"},
	}, {
		name: "a link or a directory of that name",
		plant: func(t *testing.T, dir string) {
			plantFiles("target")(t, dir)
			if err := os.Symlink("target", filepath.Join(dir, ".ca.key.tmp-7")); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(dir, ".server.key.tmp-8"), 0o700); err != nil {
				t.Fatal(err)
			}
		},
		dirs: []string{certDir},
		kept: []string{"target", ".ca.key.tmp-7", ".server.key.tmp-8"},
	}, {
		name: "another user's file",
		plant: func(t *testing.T, dir string) {
			if os.Geteuid() != 0 {
				t.Skip("giving a file to another user needs root; as root this row runs")
			}
			plantFiles(".agent.key.tmp-9", ".agent.crt.tmp-9")(t, dir)
			if err := os.Lchown(filepath.Join(dir, ".agent.key.tmp-9"), 65534, 65534); err != nil {
				t.Fatal(err)
			}
		},
		dirs:  []string{certDir},
		swept: []string{".agent.crt.tmp-9"},
		kept:  []string{".agent.key.tmp-9"},
	}, {
		name:  "a directory named twice, and none",
		plant: plantFiles(".ca.crt.tmp-1"),
		dirs:  []string{certDir, "", certDir},
		swept: []string{".ca.crt.tmp-1"},
	}, {
		name:  "a missing directory is empty",
		plant: plantFiles(".ca.crt.tmp-1"),
		dirs:  []string{other, certDir},
		swept: []string{".ca.crt.tmp-1"},
	}, {
		name: "a link where a directory is named",
		plant: func(t *testing.T, dir string) {
			plantFiles(".ca.crt.tmp-1")(t, dir)
			if err := os.Symlink(dir, filepath.Join(strings.TrimSuffix(dir, certDir), "opt/link")); err != nil {
				t.Fatal(err)
			}
		},
		dirs:   []string{certDir, "opt/link"},
		swept:  []string{".ca.crt.tmp-1"},
		errHas: "inspect %ROOT%/opt/link",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, certDir)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			tc.plant(t, dir)
			removed, err := sweepLegacyCertTemps(openRoot(t, root), tc.dirs...)
			switch want := strings.ReplaceAll(tc.errHas, "%ROOT%", root); {
			case want == "" && err != nil:
				t.Fatal(err)
			case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Fatalf("got error %v, want one with %q", err, want)
			}
			var want []string
			for _, n := range tc.swept {
				want = append(want, filepath.Join(dir, n))
			}
			slices.Sort(removed)
			if !slices.Equal(removed, want) {
				t.Errorf("removed %q, want %q", removed, want)
			}
			for _, n := range append(tc.swept, tc.kept...) {
				_, err := os.Lstat(filepath.Join(dir, n))
				if left := err == nil; left != slices.Contains(tc.kept, n) {
					t.Errorf("%s left: %v, want %v", n, left, !left)
				}
			}
		})
	}
}

// plantFiles writes empty private files of these names.
func plantFiles(names ...string) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
}
