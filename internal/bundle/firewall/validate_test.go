package firewall_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// checker validates one format's output with that tool's own parser.
type checker struct {
	format  string
	tool    string // the executable; missing, the check skips naming install
	install string
	slow    bool // seconds per call: check the dual-stack case only, which has every field
	check   func(t *testing.T, file string, pc planCase, revoke bool)
}

// Every check runs for every golden case, apply and revoke form. What no
// tool here can check (az and openstack need an account before they parse
// values) is covered by the shell syntax check and the golden files only.
var checkers = []checker{
	{"nftables", "nft", "apt-get install nftables", false, checkNft},
	{"firewalld", "firewall-offline-cmd", "apt-get install firewalld", true, checkFirewalld},
	{"aws", "aws", "apt-get install awscli", true, checkAWS},
	{"aws-cloudformation", "cfn-lint", "pip install cfn-lint", true, checkCfnLint},
	{"aws-terraform", "terraform", "terraform from releases.hashicorp.com", false, checkTerraform},
	{"gcp", "gcloud", "the Google Cloud CLI", true, checkGcloud},
}

func TestFormatsValidate(t *testing.T) {
	tooltest.Integration(t, "runs nft, firewalld and the cloud CLIs on every output")
	for _, c := range checkers {
		t.Run(c.format, func(t *testing.T) {
			t.Parallel() // the cloud CLIs spend seconds starting; let them overlap
			if _, err := exec.LookPath(c.tool); err != nil {
				tooltest.Missing(t, c.tool+" is not on PATH ("+c.install+"): the "+c.format+" output is checked by its golden file only")
			}
			for _, pc := range planCases {
				if c.slow && pc.name != "dualstack-name" {
					continue
				}
				for _, revoke := range []bool{false, true} {
					opts := pc.opts
					opts.Revoke = revoke
					file := filepath.Join(t.TempDir(), c.format)
					writeFile(t, file, render(t, c.format, pc.req, opts))
					c.check(t, file, pc, revoke)
				}
			}
		})
	}
}

// TestScriptsParse: every output that is a shell script parses as POSIX sh.
func TestScriptsParse(t *testing.T) {
	sh := tooltest.System(t, "dash", "dash")
	for _, pc := range planCases {
		for _, format := range firewall.Formats() {
			for _, revoke := range []bool{false, true} {
				opts := pc.opts
				opts.Revoke = revoke
				out := render(t, format, pc.req, opts)
				if !strings.HasPrefix(string(out), "#!/bin/sh") {
					continue
				}
				file := filepath.Join(t.TempDir(), "rules.sh")
				writeFile(t, file, out)
				if b, err := exec.Command(sh, "-n", file).CombinedOutput(); err != nil {
					t.Errorf("%s %s revoke=%v: %v\n%s", pc.name, format, revoke, err, b)
				}
			}
		}
	}
}

func writeFile(t *testing.T, file string, b []byte) {
	t.Helper()
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runTool runs name with args and env added, returning combined output.
func runTool(name string, env []string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	b, err := cmd.CombinedOutput()
	return string(b), err
}

// checkNft: nft checks the file against a kernel (a new network namespace,
// nothing is committed: -c).
func checkNft(t *testing.T, file string, pc planCase, revoke bool) {
	needRoot(t)
	if out, err := runTool("unshare", nil, "--net", "nft", "-c", "-f", file); err != nil {
		t.Errorf("%s revoke=%v: nft -c: %v\n%s", pc.name, revoke, err, out)
	}
}

// checkFirewalld runs the script with firewall-cmd standing for
// firewall-offline-cmd (which edits the permanent configuration only) on an
// empty configuration (the package's firewalld.conf, no zone changes) in a
// private mount namespace, and reads the rich
// rules back: the apply form adds exactly the plan's, the revoke form
// leaves none.
func checkFirewalld(t *testing.T, file string, pc planCase, revoke bool) {
	needRoot(t)
	script := `set -e
conf=$(cat /etc/firewalld/firewalld.conf)
mount -t tmpfs tmpfs /etc/firewalld
printf '%s\n' "$conf" > /etc/firewalld/firewalld.conf
# The runtime call is the permanent one without --permanent: check it once.
firewall-cmd() { [ "$1" = --permanent ] || return 0; shift; firewall-offline-cmd "$@"; }
` + applyFirst(t, file, pc, revoke) + `
echo '### rules'
firewall-offline-cmd --list-rich-rules`
	// bash: a function name with a dash is not POSIX.
	out, err := runTool("unshare", nil, "--mount", "bash", "-c", script)
	if err != nil {
		t.Fatalf("%s revoke=%v: %v\n%s", pc.name, revoke, err, out)
	}
	_, listed, _ := strings.Cut(out, "### rules\n")
	got := strings.Fields(strings.ReplaceAll(strings.TrimSpace(listed), " ", "_"))
	var want []string
	if !revoke {
		p, _ := firewall.NewPlan(pc.req, pc.opts)
		for _, r := range firewall.RichRules(p) {
			want = append(want, strings.ReplaceAll(r, " ", "_"))
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("%s revoke=%v: firewalld holds %v, want %v\n%s", pc.name, revoke, got, want, out)
	}
}

// applyFirst is the shell that runs file; a revoke form runs after the
// apply form, so that it has something to remove.
func applyFirst(t *testing.T, file string, pc planCase, revoke bool) string {
	if !revoke {
		return ". " + file
	}
	writeFile(t, file+".apply", render(t, "firewalld", pc.req, pc.opts))
	return ". " + file + ".apply; . " + file
}

// checkAWS: the aws CLI validates parameters against the EC2 API model
// before it looks for credentials; without any, a valid call stops there.
func checkAWS(t *testing.T, file string, pc planCase, revoke bool) {
	env := []string{"BOOTSTRAP_SG=sg-0123456789abcdef0", "AWS_CONFIG_FILE=/dev/null", "AWS_SHARED_CREDENTIALS_FILE=/dev/null",
		"AWS_ACCESS_KEY_ID=", "AWS_SECRET_ACCESS_KEY=", "AWS_DEFAULT_REGION=us-east-1", "AWS_EC2_METADATA_DISABLED=true"}
	out, _ := runTool("sh", env, file)
	if !strings.Contains(out, "Unable to locate credentials") {
		t.Errorf("%s revoke=%v: want the call to pass parameter validation and stop at credentials, got:\n%s", pc.name, revoke, out)
	}
}

// checkCfnLint lints the template (the revoke form is a delete-stack call).
func checkCfnLint(t *testing.T, file string, pc planCase, revoke bool) {
	if revoke {
		return
	}
	tmpl := file + ".json"
	if err := os.Rename(file, tmpl); err != nil {
		t.Fatal(err)
	}
	if out, err := runTool("cfn-lint", nil, tmpl); err != nil {
		t.Errorf("%s: cfn-lint: %v\n%s", pc.name, err, out)
	}
}

// checkTerraform: terraform's own parser and formatter accept the file
// unchanged. Its provider schema is not reachable here (no registry), so
// terraform validate cannot run.
func checkTerraform(t *testing.T, file string, pc planCase, revoke bool) {
	if revoke {
		return
	}
	tf := file + ".tf"
	if err := os.Rename(file, tf); err != nil {
		t.Fatal(err)
	}
	if out, err := runTool("terraform", nil, "fmt", "-check", "-diff", tf); err != nil {
		t.Errorf("%s: terraform fmt -check: %v\n%s", pc.name, err, out)
	}
}

// checkGcloud: gcloud parses the flags before it asks for an account;
// without one, a call whose flags all exist stops there.
func checkGcloud(t *testing.T, file string, pc planCase, revoke bool) {
	env := []string{"GCP_NETWORK=my-network", "BOOTSTRAP_TAG=my-bootstrap", "CLOUDSDK_CONFIG=" + t.TempDir(), "CLOUDSDK_CORE_DISABLE_PROMPTS=1"}
	out, _ := runTool("sh", env, file)
	if !strings.Contains(out, "You do not currently have an active account selected") || strings.Contains(out, "unrecognized arguments") {
		t.Errorf("%s revoke=%v: want the flags parsed and the call stopped at the account, got:\n%s", pc.name, revoke, out)
	}
}

func needRoot(t *testing.T) {
	t.Helper()
	tooltest.Integration(t, "applies rules in a private network or mount namespace")
	if os.Geteuid() != 0 {
		tooltest.Missing(t, "needs root for a private network or mount namespace")
	}
}
