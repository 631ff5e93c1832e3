package hosttxn

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// everyOp is a journal holding each kind of operation once, as planJournal
// writes them.
func everyOp() *journal {
	secret, key := secretRel, certDir+"/"+hostlayout.ServerKeyFile
	return &journal{Version: hostlayout.StateVersion, Command: "render", Dirs: []string{"opt", "opt/openshift", certDir},
		Ops: []journalOp{
			{Kind: opPark, Path: podRel, Placement: hostlayout.PlacementStaticPod, Backup: hostlayout.BackupName(podRel), Old: SHA256([]byte("pod"))},
			{Kind: opAside, Path: key, Placement: hostlayout.PlacementCertificate, Backup: hostlayout.BackupName(key), Old: SHA256([]byte("old key"))},
			{Kind: opWrite, Path: key, Placement: hostlayout.PlacementCertificate, Temp: hostlayout.TempName(key), New: SHA256([]byte("key")), Old: SHA256([]byte("old key"))},
			{Kind: opRemove, Path: secret, Placement: hostlayout.PlacementClusterManifest, Backup: hostlayout.BackupName(secret), Old: SHA256([]byte("secret"))},
			{Kind: opUnpark, Path: podRel, Placement: hostlayout.PlacementStaticPod, Backup: hostlayout.BackupName(podRel), Old: SHA256([]byte("pod"))},
		}}
}

// TestJournalRoundTrip writes a journal with every kind of operation and
// reads it back, with the state directory's chain there or missing from
// each level: what is read is what was written, the chain exists, the
// journal is private, and no staged name is left.
func TestJournalRoundTrip(t *testing.T) {
	for _, existing := range []string{"", "var", "var/lib", hostlayout.StateDir} {
		t.Run("existing "+existing, func(t *testing.T) {
			root := t.TempDir()
			if existing != "" {
				if err := os.MkdirAll(filepath.Join(root, existing), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			h := openRoot(t, root)
			if j, err := readJournal(h); j != nil || err != nil {
				t.Fatalf("before writing: readJournal = %v, %v, want none", j, err)
			}
			want := everyOp()
			if err := writeJournal(h, want); err != nil {
				t.Fatal(err)
			}
			got, err := readJournal(h)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("read back %+v, wrote %+v", got, want)
			}
			fi, err := os.Stat(filepath.Join(root, hostlayout.JournalPath))
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("the journal's mode is %v, want 0600", fi.Mode().Perm())
			}
			if left, err := leftovers(h); err != nil || len(left) != 0 {
				t.Errorf("writing the journal left %v (%v)", left, err)
			}
			if !anyPending(h) {
				t.Error("Pending does not see the journal")
			}
		})
	}
}

// TestDamagedJournalIsRefused: recovery renames and removes what the
// journal names, so one that is not valid JSON of this version, or names
// a path render could not have planned, is refused with the way out, and
// Recover touches nothing (not even the file a hostile entry names).
func TestDamagedJournalIsRefused(t *testing.T) {
	const victim = "etc/kubernetes/manifests/victim.yaml"
	edit := func(f func(j *journal)) string {
		j := everyOp()
		f(j)
		data, err := json.Marshal(j)
		if err != nil {
			panic(err)
		}
		return string(data)
	}
	for _, tc := range []struct {
		name, journal, want string
	}{
		{"cut short", `{"version": 1, "command": "render", "ops": [`, "is damaged"},
		{"unknown field", `{"version": 1, "command": "render", "ops": [], "exec": "rm -rf /"}`, "is damaged"},
		{"other version", edit(func(j *journal) { j.Version = 2 }), "version 2, this binary understands 1"},
		{"absolute path", edit(func(j *journal) { j.Ops[3].Path = "/etc/shadow" }), "is absolute"},
		{"path out of the root", edit(func(j *journal) { j.Ops[3].Path = "../etc/konnectivity-agent-certs-secret.yaml" }), "not a clean path"},
		{"directory out of the root", edit(func(j *journal) { j.Dirs = append(j.Dirs, "opt/../../up") }), `directory "opt/../../up"`},
		{"unknown placement", edit(func(j *journal) { j.Ops[3].Placement = "anywhere" }), `unknown placement "anywhere"`},
		{"a certificate of another name", edit(func(j *journal) { j.Ops[2].Path = "etc/ssh/ssh_host_rsa_key" }), "allows only ca.crt"},
		{"into the state directory", edit(func(j *journal) { j.Ops[0].Path = hostlayout.StateDir + "/pod.yaml" }), "cannot be in render's state directory"},
		{"a scratch name as the path", edit(func(j *journal) { j.Ops[0].Path = hostlayout.TempName(podRel) }), "scratch names"},
		{"temporary file elsewhere", edit(func(j *journal) { j.Ops[2].Temp = "tmp/.server.key.kb-tmp-0011223344aa" }), "is not beside it"},
		{"backup that is no scratch name", edit(func(j *journal) { j.Ops[3].Backup = victim }), "is not beside it"},
		{"unknown operation", edit(func(j *journal) { j.Ops[1].Kind = "chmod" }), `unknown operation "chmod"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			treetest.WriteRaw(t, root, victim, "theirs", 0o644)
			treetest.WriteRaw(t, root, hostlayout.JournalPath, tc.journal, 0o600)
			h := openRoot(t, root)
			_, err := readJournal(h)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "fix: compare the host with state.json by hand, then delete the journal") {
				t.Fatalf("readJournal: %v, want an error with %q and the fix", err, tc.want)
			}
			msg, err := recoverJournal(h)
			if err == nil {
				t.Fatalf("Recover accepted it and said %q", msg)
			}
			if got := fileSHA(h, hostlayout.JournalPath); got != SHA256([]byte(tc.journal)) {
				t.Error("Recover changed or removed the journal it refused")
			}
			if got := fileSHA(h, victim); got != SHA256([]byte("theirs")) {
				t.Errorf("Recover touched %s", victim)
			}
		})
	}
}
