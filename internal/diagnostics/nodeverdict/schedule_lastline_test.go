package nodeverdict

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestTerminatedQuotesTheLogsLastLine: with FallbackToLogsOnError the
// kubelet records the log's tail, usage text and all; the line quotes the
// last line, which says why the agent exited, and never the whole tail.
func TestTerminatedQuotesTheLogsLastLine(t *testing.T) {
	tail := "Usage:\n  agent [flags]\n      --warn-on-channel-limit   ...\n\nE1127 08:48:13.734063   24351 main.go:48] error: unknown flag: --bogus\n"
	got := terminated(&corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error", Message: tail})
	if want := "exit code 1 (Error): E1127 08:48:13.734063   24351 main.go:48] error: unknown flag: --bogus"; got != want {
		t.Errorf("terminated = %q, want %q", got, want)
	}
	long := terminated(&corev1.ContainerStateTerminated{ExitCode: 2, Reason: "Error", Message: strings.Repeat("x", 1000)})
	if len(long) > 340 || !strings.HasSuffix(long, "...") {
		t.Errorf("a 1000-byte line was not cut: %d bytes", len(long))
	}
}
