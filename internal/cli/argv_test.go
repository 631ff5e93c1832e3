package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlediff"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/netreq"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
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
		diff   []string // diff's changes to the server pod, `op path`, {n+1} and {n+2} being the indexes of the second and third appended entries
	}{
		{"value as the next entry", []string{"--health-port", "2042"}, 2042,
			[]string{"change " + args + "[--health-port]", "add " + args + "[{n+1}]"}},
		{"given twice, the last wins", []string{"--health-port=2042", "--health-port=2043"}, 2043,
			[]string{"change " + args + "[--health-port]", "add " + args + "[--health-port#2]"}},
		// -v takes the next entry as its value even though it starts with
		// '-', so --health-port is not given and the default applies.
		{"a '-'-leading value", []string{"-v", "--health-port=2042"}, 8092,
			[]string{"remove " + args + "[--health-port]", "add " + args + "[-v]", "add " + args + "[{n+1}]"}},
		{"shorthand with its value attached", []string{"-v4", "--health-port=2042"}, 2042,
			[]string{"change " + args + "[--health-port]", "add " + args + "[-v4]"}},
		{"nothing after -- is a flag", []string{"--health-port=2042", "--", "--health-port=2043"}, 2042,
			[]string{"change " + args + "[--health-port]", "add " + args + "[{n+1}]", "add " + args + "[{n+2}]"}},
	}
	base := renderRoot(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := renderRoot(t)
			first := editServerArgs(t, root, tc.append)
			at := strings.NewReplacer("{n+1}", strconv.Itoa(first+1), "{n+2}", strconv.Itoa(first+2))
			var wantDiff []string
			for _, d := range tc.diff {
				wantDiff = append(wantDiff, at.Replace(d))
			}
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
			if got := serverPodDiff(t, base, root); !slices.Equal(got, wantDiff) {
				t.Errorf("diff: server pod changes\n got %q\nwant %q", got, wantDiff)
			}
		})
	}
}

func renderRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: goldenImage}); err != nil {
		t.Fatal(err)
	}
	return root
}

// argLine is one item of the server's args as render writes them.
var argLine = regexp.MustCompile(`^(\s*)- (.*)$`)

// editServerArgs drops --health-port=2041 from the written server pod and
// appends extra after its last argument, as a hand edit would. It returns
// the index extra starts at in the args.
func editServerArgs(t *testing.T, root string, extra []string) int {
	t.Helper()
	pod := filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")
	data, err := os.ReadFile(pod)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasSuffix(l, "- --health-port=2041") })
	if start < 0 {
		t.Fatalf("%s has no --health-port=2041:\n%s", pod, data)
	}
	indent := argLine.FindStringSubmatch(lines[start])[1]
	first := start // args before it, counted back to the first item
	for first > 0 && argLine.MatchString(lines[first-1]) && argLine.FindStringSubmatch(lines[first-1])[1] == indent {
		first--
	}
	end := start + 1
	for end < len(lines) && argLine.MatchString(lines[end]) && argLine.FindStringSubmatch(lines[end])[1] == indent {
		end++
	}
	var add []string
	for _, a := range extra {
		add = append(add, indent+"- "+strconv.Quote(a))
	}
	edited := slices.Concat(lines[:start], lines[start+1:end], add, lines[end:])
	if err := os.WriteFile(pod, []byte(strings.Join(edited, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return end - first - 1
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
