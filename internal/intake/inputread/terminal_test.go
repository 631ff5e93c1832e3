package inputread

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/ptytest"
)

// TestIsTerminal: a pseudo-terminal is one; /dev/null (a character device
// too), a pipe and a plain reader are not.
func TestIsTerminal(t *testing.T) {
	tty, _ := ptytest.Open(t)
	if !IsTerminal(tty) {
		t.Error("a pseudo-terminal is not a terminal")
	}
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, in := range map[string]io.Reader{"/dev/null": null, "a pipe": r, "a reader": strings.NewReader("")} {
		if IsTerminal(in) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}
