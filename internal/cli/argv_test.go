package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundlediff"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/netreq"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/render"
)

// TestCommandsReadFlagsAlike feeds one hostile server command line to every
// command that reads a container's flags (check, ports, status, diff) and
// shows they read the same --health-port, the one proxy-server would use.
// The server pod render wrote loses its --health-port=2041 and gets the
// case's arguments appended after its last flag. A reader that is not
// pflag's (a value taken only when it does not start with '-', flags read
// past '--') would disagree on the cases marked so.
func TestCommandsReadFlagsAlike(t *testing.T) {
	const args = "spec.containers[konnectivity-server].args"
	cases := []struct {
		name   string
		append []string
		health int      // the port proxy-server listens on with these args
		diff   []string // diff's changes to the server pod, `op path`
	}{
		{"value as the next entry", []string{"--health-port", "2042"}, 2042,
			[]string{"change " + args + "[--health-port]", "add " + args + "[15]"}},
		{"given twice, the last wins", []string{"--health-port=2042", "--health-port=2043"}, 2043,
			[]string{"change " + args + "[--health-port]", "add " + args + "[--health-port#2]"}},
		// -v takes the next entry as its value even though it starts with
		// '-', so --health-port is not given and the default applies.
		{"a '-'-leading value", []string{"-v", "--health-port=2042"}, 8092,
			[]string{"remove " + args + "[--health-port]", "add " + args + "[-v]", "add " + args + "[15]"}},
		{"shorthand with its value attached", []string{"-v4", "--health-port=2042"}, 2042,
			[]string{"change " + args + "[--health-port]", "add " + args + "[-v4]"}},
		{"nothing after -- is a flag", []string{"--health-port=2042", "--", "--health-port=2043"}, 2042,
			[]string{"change " + args + "[--health-port]", "add " + args + "[15]", "add " + args + "[16]"}},
	}
	base := renderRoot(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := renderRoot(t)
			editServerArgs(t, root, tc.append)
			if got := portsHealthPort(t, root); got != tc.health {
				t.Errorf("ports: server health port %d, want %d", got, tc.health)
			}
			_, stdout, _ := runCLI(t, "", "check", "-o", "json", root)
			if want := fmt.Sprintf("listens on --health-port=%d;", tc.health); !strings.Contains(stdout, want) {
				t.Errorf("check: no probe-port-mismatch saying %q:\n%s", want, stdout)
			}
			_, stdout, _ = runCLI(t, "", "status", "-o", "json", "--root", root)
			if want := fmt.Sprintf("http://127.0.0.1:%d/healthz", tc.health); !strings.Contains(stdout, want) {
				t.Errorf("status: does not probe %s:\n%s", want, stdout)
			}
			if got := serverPodDiff(t, base, root); !slices.Equal(got, tc.diff) {
				t.Errorf("diff: server pod changes\n got %q\nwant %q", got, tc.diff)
			}
		})
	}
}

func renderRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: "192.0.2.10", Image: goldenImage}); err != nil {
		t.Fatal(err)
	}
	return root
}

var (
	healthPortLine  = regexp.MustCompile(`(?m)^\s*- --health-port=2041\n`)
	serverCountLine = regexp.MustCompile(`(?m)^(\s*)- --server-count=1\n`)
)

// editServerArgs drops --health-port=2041 from the written server pod and
// appends extra after its last flag, as a hand edit would.
func editServerArgs(t *testing.T, root string, extra []string) {
	t.Helper()
	pod := filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")
	data, err := os.ReadFile(pod)
	if err != nil {
		t.Fatal(err)
	}
	m := serverCountLine.FindSubmatchIndex(data)
	if m == nil || !healthPortLine.Match(data) {
		t.Fatalf("%s lacks --server-count=1 or --health-port=2041 lines:\n%s", pod, data)
	}
	indent := string(data[m[2]:m[3]])
	var add strings.Builder
	for _, a := range extra {
		add.WriteString(indent + "- " + strconv.Quote(a) + "\n")
	}
	edited := string(data[:m[1]]) + add.String() + string(data[m[1]:])
	edited = healthPortLine.ReplaceAllString(edited, "")
	if err := os.WriteFile(pod, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
}

func portsHealthPort(t *testing.T, root string) int {
	t.Helper()
	code, stdout, stderr := runCLI(t, "", "ports", "-o", "json", root)
	var rep netreq.Report
	if err := json.Unmarshal([]byte(stdout), &rep); code != 0 || err != nil {
		t.Fatalf("ports: exit %d, %v\n%s", code, err, stderr)
	}
	for _, q := range rep.Requirements {
		if strings.HasPrefix(q.Purpose, "server /healthz") {
			return q.Port
		}
	}
	t.Fatalf("ports lists no server health port: %+v", rep.Requirements)
	return 0
}

// serverPodDiff is `op path` of every change diff reports to the server pod.
func serverPodDiff(t *testing.T, a, b string) []string {
	t.Helper()
	_, stdout, stderr := runCLI(t, "", "diff", "-o", "json", a, b)
	var res bundlediff.Result
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("diff: %v\n%s%s", err, stdout, stderr)
	}
	var out []string
	for _, o := range res.Objects {
		if o.Kind == "Pod" && o.Name == "konnectivity-server" {
			for _, c := range o.Changes {
				out = append(out, string(c.Op)+" "+c.Path)
			}
		}
	}
	return out
}
