// Package guidetest keeps the guides in docs/ honest: it extracts their
// fenced code blocks so tests can run the runnable ones (```sh) against a
// copy of the repository, and check the shape of the rest.
package guidetest

import (
	"bufio"
	"bytes"
	"regexp"
	"strings"
)

// Block is one fenced code block.
type Block struct {
	Lang string // the info string's first word: sh, bash, yaml, ...
	Line int    // 1-based line of the opening fence
	Body string
	// Section is the nearest heading above the block.
	Section string
	// Skip is why the block cannot run as written, from a mark on the
	// nearest non-blank line above its fence:
	// <!-- guidetest: skip: REASON -->. "" for every other block.
	Skip string
}

// skipMark is the mark a guide puts before a command block that no test
// can run as written (it needs a real bootstrap node, say).
var skipMark = regexp.MustCompile(`^<!-- guidetest: skip: (.+?) -->$`)

// Blocks returns every fenced (```) code block of a markdown document.
func Blocks(md []byte) []Block {
	var out []Block
	var cur *Block
	var body strings.Builder
	section, above := "", ""
	sc := bufio.NewScanner(bytes.NewReader(md))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			lang, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(line, "```")), " ")
			cur = &Block{Lang: lang, Line: n, Section: section}
			if m := skipMark.FindStringSubmatch(above); m != nil {
				cur.Skip = m[1]
			}
			body.Reset()
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.Body = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line + "\n")
		case strings.HasPrefix(line, "#"):
			section = strings.TrimSpace(strings.TrimLeft(line, "#"))
		}
		if cur == nil && strings.TrimSpace(line) != "" {
			above = strings.TrimSpace(line)
		}
	}
	return out
}

// Runnable is the subset of blocks a test runs: those marked sh, but not
// those whose guide marks them as impossible to run (Skip).
func Runnable(bs []Block) []Block {
	var out []Block
	for _, b := range bs {
		if b.Lang == "sh" && b.Skip == "" {
			out = append(out, b)
		}
	}
	return out
}
