package hosttxn

import (
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// WriteCleanup says on w, a line each, what a session did before its
// command's own work: how it finished or undid an interrupted run
// (Session.Recovered, "" for none) and each temporary file of an older
// certs it removed (Session.Swept). render, certs, teardown and status
// write it to stderr, before their own report.
func WriteCleanup(w io.Writer, recovered string, swept []string) {
	if recovered != "" {
		fmt.Fprintf(w, "recovered: %s\n", textsafe.Value(recovered))
	}
	for _, p := range swept {
		fmt.Fprintf(w, "removed %s: a temporary file an older certs left\n", textsafe.Value(p))
	}
}
