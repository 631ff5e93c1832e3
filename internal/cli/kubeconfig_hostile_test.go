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
// The modes that never finish wait for the --timeout to pass, so theirs is
// short (several of fakekas.DripEvery, so the drip has sent bytes by then);
// the others must meet the 32 MiB cap first, so theirs is longer (wait
// polls until it passes, so not too long).
func TestCommandsAgainstAHostileKubeAPIServer(t *testing.T) {
	const expiring, capped = "300ms", "1s"
	timedOut := "no answer within " + expiring + ", the command's --timeout"
	tooLarge := "passed the cap of 32 MiB per response"
	want := map[fakekas.Mode]struct{ timeout, why string }{
		fakekas.Stall:       {expiring, timedOut},
		fakekas.Mute:        {expiring, timedOut},
		fakekas.Drip:        {expiring, timedOut},
		fakekas.EndlessList: {capped, tooLarge},
		fakekas.HugeObject:  {capped, tooLarge},
	}
	for _, mode := range fakekas.Modes {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			kc := fakekas.Kubeconfig(t, "", fakekas.Hostile(t, mode))
			root := hostRenderedRoot(t)
			for _, args := range [][]string{
				{"status", "--root", root},
				{"wait", "--root", root},
				{"probe", "--root", root, "--webhooks"},
				{"teardown", "--root", hostRenderedRoot(t)},
			} {
				code, stdout, stderr := runProgram(t, New(Config{}), map[string]string{"KUBECONFIG": "/not/read"}, append(args, "--kubeconfig", kc, "--timeout", want[mode].timeout)...)
				if !strings.Contains(stdout+stderr, want[mode].why) {
					t.Errorf("%s: exit %d, the output does not say %q:\nstdout:\n%s\nstderr:\n%s", args[0], code, want[mode].why, stdout, stderr)
				}
			}
		})
	}
}
