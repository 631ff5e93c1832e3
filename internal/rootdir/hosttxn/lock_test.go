package hosttxn_test

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestSecondRunWaitsForTheLock runs real processes at once on one root:
// a render held up inside its transaction (strace delays its first fsync),
// then render, teardown and certs with --lock-timeout 0, which fail with
// the one lock exit code, 6, naming the holder, and a render with a timeout,
// which waits and then finds the bundle in place.
func TestSecondRunWaitsForTheLock(t *testing.T) {
	strace := tooltest.System(t, "strace", "strace")
	bin := tooltest.BuildSelf(t, t.TempDir())
	root := t.TempDir()
	args := []string{"render", "--root", root, "--bootstrap-ip", crashIP, "--image", crashImage}
	first := exec.Command(strace, append([]string{"-f", "-qq", "-o", "/dev/null", "-e", "trace=fsync",
		"-e", "inject=fsync:delay_enter=3000000:when=1", bin}, args...)...)
	var firstOut bytes.Buffer
	first.Stdout, first.Stderr = &firstOut, &firstOut
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	defer first.Process.Kill()
	waitFor(t, func() bool { // the journal is being written: the lock is held
		entries, _ := os.ReadDir(root)
		return len(entries) > 0
	})
	for _, tc := range []struct {
		args []string
		code int
	}{
		{args, 6}, // one code for all three: they share the lock
		{[]string{"teardown", "--root", root}, 6},
		{[]string{"certs", "--root", root, "--dir", t.TempDir() + "/c", "--bootstrap-ip", crashIP}, 6},
	} {
		out, err := exec.Command(bin, append(tc.args, "--lock-timeout", "0")...).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
			t.Fatalf("%s while render holds the lock: want exit %d, got %v\n%s", tc.args[0], tc.code, err, out)
		}
		if !strings.Contains(string(out), "locked by pid ") || !strings.Contains(string(out), "render --root "+root) {
			t.Errorf("%s: message does not name the holder:\n%s", tc.args[0], out)
		}
	}
	second := runOK(t, bin, append(args, "--lock-timeout", "2m")...)
	if err := first.Wait(); err != nil {
		t.Fatalf("first render: %v\n%s", err, firstOut.String())
	}
	if !strings.Contains(firstOut.String(), "rendered 13 files") || !strings.Contains(second, "up to date") {
		t.Errorf("want the first render to write and the waiting one to find it done:\nfirst:\n%s\nsecond:\n%s", firstOut.String(), second)
	}
	assertConsistent(t, root, "after two renders at once")
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for i := 0; i < 2400; i++ { // room for a loaded machine
		if cond() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the first render never started its transaction")
}
