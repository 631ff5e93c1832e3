package certs

import (
	"crypto/fips140"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
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
// on them) and reports the FIPS mode it ran in.
func fipsChild() int {
	dir, err := os.MkdirTemp("", "fips")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(dir)
	for _, algo := range []string{"ecdsa", "rsa"} {
		if _, err := Ensure(Options{Dir: dir + "/" + algo, BootstrapIP: "192.0.2.10", KeyAlgorithm: algo}); err != nil {
			fmt.Printf("%s: %v\n", algo, err)
			return 1
		}
	}
	fmt.Printf("generated ecdsa and rsa; fips140.Enabled=%v\n", fips140.Enabled())
	return 0
}

func runFIPSChild(t *testing.T, godebug string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fipsChildEnv+"=1", "GODEBUG="+godebug)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestFIPS140: generation works in FIPS 140-3 mode; "only" mode, which
// also forbids non-approved algorithms, panics inside cfssl because it
// derives SubjectKeyIds with SHA-1 (see README.md).
func TestFIPS140(t *testing.T) {
	out, err := runFIPSChild(t, "fips140=on")
	if err != nil || !strings.Contains(out, "fips140.Enabled=true") {
		t.Fatalf("GODEBUG=fips140=on: %v\n%s", err, out)
	}
	out, err = runFIPSChild(t, "fips140=only")
	if err == nil {
		t.Fatalf("GODEBUG=fips140=only succeeded; cfssl no longer uses SHA-1, update README.md:\n%s", out)
	}
	for _, want := range []string{"panic", "SHA-1", "ComputeSKI"} {
		if !strings.Contains(out, want) {
			t.Errorf("fips140=only output lacks %q:\n%s", want, out)
		}
	}
}
