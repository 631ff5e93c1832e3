package firewall_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/netnstest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// verifier checks accepted outputs against the clean ones. The nft files
// and the HCL are collected and checked together when the test ends: one
// nft session and one terraform call instead of hundreds.
type verifier struct {
	stubs   *stubs
	nftNS   string // a scratch network namespace; "" without root
	tf      string // terraform; "" when missing
	dir     string // the collected files
	nft     []nftCase
	calls   map[string]string // the clean scripts' calls, by form and script
	refused int
	checked int
}

// nftCase is a collected nft file: the revoke form is loaded after a file
// that creates the table it removes.
type nftCase struct {
	file, before, what string
	revoke             bool
}

func newVerifier(t *testing.T) *verifier {
	v := &verifier{stubs: newStubs(t), calls: map[string]string{}, dir: t.TempDir()}
	if os.Geteuid() == 0 {
		tooltest.System(t, "nft", "nftables")
		netnstest.SweepStale("kbfw")
		v.nftNS = netnstest.Add(t, "kbfw", "nft")[0]
	} else if os.Getenv("KB_REQUIRE_TOOLS") == "1" {
		t.Fatal("needs root for a scratch network namespace to load the nft files in")
	} else {
		skipPart(t, "nft", "skipping: not root, so no scratch network namespace: the nft files are compared with the clean ones but not loaded into nft")
	}
	if tf, err := exec.LookPath("terraform"); err == nil {
		v.tf = tf
		if err := os.Mkdir(filepath.Join(v.dir, "tf"), 0o755); err != nil {
			t.Fatal(err)
		}
	} else if os.Getenv("KB_REQUIRE_TOOLS") == "1" {
		t.Fatal("terraform is not on PATH (releases.hashicorp.com): the HCL cannot be checked")
	} else {
		skipPart(t, "terraform", "skipping: terraform is not on PATH (releases.hashicorp.com): the HCL is compared with the clean one only")
	}
	t.Cleanup(func() {
		v.loadNft(t)
		v.formatHCL(t)
		t.Logf("%d hostile cases written and checked, %d refused", v.checked, v.refused)
		if v.checked == 0 {
			t.Error("no hostile case was written: the checks of written rules never ran")
		}
	})
	return v
}

// same: got is clean but for its comment lines, holds no raw control
// character, and passes the checks of its language.
func (v *verifier) same(t *testing.T, f form, clean, got []byte, pc planCase, val string) {
	t.Helper()
	v.checked++
	what := fmt.Sprintf("%s %s with %q", f, pc.name, val)
	if hasRawControl(string(got)) {
		t.Fatalf("%s: the output holds a raw control character:\n%q", what, got)
	}
	if a, b := withoutComments(clean), withoutComments(got); a != b {
		t.Fatalf("%s: the output differs from the clean one outside its comments:\n%s", what, diff(t, a, b))
	}
	switch {
	case bytes.HasPrefix(got, []byte("#!/bin/sh")):
		if want, calls := v.cleanCalls(t, f, clean), v.stubs.run(t, got, f.revoke); calls != want {
			t.Fatalf("%s: the script ran other commands than the clean one:\n%s", what, diff(t, want, calls))
		}
	case bytes.HasPrefix(got, []byte("#!/usr/sbin/nft -f")):
		v.collectNft(t, clean, got, f.revoke, what)
	case f.format == "aws-terraform":
		v.collect(t, filepath.Join("tf", fmt.Sprintf("case%d.tf", v.checked)), got)
	case f.format == "aws-cloudformation":
		var tmpl map[string]any
		if err := json.Unmarshal(got, &tmpl); err != nil {
			t.Fatalf("%s: the template is not JSON: %v", what, err)
		}
	default:
		t.Fatalf("%s: no check for this output:\n%s", what, got)
	}
}

// cleanCalls are the calls the clean script makes, run once per script.
func (v *verifier) cleanCalls(t *testing.T, f form, clean []byte) string {
	key := f.String() + "\x00" + string(clean)
	if c, ok := v.calls[key]; ok {
		return c
	}
	c := v.stubs.run(t, clean, f.revoke)
	if c == "" {
		t.Fatalf("%s: the clean script made no call at all", f)
	}
	v.calls[key] = c
	return c
}

func (v *verifier) collect(t *testing.T, name string, b []byte) string {
	t.Helper()
	file := filepath.Join(v.dir, name)
	writeFile(t, file, b)
	return file
}

func (v *verifier) collectNft(t *testing.T, clean, got []byte, revoke bool, what string) {
	if v.nftNS == "" {
		return
	}
	c := nftCase{file: v.collect(t, fmt.Sprintf("case%d.nft", v.checked), got), revoke: revoke, what: what}
	if revoke { // the table to remove: the one the revoke file declares, kept
		c.before = v.collect(t, fmt.Sprintf("case%d.before.nft", v.checked),
			bytes.Replace(clean, []byte("\ndelete table inet konnectivity_bootstrap\n"), []byte("\n"), 1))
	}
	v.nft = append(v.nft, c)
}

// loadNft loads every collected file into the scratch namespace's empty
// ruleset: each must pass nft -c, load, and leave only the bundle's own
// table (none after a revoke form).
func (v *verifier) loadNft(t *testing.T) {
	if len(v.nft) == 0 {
		return
	}
	var script strings.Builder
	for i, c := range v.nft {
		fmt.Fprintf(&script, "echo '### %d'\nnft flush ruleset\nnft -c -f %s 2>&1 || echo FAILED\n", i, c.file)
		if c.revoke {
			fmt.Fprintf(&script, "nft -f %s 2>&1 || echo FAILED\n", c.before)
		}
		fmt.Fprintf(&script, "nft -f %s 2>&1 || echo FAILED\nnft list tables\n", c.file)
	}
	out := netnstest.Run(t, "ip", "netns", "exec", v.nftNS, "sh", "-c", script.String())
	sections := strings.Split(out, "### ")[1:]
	if len(sections) != len(v.nft) {
		t.Fatalf("nft: %d results for %d files:\n%s", len(sections), len(v.nft), out)
	}
	for i, c := range v.nft {
		want := fmt.Sprintf("%d\ntable inet konnectivity_bootstrap\n", i)
		if c.revoke {
			want = fmt.Sprintf("%d\n", i)
		}
		if sections[i] != want {
			got, _ := os.ReadFile(c.file)
			t.Errorf("%s: nft -c, loading and listing the tables gave %q, want %q\n--- file:\n%s", c.what, sections[i], want, got)
		}
	}
	t.Logf("%d nft files checked, loaded and listed in %s", len(v.nft), v.nftNS)
}

// formatHCL: terraform's formatter parses every collected file and finds
// each formatted.
func (v *verifier) formatHCL(t *testing.T) {
	if v.tf == "" {
		return
	}
	dir := filepath.Join(v.dir, "tf")
	files, _ := os.ReadDir(dir)
	if len(files) == 0 {
		return
	}
	if out, err := runTool(v.tf, []string{"TF_CLI_CONFIG_FILE=/dev/null"}, "fmt", "-check", "-diff", dir); err != nil {
		t.Errorf("terraform fmt -check on the HCL of the hostile cases: %v\n%s", err, out)
	}
	t.Logf("%d HCL files passed terraform fmt -check", len(files))
}

// skipPart records a part of the test that cannot run here as a skipped
// subtest, so that the reason shows where skips are reported.
func skipPart(t *testing.T, part, why string) {
	t.Run(part, func(t *testing.T) { t.Skip(why) })
}
