package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// The property: no command fetches, clones or runs git, ssh or helm for a
// kustomization it builds. Every command that takes a bundle source
// (command.Sources), and render's --overlay, gets one kustomization tree
// naming every remote shape in every field (tooltest.WriteRemoteTree),
// and must refuse it as the bad input its --help documents, naming each
// entry and saying to vendor it, with nothing dialled and nothing run. The
// commands come from New's list, so a new one that builds is covered or
// fails here.

// remoteRow is how a command is given a kustomization DIR (each
// invocation that builds it), and the exit code its --help documents for
// a DIR that does not build, with the words that say so.
type remoteRow struct {
	args func(dir, root string) [][]string
	code int
	says string
}

var remoteRows = map[string]remoteRow{
	"build": {args: func(dir, _ string) [][]string { return [][]string{{"build", dir}} }, code: 1, says: "1 build or config error"},
	"check": {args: func(dir, _ string) [][]string { return [][]string{{"check", dir}} }, code: 2, says: "a DIR that does not build"},
	"diff": {args: func(dir, _ string) [][]string { return [][]string{{"diff", dir, "ipv4"}, {"diff", "ipv4", dir}} },
		code: 2, says: "a side that cannot be read or built"},
	"ports": {args: func(dir, _ string) [][]string { return [][]string{{"ports", dir}} }, code: 1, says: "1 the bundle cannot be read"},
	"render": {args: func(dir, root string) [][]string {
		flags := []string{"--root", root, "--bootstrap-ip", "192.0.2.10", "--image", exampleImage, "--proxy-version", "v0.28"}
		return [][]string{append([]string{"render", dir}, flags...), append([]string{"render", "--overlay", dir}, flags...)}
	}, code: exitBadInput, says: "3 bad input: OVERLAY unknown, or an overlay the guard, the generator, its own check or the build refuses"},
}

// remoteCommands are the commands that build a kustomization DIR; every
// one needs a row, and every row a command.
func remoteCommands(t *testing.T) []hostileCommand {
	t.Helper()
	var out []hostileCommand
	names := map[string]bool{}
	for _, c := range hostileCommands() {
		names[c.name] = true
		if c.sources == 0 && !c.has("overlay") {
			continue
		}
		row, ok := remoteRows[c.name]
		switch {
		case !ok:
			t.Errorf("%s takes a bundle source (OVERLAY or DIR) but remoteRows has no row for it: add how it is given a kustomization DIR and the exit code its --help documents for one that does not build (internal/cli/remote_test.go)", c.name)
		case !strings.Contains(c.help, row.says):
			t.Errorf("%s --help no longer says %q, which documents exit %d for a DIR that does not build: update its row from --help", c.name, row.says, row.code)
		default:
			out = append(out, c)
		}
	}
	for name := range remoteRows {
		if !names[name] {
			t.Errorf("remoteRows names %s, which the CLI no longer lists: remove it", name)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	return out
}

// TestRemoteRowsClassify is the pure part: every command that builds has
// a row whose code its --help documents.
func TestRemoteRowsClassify(t *testing.T) { remoteCommands(t) }

// TestNoCommandFetchesRemote runs the built binary of each command on the
// tree with git, ssh and helm replaced by recorders and a listener behind
// every URL.
func TestNoCommandFetchesRemote(t *testing.T) {
	cmds := remoteCommands(t)
	bin := tooltest.BuildSelf(t, t.TempDir())
	recorders, log := tooltest.RecordRuns(t, "git", "ssh", "helm", "helmV3")
	host, conns := tooltest.Listen(t)
	dir := t.TempDir()
	lines := tooltest.WriteRemoteTree(t, dir, tooltest.RemoteShapes(host))
	env := append(os.Environ(), "PATH="+recorders, "KONNECTIVITY_PROXY_VERSION=v0.28", "KONNECTIVITY_BOOTSTRAP_IP=192.0.2.10")
	for _, c := range cmds {
		row := remoteRows[c.name]
		root := t.TempDir()
		for _, args := range row.args(dir, root) {
			cmd := exec.Command(bin, args...)
			cmd.Env = env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				code = exit.ExitCode()
			} else if err != nil {
				t.Fatalf("running %v: %v", args, err)
			}
			if code != row.code {
				t.Errorf("`konnectivity-bundle %s` exited %d, want %d (%s):\n%s", strings.Join(args, " "), code, row.code, row.says, stderr.String())
				continue
			}
			for _, l := range lines {
				if !strings.Contains(stderr.String(), l.Says()) {
					t.Errorf("`konnectivity-bundle %s` does not say %q:\n%s", strings.Join(args, " "), l.Says(), stderr.String())
					break
				}
			}
			if !strings.Contains(stderr.String(), "(fix: vendor") {
				t.Errorf("`konnectivity-bundle %s` does not say to vendor:\n%s", strings.Join(args, " "), stderr.String())
			}
		}
		if left, _ := filepath.Glob(filepath.Join(root, "*")); len(left) > 0 {
			t.Errorf("%s left %v under its --root", c.name, left)
		}
	}
	if n := conns(); n != 0 {
		t.Errorf("the commands made %d connection(s) to the listener the tree's URLs name", n)
	}
	if ran := tooltest.Ran(t, log); ran != "" {
		t.Errorf("the commands ran:\n%s", ran)
	}
}
