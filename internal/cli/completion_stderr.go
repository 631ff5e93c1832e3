package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Cobra writes completion's debug and error messages ("[Debug] [Error]
// unable to find a command for arguments: [...]") to os.Stderr itself,
// quoting the words of the line raw. While it answers a request, os.Stderr
// is a pipe whose messages reach the command's stderr each on one line,
// escaped and cut (cobraMessages).

const (
	// cobraMessageMax is how much of one message is shown.
	cobraMessageMax = 200
	// cobraStderrMax is how much of cobra's stderr is read; the rest is
	// drained and dropped, so a 100 KB word costs no 100 KB of output.
	cobraStderrMax = 16 << 10
)

// withCobraStderr runs f with cobra's stderr passed through cobraMessages
// to w.
func withCobraStderr(w io.Writer, f func()) {
	r, pw, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(w, "%s: completion runs without its messages: %v\n", ProgramName, err)
		f()
		return
	}
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(r, cobraStderrMax))
		_, _ = io.Copy(io.Discard, r)
		read <- b
	}()
	saved := os.Stderr
	os.Stderr = pw
	defer func() {
		os.Stderr = saved
		pw.Close()
		cobraMessages(w, <-read)
		r.Close()
	}()
	f()
}

// cobraMessages writes each of cobra's messages, which all begin
// "[Debug] ", as one escaped line of at most cobraMessageMax bytes: a line
// feed in a quoted word stays inside its message.
func cobraMessages(w io.Writer, b []byte) {
	const mark = "[Debug] "
	for _, msg := range strings.SplitAfter(string(b), "\n"+mark) {
		msg = strings.TrimSuffix(strings.TrimSuffix(msg, mark), "\n")
		if msg = strings.TrimSpace(msg); msg != "" {
			fmt.Fprintln(w, textsafe.Short(msg, cobraMessageMax))
		}
	}
}
