package bundlediff

import (
	"bufio"
	"fmt"
	"io"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
)

type painter bool

func (p painter) paint(code, s string) string {
	if !p {
		return s
	}
	return code + s + ansiReset
}

func (p painter) sign(sign, s string) string {
	switch sign {
	case "+":
		return p.paint(ansiGreen, s)
	case "-":
		return p.paint(ansiRed, s)
	}
	return p.paint(ansiYellow, s)
}

// writeText writes a unified-diff-like listing. Names, paths and values come
// from the bundles (users' overlays, pull requests), so each is escaped
// before the colours are added (internal/report/textsafe).
func writeText(w io.Writer, r *Result, colour bool) error {
	bw := bufio.NewWriter(w)
	p := painter(colour)
	esc := textsafe.Escape
	if r.Equal() {
		fmt.Fprintf(bw, "no differences: %s and %s\n", esc(r.A), esc(r.B))
		return bw.Flush()
	}
	fmt.Fprintln(bw, p.paint(ansiBold, "--- "+esc(r.A)))
	fmt.Fprintln(bw, p.paint(ansiBold, "+++ "+esc(r.B)))
	for _, o := range r.Objects {
		s := statusSign(o.Status)
		fmt.Fprintln(bw, p.sign(s, s+" "+esc(o.ID.String())))
		for _, c := range o.Changes {
			cs := opSign(c.Op)
			fmt.Fprintln(bw, p.sign(cs, "    "+cs+" "+esc(c.Path)+": "+esc(changeText(c))))
		}
	}
	fmt.Fprintln(bw, summary(r))
	return bw.Flush()
}
