package render

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"
)

// TestUnsafeCertificatesAreReplaced: certificates render wrote, then made
// untrustworthy (another owner, a loosened mode), are never reused: render
// regenerates all six, says why, keeps the replaced agent key out of the
// Secret, repairs the directory, and the next run changes nothing.
func TestUnsafeCertificatesAreReplaced(t *testing.T) {
	const nobody = 65534
	cases := []struct {
		name, target string // relative to the certificate directory; "" = itself
		spoil        func(string) error
		root         bool
		reason       string
	}{
		{"directory 0777", "", func(p string) error { return os.Chmod(p, 0o777) }, false, "has mode 0777"},
		{"directory of another user", "", func(p string) error { return os.Chown(p, nobody, nobody) }, true, "is owned by uid 65534"},
		{"agent key planted by another user", "agent.key", func(p string) error { return os.Chown(p, nobody, nobody) }, true, "agent.key is owned by uid 65534"},
		{"world-readable key", "agent.key", func(p string) error { return os.Chmod(p, 0o644) }, false, "agent.key is a private key with mode 0644"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.root && os.Geteuid() != 0 {
				tooltest.Missing(t, "planting files owned by another user needs root (chown); make test runs as root")
			}
			root := t.TempDir()
			mustRun(t, baseOpts(root))
			certDir := filepath.Join(root, certDirRel)
			oldKey := readFile(t, root, certDirRel+"/agent.key")
			if err := tc.spoil(filepath.Join(certDir, tc.target)); err != nil {
				t.Fatal(err)
			}
			rep := mustRun(t, baseOpts(root))
			if !rep.CertsGenerated || !strings.Contains(rep.CertsReason, tc.reason) {
				t.Fatalf("certificates generated %v (%s); want regenerated because %q", rep.CertsGenerated, rep.CertsReason, tc.reason)
			}
			secret := readFile(t, root, secretRel)
			if strings.Contains(secret, base64.StdEncoding.EncodeToString([]byte(oldKey))) {
				t.Error("the untrusted agent key reached the Secret")
			}
			if newKey := readFile(t, root, certDirRel+"/agent.key"); newKey == oldKey || !strings.Contains(secret, base64.StdEncoding.EncodeToString([]byte(newKey))) {
				t.Error("the Secret does not carry the new agent key")
			}
			var st syscall.Stat_t
			if err := syscall.Stat(certDir, &st); err != nil || int(st.Uid) != os.Geteuid() || st.Mode&0o777 != 0o700 {
				t.Errorf("certificate directory not repaired: uid %d mode %o (%v)", st.Uid, st.Mode&0o777, err)
			}
			before := treetest.Snapshot(t, root, treetest.Exact)
			if rep := mustRun(t, baseOpts(root)); rep.Changed() || rep.CertsGenerated {
				t.Errorf("the run after the repair changed %v", rep.Files)
			}
			treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
		})
	}
}

// TestPlantedCertificatesInAFreshRootAreNotAdopted: valid certificates
// another user put where render writes them are neither reused nor
// overwritten without --force; with --force they are replaced.
func TestPlantedCertificatesInAFreshRootAreNotAdopted(t *testing.T) {
	if os.Geteuid() != 0 {
		tooltest.Missing(t, "planting files owned by another user needs root (chown); make test runs as root")
	}
	donor := t.TempDir()
	mustRun(t, baseOpts(donor))
	root := t.TempDir()
	certDir := filepath.Join(root, certDirRel)
	if err := os.MkdirAll(certDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range hostlayout.CertFileNames {
		p := filepath.Join(certDir, name)
		if err := os.WriteFile(p, []byte(readFile(t, donor, certDirRel+"/"+name)), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	planted := readFile(t, root, certDirRel+"/agent.key")
	err := runBad(t, baseOpts(root))
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("want a refusal to overwrite the planted files, got %v", err)
	}
	opts := baseOpts(root)
	opts.Force = true
	rep := mustRun(t, opts)
	if !rep.CertsGenerated || !strings.Contains(rep.CertsReason, "owned by uid 65534") {
		t.Errorf("with --force: generated %v (%s)", rep.CertsGenerated, rep.CertsReason)
	}
	if bytes.Contains([]byte(readFile(t, root, secretRel)), []byte(base64.StdEncoding.EncodeToString([]byte(planted)))) {
		t.Error("the planted agent key reached the Secret")
	}
}
