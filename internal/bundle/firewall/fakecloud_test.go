package firewall_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for a platform's CLI: run with
// KB_FAKE_CLI=NAME it is that CLI, keeping the platform's rules in the
// JSON file $KB_FAKE_STATE (see fakeCLI).
func TestMain(m *testing.M) {
	if name := os.Getenv("KB_FAKE_CLI"); name != "" {
		os.Exit(fakeCLI(name, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakeRule is one rule a fake platform holds. Kind says which platform and
// sort: aws, stack, gcp, azure, openstack, firewalld-runtime,
// firewalld-permanent.
type fakeRule struct {
	Kind, ID, Group, CIDR, Desc string
	Port, Priority              int
	Tags                        map[string]string `json:",omitempty"`
}

// world is a fake platform's state.
type world struct {
	Rules []fakeRule
	Next  int
}

// fakeCLI runs one call of aws, gcloud, az, openstack or firewall-cmd
// against the state file, with the refusals of the real platform that
// matter here: AWS and OpenStack refuse a rule identical to one they hold
// (whatever its description), GCP and Azure a name taken, Azure an inbound
// priority taken. Calls it does not know fail, so a script drifting from
// what the fake understands fails the test.
func fakeCLI(name string, args []string) int {
	file := os.Getenv("KB_FAKE_STATE")
	var w world
	if raw, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(raw, &w); err != nil {
			fmt.Fprintln(os.Stderr, "fake: state:", err)
			return 3
		}
	}
	handlers := map[string]func(*world, []string) error{"aws": fakeAWS, "gcloud": fakeGCloud, "az": fakeAz, "openstack": fakeOpenStack, "firewall-cmd": fakeFirewallCmd}
	h, ok := handlers[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "fake: no fake %s\n", name)
		return 3
	}
	if err := h(&w, args); err != nil {
		fmt.Fprintf(os.Stderr, "fake %s %q: %v\n", name, args, err)
		return 1
	}
	raw, _ := json.MarshalIndent(w, "", " ")
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fake: state:", err)
		return 3
	}
	return 0
}

// flagsOf reads --name=value and --name value pairs; a flag followed by
// several bare words (--security-group-rule-ids a b) keeps them all, space
// separated; the bare words before any flag are the positional arguments.
func flagsOf(args []string) (map[string]string, []string) {
	flags, pos, last := map[string]string{}, []string(nil), ""
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "-"):
			k, v, hasValue := strings.Cut(a, "=")
			last = k
			if hasValue {
				flags[k], last = v, ""
			} else {
				flags[k] = ""
			}
		case last != "":
			flags[last] = strings.TrimPrefix(flags[last]+" "+a, " ")
		default:
			pos = append(pos, a)
		}
	}
	return flags, pos
}

func (w *world) add(r fakeRule) {
	w.Next++
	if r.ID == "" {
		r.ID = fmt.Sprintf("%s-%d", r.Kind, w.Next)
	}
	w.Rules = append(w.Rules, r)
}

func (w *world) find(match func(fakeRule) bool) int {
	return slices.IndexFunc(w.Rules, match)
}

func (w *world) remove(i int) { w.Rules = slices.Delete(w.Rules, i, i+1) }

func fakeAWS(w *world, args []string) error {
	f, pos := flagsOf(args)
	switch strings.Join(pos, " ") {
	case "ec2 authorize-security-group-ingress":
		return awsAuthorize(w, f)
	case "ec2 describe-security-group-rules":
		var ids []string
		for _, r := range w.Rules {
			if r.Kind == "aws" && awsFiltersMatch(f["--filters"], r) {
				ids = append(ids, r.ID)
			}
		}
		if len(ids) > 0 {
			fmt.Println(strings.Join(ids, "\t"))
		}
		return nil
	case "ec2 revoke-security-group-ingress":
		for _, id := range strings.Fields(f["--security-group-rule-ids"]) {
			i := w.find(func(r fakeRule) bool { return r.Kind == "aws" && r.ID == id && r.Group == f["--group-id"] })
			if i < 0 {
				return fmt.Errorf("InvalidSecurityGroupRuleId.NotFound: %s", id)
			}
			w.remove(i)
		}
		return nil
	case "cloudformation delete-stack":
		if i := w.find(func(r fakeRule) bool { return r.Kind == "stack" && r.ID == f["--stack-name"] }); i >= 0 {
			w.remove(i)
		}
		return nil
	case "cloudformation wait stack-delete-complete":
		return nil
	}
	return fmt.Errorf("unknown call")
}

func awsAuthorize(w *world, f map[string]string) error {
	var perms []struct {
		FromPort             int
		IpRanges, Ipv6Ranges []map[string]string
		IpProtocol           string
	}
	var specs []struct {
		Tags []struct{ Key, Value string }
	}
	if err := json.Unmarshal([]byte(f["--ip-permissions"]), &perms); err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(f["--tag-specifications"]), &specs); err != nil || len(specs) != 1 {
		return fmt.Errorf("--tag-specifications: %v", err)
	}
	tags := map[string]string{}
	for _, t := range specs[0].Tags {
		tags[t.Key] = t.Value
	}
	for _, p := range perms {
		for _, rg := range append(p.IpRanges, p.Ipv6Ranges...) {
			r := fakeRule{Kind: "aws", Group: f["--group-id"], CIDR: rg["CidrIp"] + rg["CidrIpv6"], Port: p.FromPort, Desc: rg["Description"], Tags: tags}
			if w.find(func(o fakeRule) bool {
				return o.Kind == "aws" && o.Group == r.Group && o.CIDR == r.CIDR && o.Port == r.Port
			}) >= 0 {
				return fmt.Errorf("InvalidPermission.Duplicate: %s port %d", r.CIDR, r.Port)
			}
			w.add(r)
		}
	}
	return nil
}

// awsFiltersMatch: every Name=group-id or Name=tag:KEY filter (one value
// each) matches r.
func awsFiltersMatch(filters string, r fakeRule) bool {
	for _, f := range strings.Fields(filters) {
		name, value, _ := strings.Cut(strings.TrimPrefix(f, "Name="), ",Values=")
		switch {
		case name == "group-id" && r.Group != value:
			return false
		case strings.HasPrefix(name, "tag:") && r.Tags[strings.TrimPrefix(name, "tag:")] != value:
			return false
		}
	}
	return true
}

func fakeGCloud(w *world, args []string) error {
	f, pos := flagsOf(args)
	if len(pos) != 4 || pos[0] != "compute" || pos[1] != "firewall-rules" {
		return fmt.Errorf("unknown call")
	}
	i := w.find(func(r fakeRule) bool { return r.Kind == "gcp" && r.ID == pos[3] })
	switch pos[2] {
	case "create":
		if i >= 0 {
			return fmt.Errorf("the resource 'firewalls/%s' already exists", pos[3])
		}
		w.add(fakeRule{Kind: "gcp", ID: pos[3], Group: f["--network"], CIDR: f["--source-ranges"], Desc: f["--description"]})
		return nil
	case "delete":
		if i < 0 {
			return fmt.Errorf("the resource 'firewalls/%s' was not found", pos[3])
		}
		w.remove(i)
		return nil
	}
	return fmt.Errorf("unknown call")
}

func fakeAz(w *world, args []string) error {
	f, pos := flagsOf(args)
	nsg := f["--resource-group"] + "/" + f["--nsg-name"]
	i := w.find(func(r fakeRule) bool { return r.Kind == "azure" && r.Group == nsg && r.ID == f["--name"] })
	switch strings.Join(pos, " ") {
	case "network nsg rule list":
		for _, r := range w.Rules {
			if r.Kind == "azure" && r.Group == nsg {
				fmt.Println(r.Priority) // every rule here is inbound
			}
		}
		return nil
	case "network nsg rule create":
		prio, err := strconv.Atoi(f["--priority"])
		if err != nil || i >= 0 || w.find(func(r fakeRule) bool { return r.Kind == "azure" && r.Group == nsg && r.Priority == prio }) >= 0 {
			return fmt.Errorf("SecurityRuleConflict: name %s or priority %q taken in %s", f["--name"], f["--priority"], nsg)
		}
		w.add(fakeRule{Kind: "azure", ID: f["--name"], Group: nsg, CIDR: f["--source-address-prefixes"], Priority: prio, Desc: f["--description"]})
		return nil
	case "network nsg rule delete":
		if i >= 0 {
			w.remove(i)
		}
		return nil
	}
	return fmt.Errorf("unknown call")
}

func fakeOpenStack(w *world, args []string) error {
	f, pos := flagsOf(args)
	switch {
	case strings.Join(pos, " ") == "security group rule create" || (len(pos) == 5 && strings.Join(pos[:4], " ") == "security group rule create"):
		return openStackCreate(w, f, args[len(args)-1])
	case len(pos) == 5 && strings.Join(pos[:4], " ") == "security group rule list":
		for _, r := range w.Rules {
			if r.Kind == "openstack" && r.Group == pos[4] {
				fmt.Println(r.ID)
			}
		}
		return nil
	case len(pos) == 5 && strings.Join(pos[:4], " ") == "security group rule show":
		i := w.find(func(r fakeRule) bool { return r.Kind == "openstack" && r.ID == pos[4] })
		if i < 0 || f["-c"] != "description" {
			return fmt.Errorf("no rule %s, or not -c description", pos[4])
		}
		fmt.Println(w.Rules[i].Desc)
		return nil
	case len(pos) == 5 && strings.Join(pos[:4], " ") == "security group rule delete":
		i := w.find(func(r fakeRule) bool { return r.Kind == "openstack" && r.ID == pos[4] })
		if i < 0 {
			return fmt.Errorf("no rule %s", pos[4])
		}
		w.remove(i)
		return nil
	}
	return fmt.Errorf("unknown call")
}

// openStackCreate: the security group is the last argument (flagsOf takes
// it as the value of --description's words otherwise).
func openStackCreate(w *world, f map[string]string, group string) error {
	port, _ := strconv.Atoi(f["--dst-port"])
	desc := strings.TrimSuffix(f["--description"], " "+group)
	r := fakeRule{Kind: "openstack", Group: group, CIDR: f["--remote-ip"], Port: port, Desc: desc}
	if w.find(func(o fakeRule) bool {
		return o.Kind == "openstack" && o.Group == group && o.CIDR == r.CIDR && o.Port == port
	}) >= 0 {
		return fmt.Errorf("409 Conflict: Security group rule already exists")
	}
	w.add(r)
	return nil
}

func fakeFirewallCmd(w *world, args []string) error {
	kind := "firewalld-runtime"
	if len(args) == 2 && args[0] == "--permanent" {
		kind, args = "firewalld-permanent", args[1:]
	}
	if len(args) != 1 {
		return fmt.Errorf("unknown call")
	}
	op, rule, _ := strings.Cut(args[0], "=")
	i := w.find(func(r fakeRule) bool { return r.Kind == kind && r.Desc == rule })
	switch {
	case op == "--add-rich-rule" && i < 0:
		w.add(fakeRule{Kind: kind, Desc: rule})
	case op == "--remove-rich-rule" && i >= 0:
		w.remove(i)
	case op != "--add-rich-rule" && op != "--remove-rich-rule":
		return fmt.Errorf("unknown call")
	}
	return nil // adding twice or removing what is not there only warns
}
