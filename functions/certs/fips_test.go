package certs

import (
	"crypto/fips140"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// fipsChildEnv makes the test binary act as the subprocess of TestFIPS140:
// GODEBUG=fips140 is read once at process start, so each mode needs its
// own process.
const fipsChildEnv = "KB_CERTS_FIPS_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(fipsChildEnv) != "" {
		os.Exit(fipsChild())
	}
	os.Exit(m.Run())
}

// fipsChild generates ECDSA and RSA certificates (Plan runs its own checks
// on them), reuses the previous release's cfssl-signed ones, and reports
// the FIPS mode it ran in.
func fipsChild() int {
	dir, err := os.MkdirTemp("", "fips")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(dir)
	for _, algo := range []string{"ecdsa", "rsa"} {
		fresh, err := Plan(Options{Dir: dir + "/" + algo, BootstrapIP: netip.MustParseAddr("192.0.2.10"), KeyAlgorithm: algo})
		if err == nil {
			err = writeSet(dir+"/"+algo, fresh)
		}
		if err != nil {
			fmt.Printf("%s: %v\n", algo, err)
			return 1
		}
		old := filepath.Join(dir, "previous-"+algo)
		if err := copyCertDir(filepath.Join(previousRelease, algo, "opt/openshift/tls/konnectivity"), old); err != nil {
			fmt.Println(err)
			return 1
		}
		r, err := Plan(Options{Dir: old, BootstrapIP: netip.MustParseAddr("192.0.2.10"), KeyAlgorithm: algo})
		if err != nil || r.Generated {
			fmt.Printf("%s: previous release's certificates not reused: %v %+v\n", algo, err, r)
			return 1
		}
	}
	fmt.Printf("generated ecdsa and rsa, reused the previous release's; fips140.Enabled=%v\n", fips140.Enabled())
	return 0
}

// copyCertDir copies a certificate directory with the modes the writer gives it
// (git keeps none), so Plan trusts it.
func copyCertDir(from, to string) error {
	if err := os.Mkdir(to, DirMode); err != nil {
		return err
	}
	for _, name := range hostlayout.CertFileNames {
		b, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, name), b, ModeOf(name)); err != nil {
			return err
		}
	}
	return nil
}

// TestFIPS140: generation and reuse work in FIPS 140-3 mode and in
// FIPS 140-only mode, which also forbids every non-approved algorithm
// (cfssl's signer, used until this package signed with crypto/x509,
// panicked there computing SHA-1 key identifiers).
func TestFIPS140(t *testing.T) {
	for _, mode := range []string{"fips140=on", "fips140=only"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), fipsChildEnv+"=1", "GODEBUG="+mode)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "fips140.Enabled=true") {
				t.Fatalf("GODEBUG=%s: %v\n%s", mode, err, out)
			}
		})
	}
}
