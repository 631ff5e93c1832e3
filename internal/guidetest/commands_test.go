package guidetest

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	invocation = regexp.MustCompile(`konnectivity-bundle ([a-z][a-z-]*)((?: +[^|;&#\n]*)?)`)
	longFlag   = regexp.MustCompile(`(?:^|\s)(--[a-z][a-z0-9-]*)`)
)

// TestDocsNameRealCommandsAndFlags: every konnectivity-bundle command and
// flag README.md and docs/ mention, in any block, exists in the built binary, so the
// examples that are not run cannot name something that is gone.
func TestDocsNameRealCommandsAndFlags(t *testing.T) {
	help := map[string]string{}
	for _, doc := range allDocs(t) {
		for _, b := range docBlocks(t, doc) {
			for _, m := range invocation.FindAllStringSubmatch(b.Body, -1) {
				cmd, rest := m[1], m[2]
				h, ok := help[cmd]
				if !ok {
					out, err := exec.Command(filepath.Join(bin(t), "konnectivity-bundle"), cmd, "--help").CombinedOutput()
					if err != nil {
						t.Errorf("%s:%d: %q is not a command: %v\n%s", doc, b.Line, cmd, err, out)
						help[cmd] = ""
						continue
					}
					h = string(out)
					help[cmd] = h
				}
				if h == "" {
					continue
				}
				for _, f := range longFlag.FindAllStringSubmatch(rest, -1) {
					if !strings.Contains(h, "  "+f[1]+" ") && !strings.Contains(h, ", "+f[1]+" ") && !strings.Contains(h, "  "+f[1]+"\n") {
						t.Errorf("%s:%d: konnectivity-bundle %s has no flag %s", doc, b.Line, cmd, f[1])
					}
				}
			}
		}
	}
	if len(help) < 5 {
		t.Errorf("found only %d commands in the guides (%v); the pattern is broken", len(help), help)
	}
}
