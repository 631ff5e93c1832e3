package cli

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// TestCommandsAgainstAHostileKubeAPIServer: status, wait, probe --webhooks
// and teardown, against a kube-apiserver that stalls after accepting
// (with TLS done, or before it), drips a byte at a time, streams an endless
// list or sends one huge object, each end (the test would hang otherwise)
// and say why in the bound's own words: the --timeout, or the byte cap.
//
// The modes that never finish wait for the --timeout to pass, so theirs is
// short (several of fakekas.DripEvery, so the drip has sent bytes by then).
// The others must read 32 MiB to meet the cap first: a quarter of a second
// here, but seconds under -race on a loaded machine. status, probe and
// teardown end at the cap, so theirs is generous and never waited for;
// wait polls until its --timeout passes, so its is a few seconds.
func TestCommandsAgainstAHostileKubeAPIServer(t *testing.T) {
	const expiring, capped, cappedWait = "300ms", "1m", "3s"
	timedOut := "no answer within " + expiring + ", the command's --timeout"
	tooLarge := "passed the cap of 32 MiB per response"
	type outcome struct{ timeout, waitTimeout, why string }
	want := map[fakekas.Mode]outcome{
		fakekas.Stall:       {expiring, expiring, timedOut},
		fakekas.Mute:        {expiring, expiring, timedOut},
		fakekas.Drip:        {expiring, expiring, timedOut},
		fakekas.EndlessList: {capped, cappedWait, tooLarge},
		fakekas.HugeObject:  {capped, cappedWait, tooLarge},
	}
	for _, mode := range fakekas.Modes {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			kc := fakekas.Kubeconfig(t, "", fakekas.Hostile(t, mode))
			root := hostRenderedRoot(t)
			// The server's ports are looked for on 127.0.0.2, where no
			// server listens: on 127.0.0.1 they are the bundle's fixed
			// ports, which a real proxy-server of another package's test
			// may hold, frozen, and then status spent its whole --timeout
			// on that server's metrics instead of meeting the cap.
			for _, args := range [][]string{
				{"status", "--root", root, "--health-host", "127.0.0.2"},
				{"wait", "--root", root, "--health-host", "127.0.0.2"},
				{"probe", "--root", root, "--webhooks"},
				{"teardown", "--root", hostRenderedRoot(t)},
			} {
				timeout := want[mode].timeout
				if args[0] == "wait" {
					timeout = want[mode].waitTimeout
				}
				code, stdout, stderr := runProgram(t, New(Config{}), map[string]string{"KUBECONFIG": "/not/read"}, append(args, "--kubeconfig", kc, "--timeout", timeout)...)
				if !strings.Contains(stdout+stderr, want[mode].why) {
					t.Errorf("%s: exit %d, the output does not say %q:\nstdout:\n%s\nstderr:\n%s", args[0], code, want[mode].why, stdout, stderr)
				}
			}
		})
	}
}
