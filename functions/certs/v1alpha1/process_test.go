package v1alpha1

import (
	"bufio"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/cryptotest"
	"time"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/fn/framework/frameworktestutil"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/certset"
)

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// fixtures are certificate directories some cases read: made at t0 for
// 192.0.2.10 from a fixed random stream, so -update reproduces them.
var fixtures = map[string]func(dir string) error{
	"success/reuse-env-ip/certs":      func(string) error { return nil },
	"error/ip-changed/certs":          func(string) error { return nil },
	"error/agent-key-truncated/certs": truncate(hostlayout.AgentKeyFile),
}

func truncate(name string) func(string) error {
	return func(dir string) error {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(p, b[:len(b)/2], 0o600)
	}
}

func writeFixtures(t *testing.T) {
	for rel, damage := range fixtures {
		dir := filepath.Join("testdata", rel)
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		cryptotest.SetGlobalRandom(t, 1)
		if _, err := certset.EnsureDir(certs.Options{Dir: dir, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Now: func() time.Time { return t0 }}); err != nil {
			t.Fatal(err)
		}
		if err := damage(dir); err != nil {
			t.Fatal(err)
		}
	}
}

// secureFixtures gives the copied certificate directories the modes certs
// writes (git and os.CopyFS keep neither), since certificates are reused only
// from a safe place (certs.TrustReason).
func secureFixtures(t *testing.T, work string) {
	for rel := range fixtures {
		dir := filepath.Join(work, rel)
		if err := os.Chmod(dir, certs.DirMode); err != nil {
			t.Fatal(err)
		}
		for _, name := range hostlayout.CertFileNames {
			mode := certs.CertMode
			if strings.HasSuffix(name, ".key") {
				mode = certs.KeyMode
			}
			if err := os.Chmod(filepath.Join(dir, name), mode); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestFunction runs every case under testdata (frameworktestutil layout:
// input.yaml holds the ResourceList, expected.yaml or errors.txt the
// outcome, an optional env file the environment) on a copy, because
// generating cases write into their certificate directory.
func TestFunction(t *testing.T) {
	if goldenfile.Update(t) {
		writeFixtures(t)
	}
	work := filepath.Join(t.TempDir(), "testdata")
	if err := os.CopyFS(work, os.DirFS("testdata")); err != nil {
		t.Fatal(err)
	}
	secureFixtures(t, work)
	checker := frameworktestutil.ProcessorResultsChecker{
		TestDataDirectory:        work,
		UpdateExpectedFromActual: goldenfile.Update(t),
		Processor: func() framework.ResourceListProcessor {
			cryptotest.SetGlobalRandom(t, 1) // each case starts from the same stream
			return Function{Getenv: caseEnv(t), Now: func() time.Time { return t0 }, Generate: certset.EnsureDir}
		},
	}
	checker.Assert(t)
	if goldenfile.Update(t) {
		copyBack(t, work, "testdata")
	}
}

// caseEnv reads KEY=VALUE lines from ./env (the case directory is the
// working directory while a case runs); no file means no environment.
func caseEnv(t *testing.T) func(string) string {
	env := map[string]string{}
	f, err := os.Open("env")
	if err == nil {
		defer f.Close()
		for sc := bufio.NewScanner(f); sc.Scan(); {
			if k, v, ok := strings.Cut(sc.Text(), "="); ok {
				env[k] = v
			}
		}
	} else if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return func(k string) string { return env[k] }
}

// copyBack copies refreshed fixtures into the source tree: expected.yaml
// as is (not for error cases), errors.txt as one quoted regexp per line.
func copyBack(t *testing.T, from, to string) {
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || (d.Name() != "expected.yaml" && d.Name() != "errors.txt") {
			return err
		}
		if _, err := os.Stat(filepath.Join(filepath.Dir(p), "errors.txt")); err == nil && d.Name() == "expected.yaml" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if d.Name() == "errors.txt" {
			b = quoteLines(b)
		}
		rel, _ := filepath.Rel(from, p)
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func quoteLines(b []byte) []byte {
	var out strings.Builder
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) != "" {
			out.WriteString(regexp.QuoteMeta(line) + "\n")
		}
	}
	return []byte(out.String())
}
