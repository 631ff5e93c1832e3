package guidetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// guide is a document whose sh blocks TestGuidesRun runs, and what its
// blocks need beyond the sandbox's PATH (the built binary, /usr/bin, /bin):
// env adds to the environment and may prepend to PATH. elsewhere, when
// set, picks the blocks a test of their own runs instead.
type guide struct {
	doc       string
	env       func(t *testing.T) (pathFirst string, env []string)
	elsewhere func(Block) bool
}

// goToolchain is the go that runs this test, with its caches, for blocks
// that run go or make.
func goToolchain(t *testing.T) (string, []string) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		tooltest.Missing(t, "the guide runs go: "+err.Error())
	}
	return filepath.Dir(goBin), []string{"GOCACHE=" + goEnv(t, "GOCACHE"), "GOPATH=" + goEnv(t, "GOPATH"), "GOFLAGS=-buildvcs=false"}
}

// guides are the documents run as written, besides docs/upi.md, which
// has tests of its own (TestUPIGuideRuns), as docs/ci.md's script has.
var guides = []guide{
	{"README.md", goToolchain, nil},
	{"docs/kustomize.md", func(t *testing.T) (string, []string) {
		// make image builds with podman into the tests' store and
		// kustomize runs the image through a docker that is podman, with
		// the settings this host's podman needs (CONTAINERS_CONF).
		goDir, env := goToolchain(t)
		for _, kv := range podmantest.Env(t) {
			if strings.HasPrefix(kv, "CONTAINERS_") {
				env = append(env, kv)
			}
		}
		kustomize := filepath.Dir(tooltest.Bin(t, "kustomize"))
		return strings.Join([]string{podmantest.DockerShim(t), kustomize, goDir}, ":"), env
	}, nil},
	{"docs/bootkube.md", nil, nil},
	{"docs/ci.md", nil, isCIScript},
	{"docs/firewall.md", nil, nil},
	{"docs/troubleshooting.md", nil, nil},
}

// TestGuidesRun runs the sh blocks of each guide, in order and in one
// shell, from the top of a copy of the repository with the built binary on
// PATH. A block the guide marks as impossible to run here (a real bootstrap
// node) is not run, and the log says why.
func TestGuidesRun(t *testing.T) {
	for _, g := range guides {
		t.Run(g.doc, func(t *testing.T) {
			all := docBlocks(t, g.doc)
			for _, b := range all {
				if b.Skip != "" {
					t.Logf("%s:%d not run: %s", g.doc, b.Line, b.Skip)
				}
			}
			var blocks []Block
			for _, b := range Runnable(all) {
				if g.elsewhere == nil || !g.elsewhere(b) {
					blocks = append(blocks, b)
				}
			}
			if len(blocks) == 0 {
				t.Skipf("skipping: %s has no block that can run as written (each says why above)", g.doc)
			}
			sb := newSandbox(t, "kb-checkout")
			var env []string
			if g.env != nil {
				var first string
				first, env = g.env(t)
				sb.path = first + ":" + sb.path
			}
			out, err := sb.run(script(g.doc, blocks), append(env, "TMPDIR="+sb.tmp)...)
			if err != nil {
				t.Fatalf("%s failed as written: %v\n%s", g.doc, err, lastLines(out, 60))
			}
			t.Logf("ran %d sh blocks of %s", len(blocks), g.doc)
		})
	}
}

// shownLangs are the languages of blocks that show something (output, a
// file, a config) rather than commands to run.
var shownLangs = []string{"text", "console", "yaml", "json"}

// TestGuidesSayWhatEachBlockIs: every block of the run guides is either
// commands (sh: run, or marked with why not) or something shown (one of
// shownLangs), so nothing runnable hides in an unlabelled block, and a skip
// mark stands only before commands.
func TestGuidesSayWhatEachBlockIs(t *testing.T) {
	for _, g := range guides {
		for _, b := range docBlocks(t, g.doc) {
			switch {
			case b.Lang != "sh" && !slices.Contains(shownLangs, b.Lang):
				t.Errorf("%s:%d: block language %q; use sh for commands, or one of %v for what is shown", g.doc, b.Line, b.Lang, shownLangs)
			case b.Lang != "sh" && b.Skip != "":
				t.Errorf("%s:%d: a skip mark before a %s block, which is never run", g.doc, b.Line, b.Lang)
			}
		}
	}
}

// readDoc reads a document by its path from the top of the repository.
// docBlocks is the code blocks of the document at rel (from the
// repository root); a fence it never closes fails t there.
func docBlocks(t *testing.T, rel string) []Block {
	t.Helper()
	bs, err := Blocks(rel, readDoc(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

// guideBlocks is docBlocks of docs/name.
func guideBlocks(t *testing.T, name string) []Block {
	t.Helper()
	return docBlocks(t, filepath.Join("docs", name))
}

func readDoc(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
