package main

import (
	"bytes"
	"crypto/fips140"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fipsControl makes the test binary report whether FIPS 140-only mode is
// enforced in it, by trying SHA-1, which that mode forbids.
const fipsControl = "KB_TEST_FIPS_CONTROL"

func reportEnforcement() {
	defer func() { fmt.Printf("enforced=%v sha1 refused: %v\n", fips140.Enforced(), recover()); os.Exit(0) }()
	sha1.Sum(nil)
}

// enforcement runs reportEnforcement in a child under GODEBUG=godebug.
func enforcement(t *testing.T, godebug string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fipsControl+"=1", "GODEBUG="+godebug)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

const (
	image      = "quay.io/openshift/origin-apiserver-network-proxy:4.20"
	certSubdir = "opt/openshift/tls/konnectivity"
	// previousRelease holds roots rendered by the release that signed with
	// cfssl (testdata/previous-release/README.md).
	previousRelease = "../../testdata/previous-release"
)

// run is one command's outcome.
type run struct {
	code           int
	stdout, stderr string
}

// fipsEnv is one sequence's directories: a fresh root, a certs-only root, a
// copy of the previous release's root and a KRM function's certificate
// directory.
type fipsEnv struct{ algo, root, certsRoot, previous, fnDir string }

// fipsStep is one command of the sequence. check, when set, inspects what
// the step left behind; same says its standard output must not depend on
// the FIPS mode (it names no temporary directory).
type fipsStep struct {
	name  string
	args  func(e fipsEnv) []string
	stdin func(e fipsEnv) string
	code  int
	same  bool
	check func(t *testing.T, e fipsEnv, before map[string][]byte, r run)
}

var fipsSteps = []fipsStep{
	{name: "build", code: 0, same: true, args: func(e fipsEnv) []string {
		return []string{"build", "--bootstrap-ip", "192.0.2.10", "--image", image}
	}},
	{name: "diff", code: 1, same: true, args: func(e fipsEnv) []string {
		return []string{"diff", "--overlays", "ipv4", "ipv6", "--bootstrap-ip", "192.0.2.10,2001:db8::10", "--image", image}
	}},
	{name: "ports", code: 0, same: true, args: func(e fipsEnv) []string { return []string{"ports", "--bootstrap-ip", "192.0.2.10", "upi"} }},
	{name: "render fresh", code: 0, args: func(e fipsEnv) []string { return renderArgs(e, e.root, "192.0.2.10") }},
	{name: "render re-run", code: 0, args: func(e fipsEnv) []string { return renderArgs(e, e.root, "192.0.2.10") },
		check: func(t *testing.T, e fipsEnv, before map[string][]byte, _ run) {
			unchanged(t, before, certFiles(t, e.root), "ca.crt", "ca.key", "server.crt", "agent.crt")
		}},
	{name: "render update", code: 0, args: func(e fipsEnv) []string { return renderArgs(e, e.root, "192.0.2.11") },
		check: func(t *testing.T, e fipsEnv, before map[string][]byte, _ run) {
			after := certFiles(t, e.root)
			unchanged(t, before, after, "ca.crt", "agent.crt")
			if bytes.Equal(before["server.crt"], after["server.crt"]) {
				t.Error("server.crt was not replaced for the new bootstrap IP")
			}
		}},
	{name: "check --cert-dir", code: 0, args: func(e fipsEnv) []string { return checkArgs(e.root) }},
	{name: "status", code: 1, args: func(e fipsEnv) []string { return []string{"status", "--root", e.root} },
		check: certificatesOK},
	{name: "probe", code: 1, args: func(e fipsEnv) []string {
		return []string{"probe", "--root", e.root, "--timeout", "2s", "198.51.100.2:443"}
	}},
	{name: "certs", code: 0, args: func(e fipsEnv) []string {
		return []string{"certs", "--root", e.certsRoot, "--dir", filepath.Join(e.certsRoot, certSubdir),
			"--bootstrap-ip", "2001:db8::10", "--key-algorithm", e.algo}
	}},
	{name: "fn", code: 0, args: func(fipsEnv) []string { return []string{"fn"} }, stdin: certsResourceList},
	{name: "teardown", code: 0, args: func(e fipsEnv) []string { return []string{"teardown", "--root", e.root} }},
	{name: "render over the previous release", code: 0,
		args: func(e fipsEnv) []string { return renderArgs(e, e.previous, "192.0.2.10") },
		check: func(t *testing.T, e fipsEnv, _ map[string][]byte, _ run) {
			old := certFiles(t, filepath.Join(previousRelease, e.algo))
			unchanged(t, old, certFiles(t, e.previous), "ca.crt", "ca.key", "server.crt", "server.key", "agent.crt", "agent.key")
		}},
	{name: "check --cert-dir, previous release", code: 0, args: func(e fipsEnv) []string { return checkArgs(e.previous) }},
	{name: "status, previous release", code: 1, args: func(e fipsEnv) []string { return []string{"status", "--root", e.previous} },
		check: certificatesOK},
}

func renderArgs(e fipsEnv, root, ip string) []string {
	return []string{"render", "--root", root, "--bootstrap-ip", ip, "--image", image, "--key-algorithm", e.algo}
}

func checkArgs(root string) []string {
	return []string{"check", "--cert-dir", filepath.Join(root, certSubdir), root}
}

func certsResourceList(e fipsEnv) string {
	return fmt.Sprintf(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
functionConfig:
  apiVersion: bundle.konnectivity.io/v1alpha1
  kind: KonnectivityCerts
  metadata:
    name: konnectivity-certs
  spec:
    certDir: %s
    bootstrapIP: 192.0.2.10
    generate: true
    keyAlgorithm: %s
`, e.fnDir, e.algo)
}

// certificatesOK: status (which exits 1 because no server runs) accepted
// the certificates.
func certificatesOK(t *testing.T, _ fipsEnv, _ map[string][]byte, r run) {
	t.Helper()
	if !regexp.MustCompile(`(?m)^\s*ok\s+certificates\s`).MatchString(r.stdout) {
		t.Errorf("status did not accept the certificates:\n%s", r.stdout)
	}
}

func certFiles(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, n := range []string{"ca.crt", "ca.key", "server.crt", "server.key", "agent.crt", "agent.key"} {
		b, err := os.ReadFile(filepath.Join(root, certSubdir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = b
	}
	return out
}

func unchanged(t *testing.T, before, after map[string][]byte, names ...string) {
	t.Helper()
	for _, n := range names {
		if !bytes.Equal(before[n], after[n]) {
			t.Errorf("%s changed", n)
		}
	}
}

// runCommand runs the binary (this test binary acting as main) with args
// under GODEBUG=godebug.
func runCommand(t *testing.T, godebug, stdin string, args ...string) run {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMain+"=1", "GODEBUG="+godebug)
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%v: %v", args, err)
	}
	return run{code: cmd.ProcessState.ExitCode(), stdout: stdout.String(), stderr: stderr.String()}
}

// copyPrevious copies a previous-release root with the modes render wrote
// (git keeps none): each recorded file's own, the certificate directory
// 0700, everything else 0755/0644.
func copyPrevious(t *testing.T, algo, to string) {
	t.Helper()
	from := filepath.Join(previousRelease, algo)
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(from, "var/lib/konnectivity-bundle/state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		Files []struct{ Path, Mode string }
	}
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	for _, f := range state.Files {
		var mode os.FileMode
		if _, err := fmt.Sscanf(f.Mode, "%o", &mode); err != nil {
			t.Fatalf("%s: mode %q: %v", f.Path, f.Mode, err)
		}
		if err := os.Chmod(filepath.Join(to, f.Path), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(to, certSubdir), 0o700); err != nil {
		t.Fatal(err)
	}
}

// TestFIPS140Only runs every command as a process in FIPS 140-only mode,
// with ECDSA and RSA keys, and the same sequence in the default mode: each
// step must exit as the default mode does, with the expected code, without
// a panic, and where the output names no temporary path, print the same.
// The control case shows the mode is really enforced in these processes.
func TestFIPS140Only(t *testing.T) {
	if got, want := enforcement(t, ""), "enforced=false sha1 refused: <nil>"; got != want {
		t.Fatalf("default mode control: %q, want %q", got, want)
	}
	if got := enforcement(t, "fips140=only"); !strings.HasPrefix(got, "enforced=true sha1 refused: crypto/sha1: use of SHA-1 is not allowed") {
		t.Fatalf("GODEBUG=fips140=only is not enforced in the child processes: %q", got)
	}
	for _, algo := range []string{"ecdsa", "rsa"} {
		t.Run(algo, func(t *testing.T) {
			t.Parallel()
			results := map[string]map[string]run{}
			for _, mode := range []string{"", "fips140=only"} {
				results[mode] = runSequence(t, algo, mode)
			}
			for _, s := range fipsSteps {
				plain, fips := results[""][s.name], results["fips140=only"][s.name]
				if strings.Contains(fips.stderr, "panic") || fips.code != s.code || fips.code != plain.code {
					t.Errorf("%s: exit %d in FIPS 140-only mode, %d by default, want %d\nstdout:\n%s\nstderr:\n%s",
						s.name, fips.code, plain.code, s.code, fips.stdout, fips.stderr)
				}
				if s.same && fips.stdout != plain.stdout {
					t.Errorf("%s: output differs in FIPS 140-only mode:\n%s\ndefault:\n%s", s.name, fips.stdout, plain.stdout)
				}
			}
		})
	}
}

// runSequence runs every step in order in fresh directories under GODEBUG=mode.
func runSequence(t *testing.T, algo, mode string) map[string]run {
	t.Helper()
	tmp := t.TempDir()
	e := fipsEnv{algo: algo, root: filepath.Join(tmp, "root"), certsRoot: filepath.Join(tmp, "certs"),
		previous: filepath.Join(tmp, "previous"), fnDir: filepath.Join(tmp, "fn", "tls")}
	copyPrevious(t, algo, e.previous)
	for _, dir := range []string{e.root, e.certsRoot} {
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := map[string]run{}
	for _, s := range fipsSteps {
		var before map[string][]byte
		if _, err := os.Stat(filepath.Join(e.root, certSubdir)); err == nil {
			before = certFiles(t, e.root)
		}
		stdin := ""
		if s.stdin != nil {
			stdin = s.stdin(e)
		}
		r := runCommand(t, mode, stdin, s.args(e)...)
		out[s.name] = r
		if s.check != nil && r.code == s.code {
			t.Run(fmt.Sprintf("%s GODEBUG=%s", s.name, mode), func(t *testing.T) { s.check(t, e, before, r) })
		}
	}
	return out
}
