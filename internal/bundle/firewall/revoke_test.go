package firewall_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// otherID is a second cluster sharing the account (and the host, for
// firewalld) with the first, its nodes on other subnets.
const otherID = "other-b1c2d"

// fakePlatform runs scripts against the fake CLIs of fakecloud_test.go.
type fakePlatform struct {
	bin, sh, state string
}

func newFakePlatform(t *testing.T) *fakePlatform {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &fakePlatform{bin: t.TempDir(), sh: tooltest.System(t, "dash", "dash"), state: filepath.Join(t.TempDir(), "state.json")}
	for _, name := range []string{"aws", "gcloud", "az", "openstack", "firewall-cmd"} {
		file := filepath.Join(p.bin, name)
		writeFile(t, file, []byte("#!/bin/sh\nKB_FAKE_CLI=${0##*/} KB_FAKE_STATE="+p.state+" exec "+self+" \"$@\"\n"))
		if err := os.Chmod(file, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// run runs a script; it reports whether the script succeeded, and its output.
func (p *fakePlatform) run(t *testing.T, script []byte) (bool, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "rules.sh")
	writeFile(t, file, script)
	cmd := exec.Command(p.sh, file)
	cmd.Env = []string{"PATH=" + p.bin, "BOOTSTRAP_SG=sg-0bootstrap", "GCP_NETWORK=net-a", "BOOTSTRAP_TAG=boot-a", "AZ_RESOURCE_GROUP=rg-a", "AZ_NSG=nsg-a"}
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "fake: no fake") || strings.Contains(string(out), "unknown call") || strings.Contains(string(out), "not found") {
		t.Fatalf("the script made a call the fake platform does not know:\n%s\n--- script:\n%s", out, script)
	}
	return err == nil, string(out)
}

func (p *fakePlatform) rules(t *testing.T) []fakeRule {
	t.Helper()
	var w world
	raw, err := os.ReadFile(p.state)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatal(err)
		}
	}
	return w.Rules
}

func (p *fakePlatform) seed(t *testing.T, r fakeRule) {
	t.Helper()
	w := world{Rules: p.rules(t), Next: 1000}
	w.Rules = append(w.Rules, r)
	raw, _ := json.Marshal(w)
	writeFile(t, p.state, raw)
}

// TestRevokeKeepsOthers: on a platform that already holds another
// cluster's rules (applied with that cluster's own script) and a rule of
// the user's identical to ours, applying then revoking our rules leaves
// the platform exactly as it was. Where the platform refuses a second
// identical rule (AWS, OpenStack), our apply fails and revoke still leaves
// the user's rule; elsewhere, or with the user's rule on a wider subnet,
// ours are added next to it, carry the cluster's identity, and go again on
// revoke.
func TestRevokeKeepsOthers(t *testing.T) {
	t.Parallel()
	base := planCases[2] // dual stack by name
	other := base.opts
	other.From, other.InfraID = prefixes("10.0.1.0/24", "fd00:11::/64"), otherID
	const own = "the user's own"
	for _, tc := range []struct {
		format     string
		user       fakeRule
		dupRefused bool
	}{
		{"aws", fakeRule{Kind: "aws", ID: "sgr-user", Group: "sg-0bootstrap", CIDR: "10.0.0.0/24", Port: 8091, Desc: own}, true},
		{"aws", fakeRule{Kind: "aws", ID: "sgr-user", Group: "sg-0bootstrap", CIDR: "10.0.0.0/16", Port: 8091, Desc: own}, false},
		{"gcp", fakeRule{Kind: "gcp", ID: "allow-agents", Group: "net-a", CIDR: "10.0.0.0/24", Desc: own}, false},
		{"azure", fakeRule{Kind: "azure", ID: "allow-agents", Group: "rg-a/nsg-a", CIDR: "10.0.0.0/24", Priority: 202, Desc: own}, false},
		{"openstack", fakeRule{Kind: "openstack", ID: "rule-user", Group: "sg-0bootstrap", CIDR: "10.0.0.0/24", Port: 8091, Desc: own}, true},
		{"openstack", fakeRule{Kind: "openstack", ID: "rule-user", Group: "sg-0bootstrap", CIDR: "10.0.0.0/16", Port: 8091, Desc: own}, false},
		{"firewalld", fakeRule{Kind: "firewalld-permanent", CIDR: "10.0.0.0/24", Desc: `rule family="ipv4" source address="10.0.0.0/24" port port="8091" protocol="tcp" accept`}, false},
	} {
		t.Run(tc.format+" "+tc.user.CIDR, func(t *testing.T) {
			t.Parallel()
			p := newFakePlatform(t)
			other := other
			if !firewall.IsCloud(tc.format) {
				other.InfraID = ""
			}
			if ok, out := p.run(t, render(t, tc.format, base.req, other)); !ok {
				t.Fatalf("the other cluster's rules: %s", out)
			}
			p.seed(t, tc.user)
			before := p.rules(t)
			opts := base.opts
			ok, out := p.run(t, render(t, tc.format, base.req, opts))
			if ok == tc.dupRefused {
				t.Fatalf("applying next to an identical rule of the user's succeeded=%v, want %v:\n%s", ok, !tc.dupRefused, out)
			}
			if ok {
				checkAdded(t, tc.format, before, p.rules(t))
			}
			opts.Revoke = true
			if ok, out := p.run(t, render(t, tc.format, base.req, opts)); !ok {
				t.Fatalf("revoke failed:\n%s", out)
			}
			if after := p.rules(t); !equalJSON(before, after) {
				t.Fatalf("revoke did not leave the platform as it was:\nbefore %+v\nafter  %+v", before, after)
			}
		})
	}
}

// checkAdded: applying added rules, every one carrying our identity (the
// infra ID; on firewalld, the marker priority), and kept every earlier one.
func checkAdded(t *testing.T, format string, before, after []fakeRule) {
	t.Helper()
	if len(after) <= len(before) || !equalJSON(before, after[:len(before)]) {
		t.Fatalf("applying did not add rules next to the others:\nbefore %+v\nafter  %+v", before, after)
	}
	mark := infraID
	if !firewall.IsCloud(format) {
		mark = `priority="-30091"`
	}
	for _, r := range after[len(before):] {
		if s := fmt.Sprintf("%+v", r); !strings.Contains(s, mark) || strings.Contains(s, otherID) {
			t.Errorf("added rule %s does not carry %s alone", s, mark)
		}
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestRevokeCloudFormationStack: the revoke form deletes this cluster's
// stack, not another cluster's.
func TestRevokeCloudFormationStack(t *testing.T) {
	p := newFakePlatform(t)
	for _, id := range []string{otherID, infraID} {
		p.seed(t, fakeRule{Kind: "stack", ID: id + "-konnectivity-bootstrap"})
	}
	opts := planCases[2].opts
	opts.Revoke = true
	if ok, out := p.run(t, render(t, "aws-cloudformation", planCases[2].req, opts)); !ok {
		t.Fatalf("revoke failed:\n%s", out)
	}
	if got := p.rules(t); len(got) != 1 || got[0].ID != otherID+"-konnectivity-bootstrap" {
		t.Fatalf("stacks left %+v, want only the other cluster's", got)
	}
}
