package cli

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// TestCommandsAgainstAHostileKubeAPIServer: status, wait, probe --webhooks
// and teardown, against a kube-apiserver that stalls after accepting
// (with TLS done, or before it), drips a byte a second, streams an endless list or sends one huge
// object, each end (the test would hang otherwise) and say why in the
// bound's own words: the --timeout of 1s, or the byte cap.
func TestCommandsAgainstAHostileKubeAPIServer(t *testing.T) {
	why := map[fakekas.Mode]string{
		fakekas.Stall:       "no answer within 1s, the command's --timeout",
		fakekas.Mute:        "no answer within 1s, the command's --timeout",
		fakekas.Drip:        "no answer within 1s, the command's --timeout",
		fakekas.EndlessList: "passed the cap of 32 MiB per response",
		fakekas.HugeObject:  "passed the cap of 32 MiB per response",
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
				code, stdout, stderr := runProgram(t, New(Config{}), map[string]string{"KUBECONFIG": "/not/read"}, append(args, "--kubeconfig", kc, "--timeout", "1s")...)
				if !strings.Contains(stdout+stderr, why[mode]) {
					t.Errorf("%s: exit %d, the output does not say %q:\nstdout:\n%s\nstderr:\n%s", args[0], code, why[mode], stdout, stderr)
				}
			}
		})
	}
}
