package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// legacyCertDir is where render and these tests put the certificates.
const legacyCertDir = "opt/openshift/tls/konnectivity"

// legacyLeftovers are files an older certs binary left when it was killed
// while writing (os.CreateTemp's ".NAME.tmp-DIGITS"), one a private key.
var legacyLeftovers = []string{".ca.key.tmp-1804289383", ".server.crt.tmp-42", ".agent.key.tmp-7"}

// legacyDecoys are near-misses the sweep must leave: not exactly the
// pattern, or a symbolic link (never followed, never removed), or a file
// another user owns.
var legacyDecoys = []string{".ca.key.tmp-abc", ".other.key.tmp-1", "ca.key.tmp-1", ".ca.key.tmp-", ".server.key.tmp-9.bak", ".agent.crt.tmp-3"}

// plantLegacy puts the leftovers, and with decoys the near-misses, in
// root's certificate directory; the link decoy points at target.
func plantLegacy(t *testing.T, root string, decoys bool, target string) {
	t.Helper()
	dir := filepath.Join(root, legacyCertDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	key := []byte("-----BEGIN EC PRIVATE KEY-----\nleftover\n-----END EC PRIVATE KEY-----\n")
	for _, n := range legacyLeftovers {
		if err := os.WriteFile(filepath.Join(dir, n), key, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !decoys {
		return
	}
	for _, n := range legacyDecoys[:len(legacyDecoys)-1] {
		if err := os.WriteFile(filepath.Join(dir, n), key, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(target, filepath.Join(dir, ".agent.crt.tmp-3")); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		stranger := filepath.Join(dir, ".server.key.tmp-11")
		if err := os.WriteFile(stranger, key, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(stranger, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLegacyCertTempsAreSwept: render, certs and teardown remove exactly
// the temporary files older certs binaries left, report each, and leave
// every near-miss, link (and its target) and stranger's file; teardown
// then removes the certificate directory render created (issue 19 point 2).
func TestLegacyCertTempsAreSwept(t *testing.T) {
	cases := []struct {
		name     string
		rendered bool // render first, then plant
		args     func(root string) []string
	}{
		{name: "render", args: func(root string) []string { return hostRenderArgs(root, "-q") }},
		{name: "render up to date", rendered: true, args: func(root string) []string { return hostRenderArgs(root, "-q") }},
		{name: "certs", args: func(root string) []string {
			return []string{"certs", "--root", root, "--dir", filepath.Join(root, legacyCertDir), "--bootstrap-ip", hostTestIP}
		}},
		{name: "teardown", rendered: true, args: func(root string) []string { return []string{"teardown", "--root", root} }},
	}
	for _, tc := range cases {
		for _, decoys := range []bool{false, true} {
			t.Run(tc.name+map[bool]string{false: "", true: " with decoys"}[decoys], func(t *testing.T) {
				root := t.TempDir()
				if tc.rendered {
					root = hostRenderedRoot(t)
				}
				target := filepath.Join(t.TempDir(), "outside.key")
				if err := os.WriteFile(target, []byte("outside"), 0o600); err != nil {
					t.Fatal(err)
				}
				plantLegacy(t, root, decoys, target)
				code, stdout, stderr := runHostCmd(t, tc.args(root)...)
				if code != 0 {
					t.Fatalf("exit %d:\n%s%s", code, stdout, stderr)
				}
				dir := filepath.Join(root, legacyCertDir)
				for _, n := range legacyLeftovers {
					p := filepath.Join(dir, n)
					if _, err := os.Lstat(p); err == nil {
						t.Errorf("%s survived", n)
					}
					if !strings.Contains(stdout+stderr, p) {
						t.Errorf("the output does not name the removed %s:\n%s%s", p, stdout, stderr)
					}
				}
				assertDecoysKept(t, root, decoys, target)
				if tc.name == "teardown" && !decoys {
					if _, err := os.Lstat(dir); err == nil {
						t.Errorf("teardown kept %s, which render created", dir)
					}
				}
			})
		}
	}
}

func assertDecoysKept(t *testing.T, root string, decoys bool, target string) {
	t.Helper()
	if !decoys {
		return
	}
	dir := filepath.Join(root, legacyCertDir)
	kept := legacyDecoys
	if os.Geteuid() == 0 {
		kept = append(kept[:len(kept):len(kept)], ".server.key.tmp-11")
	}
	for _, n := range kept {
		if _, err := os.Lstat(filepath.Join(dir, n)); err != nil {
			t.Errorf("the sweep removed %s, which does not match or is not ours: %v", n, err)
		}
	}
	if data, err := os.ReadFile(target); err != nil || string(data) != "outside" {
		t.Errorf("the link's target outside the root changed: %q %v", data, err)
	}
}
