package certs

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// nobody is a uid that is not the test's; chown to it needs root.
const nobody = 65534

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		tooltest.Missing(t, "planting files owned by another user needs root (chown); run the tests as root, as make test does")
	}
}

func chown(uid int) func(string) error {
	return func(p string) error { return os.Lchown(p, uid, uid) }
}

func chmod(m os.FileMode) func(string) error { return func(p string) error { return os.Chmod(p, m) } }

// TestUnsafePlaceIsNeverReused: good certificates in a place another user
// could have written (or a key others could have read) are replaced, all
// six, and the reason says what was wrong; once the new set is written
// (writeSet, as the host writers leave it) the place is trusted again.
func TestUnsafePlaceIsNeverReused(t *testing.T) {
	cases := []struct {
		name, target string // target "" is the directory itself
		spoil        func(string) error
		root         bool
		reason       string
	}{
		{"directory 0777", "", chmod(0o777), false, "has mode 0777, open to group or others"},
		{"directory 0750", "", chmod(0o750), false, "has mode 0750"},
		{"directory owned by another user", "", chown(nobody), true, "is owned by uid 65534, not the running user"},
		{"key owned by another user", hostlayout.AgentKeyFile, chown(nobody), true, hostlayout.AgentKeyFile + " is owned by uid 65534"},
		{"CA owned by another user", hostlayout.CACertFile, chown(nobody), true, hostlayout.CACertFile + " is owned by uid 65534"},
		{"group-readable key", hostlayout.CAKeyFile, chmod(0o640), false, hostlayout.CAKeyFile + " is a private key with mode 0640"},
		{"world-writable certificate", hostlayout.ServerCertFile, chmod(0o646), false, hostlayout.ServerCertFile + " has mode 0646, writable by group or others"},
		{"symlinked key", hostlayout.AgentKeyFile, func(p string) error {
			moved := p + ".elsewhere"
			if err := os.Rename(p, moved); err != nil {
				return err
			}
			return os.Symlink(moved, p)
		}, false, hostlayout.AgentKeyFile + " is not a regular file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.root {
				needRoot(t)
			}
			opts := options(t, "192.0.2.10")
			planted := ensure(t, opts)
			target := filepath.Join(opts.Dir, tc.target)
			if err := tc.spoil(target); err != nil {
				t.Fatal(err)
			}
			r, err := Plan(opts)
			if err != nil {
				t.Fatal(err)
			}
			if !r.Generated || !strings.Contains(r.Reason, tc.reason) || !strings.Contains(r.Reason, "no certificate there is trusted") {
				t.Fatalf("generated %v, reason %q; want regenerated because %q", r.Generated, r.Reason, tc.reason)
			}
			for _, name := range hostlayout.CertFileNames {
				if bytes.Equal(r.Files[name], planted.Files[name]) {
					t.Errorf("%s reused from an unsafe place", name)
				}
			}
			secret, err := agentSecretYAML(r, "ns", "/x.yaml")
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(secret, []byte(b64(planted.Files[hostlayout.AgentKeyFile]))) {
				t.Error("the planted agent key reached the Secret")
			}
			if err := writeSet(opts.Dir, r); err != nil {
				t.Fatal(err)
			}
			if reason := TrustReason(opts.Dir); reason != "" {
				t.Errorf("after the write the place is still unsafe: %s", reason)
			}
			if again := ensure(t, opts); again.Generated {
				t.Errorf("not reused after the repair: %s", again.Reason)
			}
		})
	}
}

func TestSafePlaceIsTrusted(t *testing.T) {
	opts := options(t, "192.0.2.10")
	ensure(t, opts)
	if reason := TrustReason(opts.Dir); reason != "" {
		t.Errorf("a directory the set was written to is not trusted: %s", reason)
	}
	if reason := TrustReason(filepath.Join(opts.Dir, "missing")); reason != "" {
		t.Errorf("a missing directory (nothing to reuse) gives %q", reason)
	}
}

// TestSecureDirDoesNotFollowALink: a symlink at the directory is refused,
// and its target keeps its owner and mode.
func TestSecureDirDoesNotFollowALink(t *testing.T) {
	target := t.TempDir()
	if err := os.Chmod(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "certs")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := SecureDir(link); err == nil {
		t.Error("SecureDir followed a symbolic link")
	}
	var st syscall.Stat_t
	if err := syscall.Stat(target, &st); err != nil || st.Mode&0o777 != 0o755 {
		t.Errorf("link target changed: mode %o, %v", st.Mode&0o777, err)
	}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
