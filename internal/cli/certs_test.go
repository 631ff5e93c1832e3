package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mainWithEnv runs the program in-process and returns exit code and output.
func mainWithEnv(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return runProgram(t, New(Config{}), env, args...)
}

// runProgram runs c in-process with the environment env.
func runProgram(t *testing.T, c *CLI, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	io := IO{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] }}
	code := c.Main(append([]string{ProgramName}, args...), io)
	return code, stdout.String(), stderr.String()
}

// TestCertsCommand: create, reuse, then regenerate what an IP change
// invalidates, saying each time what happened and why, on stdout only.
func TestCertsCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "konnectivity")
	q := regexp.QuoteMeta(dir)
	steps := []struct {
		name, ip string
		stdout   string // regexp
	}{
		{"first run", "192.0.2.10", `^wrote ` + q + `/ca\.crt ` + q + `/ca\.key ` + q + `/server\.crt ` + q + `/server\.key ` + q + `/agent\.crt ` + q + `/agent\.key\n` +
			`generated because no certificates in ` + q + ` yet\n$`},
		{"same inputs", "192.0.2.10", `^reused ` + q + `: certificates for 192\.0\.2\.10 in ` + q + ` are valid until \S+Z\n$`},
		{"new IP", "2001:db8::10", `^wrote ` + q + `/server\.crt ` + q + `/server\.key\ngenerated because bootstrap IP changed from 192\.0\.2\.10 to 2001:db8::10\n$`},
	}
	for _, s := range steps {
		code, stdout, stderr := mainWithEnv(t, nil, "certs", "--bootstrap-ip", s.ip, "--dir", dir)
		if code != 0 || stderr != "" || !regexp.MustCompile(s.stdout).MatchString(stdout) {
			t.Fatalf("%s: exit %d\nstdout: %s\nstderr: %s\nwant stdout matching %s", s.name, code, stdout, stderr, s.stdout)
		}
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v (%v), want 0700", fi.Mode().Perm(), err)
	}
}

func TestCertsCommandRSA(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, stdout, stderr := mainWithEnv(t, nil, "certs", "--bootstrap-ip", "192.0.2.10", "--dir", dir,
		"--key-algorithm", "rsa", "--key-size", "3072", "--validity", "48h")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	for _, f := range []string{"ca.key", "server.key", "agent.key"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !bytes.HasPrefix(b, []byte("-----BEGIN RSA PRIVATE KEY-----")) {
			t.Errorf("%s is not an RSA key (%v)", f, err)
		}
	}
}

func TestCertsCommandBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, []byte("x"), 0o600)
	otherRoot := t.TempDir()
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no IP", []string{"--dir", "D"}, 2, "--bootstrap-ip is required"},
		{"no dir", []string{"--bootstrap-ip", "192.0.2.10"}, 2, "--dir is required"},
		{"malformed IP", []string{"--bootstrap-ip", "192.0.2", "--dir", "D"}, 2, `invalid argument "192.0.2" for "--bootstrap-ip" flag: "192.0.2" is not an IP address`},
		{"loopback", []string{"--bootstrap-ip", "127.0.0.1", "--dir", "D"}, 2, `for "--bootstrap-ip" flag: "127.0.0.1" is a loopback address`},
		{"multicast", []string{"--bootstrap-ip", "ff02::1", "--dir", "D"}, 2, `for "--bootstrap-ip" flag: "ff02::1" is a multicast address`},
		{"unspecified", []string{"--bootstrap-ip", "0.0.0.0", "--dir", "D"}, 2, "is the unspecified address"},
		{"algorithm", []string{"--bootstrap-ip", "192.0.2.10", "--dir", "D", "--key-algorithm", "dsa"}, 2, `--key-algorithm: "dsa": use ecdsa or rsa`},
		{"rsa size", []string{"--bootstrap-ip", "192.0.2.10", "--dir", "D", "--key-algorithm", "rsa", "--key-size", "1024"}, 2, "--key-size: 1024: RSA keys must be 2048, 3072 or 4096 bits"},
		{"ecdsa size", []string{"--bootstrap-ip", "192.0.2.10", "--dir", "D", "--key-size", "384"}, 2, "--key-size: 384: ECDSA keys are P-256 only"},
		{"short validity", []string{"--bootstrap-ip", "192.0.2.10", "--dir", "D", "--validity", "30m"}, 2, "--validity: 30m0s: must be more than 1h0m0s"},
		{"bad validity", []string{"--bootstrap-ip", "192.0.2.10", "--dir", "D", "--validity", "1d"}, 2, `invalid argument "1d" for "--validity"`},
		{"argument", []string{"--bootstrap-ip", "192.0.2.10", "--dir", "D", "extra"}, 2, "certs takes no arguments"},
		{"dir is a file", []string{"--bootstrap-ip", "192.0.2.10", "--dir", file}, 1, "konnectivity-bundle certs: --dir: destination " + file + ": is a file where a directory should be (fix: "},
		{"dir outside root", []string{"--bootstrap-ip", "192.0.2.10", "--dir", "D", "--root", otherRoot}, 2, "is not beneath --root"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wd := t.TempDir()
			t.Chdir(wd)
			code, stdout, stderr := mainWithEnv(t, nil, append([]string{"certs"}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and stderr containing %q", code, stdout, stderr, tc.code, tc.want)
			}
			if entries, _ := os.ReadDir(wd); len(entries) != 0 {
				t.Errorf("bad input left files behind: %v", entries)
			}
		})
	}
}

// TestCertsCommandNeverFollowsALink: as root on a host that is not ours,
// certs writes keys only where --dir says: a directory symlink on the way,
// or planted in place of a key, is refused and its target stays untouched.
func TestCertsCommandNeverFollowsALink(t *testing.T) {
	for _, planted := range []string{"etc", "etc/konnectivity/agent.key"} {
		t.Run(planted, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, "etc", "konnectivity"), 0o700); err != nil {
				t.Fatal(err)
			}
			target := filepath.Join(outside, "victim")
			if err := os.WriteFile(target, []byte("not ours"), 0o600); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(root, planted)
			if planted == "etc" {
				os.RemoveAll(link)
				target = outside
			}
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := mainWithEnv(t, nil, "certs", "--bootstrap-ip", "192.0.2.10",
				"--root", root, "--dir", filepath.Join(root, "etc", "konnectivity"))
			if code != 1 || !strings.Contains(stderr, "is a symbolic link") || stdout != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1 naming the link", code, stdout, stderr)
			}
			if b, err := os.ReadFile(filepath.Join(outside, "victim")); err != nil || string(b) != "not ours" {
				t.Errorf("the link's target changed: %q %v", b, err)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 1 {
				t.Errorf("certs wrote outside the root: %v", entries)
			}
		})
	}
}
