package firewall_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// stubNames are the commands a generated script may run; each is a stub
// recording its argv. A script that runs anything else finds nothing on
// PATH and says "not found".
var stubNames = []string{"aws", "gcloud", "az", "openstack", "firewall-cmd", "iptables", "ip6tables", "nft", "terraform", "sed"}

// stubScript records NAME ARGS... (and nft's stdin for -f -) as NUL-ended
// fields led by their count, then answers the listing calls the revoke
// forms make as the platform would when the rules are there (or, without
// KB_STUB_PRESENT, answers that iptables' rules are missing). sed is the
// real one.
const stubScript = `#!/bin/sh
name=${0##*/}
# sed runs in a pipeline with nft, in no fixed order: real, not recorded.
[ "$name" != sed ] || exec "$KB_STUB_SED" "$@"
in=
if [ "$name" = nft ] && [ "$1" = -f ] && [ "$2" = - ]; then
	in=$(while IFS= read -r l; do printf '%s\n' "$l"; done; printf x)
	in=stdin:${in%x}
fi
n=$(($# + 1))
[ -z "$in" ] || n=$((n + 1))
{ printf '%s\0' "$n" "$name" "$@"; [ -z "$in" ] || printf '%s\0' "$in"; } >> "$KB_STUB_LOG"
case "$name $*" in
"aws ec2 describe-security-group-rules "*) printf 'sgr-0aaa\tsgr-0bbb\n' ;;
"az network nsg rule list "*) printf '100\n200\n' ;;
"openstack security group rule list "*) printf 'rule-1\nrule-2\n' ;;
"openstack security group rule show rule-1 "*) printf '%s\n' "$KB_STUB_DESCRIPTION" ;;
"openstack security group rule show "*) printf 'a rule of another cluster\n' ;;
"nft -a list chain "*) printf '\t\tip saddr 10.0.0.0/8 tcp dport 8091 accept comment "konnectivity-bootstrap" # handle 7\n' ;;
"iptables -w -C "* | "ip6tables -w -C "* | "iptables -w -n -L "* | "ip6tables -w -n -L "*) [ -n "$KB_STUB_PRESENT" ] || exit 1 ;;
esac
exit 0
`

// stubDescription is the description our OpenStack rules carry for infraID,
// which the stub's rule-1 has: the revoke form must delete rule-1 only.
const stubDescription = "konnectivity-bootstrap " + infraID + ": Konnectivity agents to the bootstrap host (bootstrap phase only)"

// stubs is a directory of recording stubs and the shell to run scripts with.
type stubs struct {
	bin, sh, sed string
}

func newStubs(t *testing.T) *stubs {
	t.Helper()
	s := &stubs{bin: t.TempDir(), sh: tooltest.System(t, "dash", "dash"), sed: tooltest.System(t, "sed", "sed")}
	for _, name := range stubNames {
		writeFile(t, filepath.Join(s.bin, name), []byte(stubScript))
		if err := os.Chmod(filepath.Join(s.bin, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// run runs script with only the stubs on PATH, in an empty directory, and
// returns the calls it made, one per line. present says the rules are there
// (the revoke forms' listings find them). It fails the test when the script
// fails, runs a command that is not a stub, or leaves a file behind.
func (s *stubs) run(t *testing.T, script []byte, present bool) string {
	t.Helper()
	dir := t.TempDir()
	work, file, log := filepath.Join(dir, "work"), filepath.Join(dir, "rules.sh"), filepath.Join(dir, "calls")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, file, script)
	cmd := exec.Command(s.sh, file)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + s.bin, "KB_STUB_LOG=" + log, "KB_STUB_SED=" + s.sed, "KB_STUB_DESCRIPTION=" + stubDescription,
		"BOOTSTRAP_SG=sg-0bootstrap", "GCP_NETWORK=net-a", "BOOTSTRAP_TAG=boot-a", "AZ_RESOURCE_GROUP=rg-a", "AZ_NSG=nsg-a"}
	if present {
		cmd.Env = append(cmd.Env, "KB_STUB_PRESENT=1")
	}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil || strings.Contains(stderr.String(), "not found") {
		t.Fatalf("the script failed or ran a command that is no stub: %v\n%s\n--- script:\n%s", err, stderr.String(), script)
	}
	if left, _ := os.ReadDir(work); len(left) > 0 {
		t.Fatalf("the script left %s behind in its directory\n--- script:\n%s", left[0].Name(), script)
	}
	raw, err := os.ReadFile(log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return readCalls(t, raw)
}

// readCalls turns the stubs' records into lines, one call each, every
// field that is not plain quoted as Go quotes it.
func readCalls(t *testing.T, raw []byte) string {
	t.Helper()
	fields := strings.Split(string(raw), "\x00")
	var out strings.Builder
	for i := 0; i < len(fields)-1; {
		n, err := strconv.Atoi(fields[i])
		if err != nil || i+1+n > len(fields)-1 {
			t.Fatalf("the stubs' record is corrupt at field %d: %q", i, raw)
		}
		for j, f := range fields[i+1 : i+1+n] {
			if j > 0 {
				out.WriteByte(' ')
			}
			out.WriteString(plainOrQuoted(f))
		}
		out.WriteByte('\n')
		i += 1 + n
	}
	return out.String()
}

func plainOrQuoted(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,@%+") == "" {
		return s
	}
	return strconv.Quote(s)
}

// TestScriptsCalls: the commands every sh form runs, with their argv, run
// against the stubs, compared with a reviewed file per case.
func TestScriptsCalls(t *testing.T) {
	t.Parallel()
	s := newStubs(t)
	for _, pc := range planCases {
		t.Run(pc.name, func(t *testing.T) {
			t.Parallel()
			var calls strings.Builder
			for _, f := range allForms() {
				if f.nftChain != "" && pc.name != "dualstack-name" {
					continue
				}
				opts := pc.opts
				opts.Revoke, opts.NftChain = f.revoke, f.nftChain
				out := render(t, f.format, pc.req, opts)
				if !bytes.HasPrefix(out, []byte("#!/bin/sh")) {
					continue
				}
				fmt.Fprintf(&calls, "######## %s\n%s\n", f, s.run(t, out, f.revoke))
			}
			goldenfile.Assert(t, filepath.Join("testdata", "golden", pc.name, "calls"), []byte(calls.String()))
		})
	}
}
