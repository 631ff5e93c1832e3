package tooltest

import (
	"os"
	"testing"
)

// The one rule for a test that cannot run here, in two cases:
//
//   - something it needs is missing (a built tool, a Debian package, root):
//     under KB_REQUIRE_TOOLS=1 (make test, CI) the test fails, so CI never
//     passes by skipping; otherwise it skips and says how to get it.
//   - it is an integration test (root, network namespaces, podman, strace
//     kill loops, the real binaries, a built copy of the command) and the
//     run is -short (make unit): it skips and says so; make test runs it.
//
// Every test and harness goes through Missing and Integration; none reads
// KB_REQUIRE_TOOLS or returns early on its own.

// required reports whether this run requires every tool (KB_REQUIRE_TOOLS=1).
func required() bool { return os.Getenv("KB_REQUIRE_TOOLS") == "1" }

// Missing fails the test under KB_REQUIRE_TOOLS=1, else skips it; msg says
// what is missing and how to get it.
func Missing(tb testing.TB, msg string) {
	tb.Helper()
	if required() {
		tb.Fatal(msg)
	}
	tb.Skip("skipping: " + msg)
}

// Integration skips the test under -short, saying what makes it an
// integration test (why: "needs root", "hundreds of real processes").
func Integration(tb testing.TB, why string) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("skipping under -short (make unit): " + why + "; make test runs it")
	}
}
