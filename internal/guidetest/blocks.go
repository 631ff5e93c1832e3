// Package guidetest keeps the guides in docs/ honest: it extracts their
// code blocks, fenced and indented, so tests can run the runnable ones
// (```sh) against a copy of the repository, and check the shape of the rest.
package guidetest

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// Block is one code block: fenced (``` or ~~~), or indented by four spaces.
type Block struct {
	Lang string // the info string's first word: sh, bash, yaml, ...; "" for an indented block
	Line int    // 1-based line of the opening fence, or of an indented block's first line
	Body string
	// Section is the nearest heading above the block.
	Section string
	// Skip is why the block cannot run as written, from a mark on the
	// nearest non-blank line above its fence:
	// <!-- guidetest: skip: REASON -->. "" for every other block.
	Skip string
	// Indented is a block written by indentation, which names no language:
	// markdown shows it as code, so a command in it must be fenced as sh to
	// be run (IsCommands).
	Indented bool
}

// skipMark is the mark a guide puts before a command block that no test
// can run as written (it needs a real bootstrap node, say).
var skipMark = regexp.MustCompile(`^<!-- guidetest: skip: (.+?) -->$`)

// listItem is a line that starts a list item: text indented below it
// continues the item, and is no code block.
var listItem = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s`)

// scanner walks a document line by line, keeping what a block needs of
// the lines above it.
type scanner struct {
	out      []Block
	fenced   *Block
	fence    fence // the open fenced block's opening
	indented *Block
	body     strings.Builder
	section  string
	above    string // the nearest non-blank line outside a block
	blank    bool   // the previous line was blank (or the document starts)
	inList   bool   // the paragraph above is a list item
}

// Blocks returns every code block of the markdown document name holds:
// fenced ones (``` or ~~~, as CommonMark reads them), and indented ones
// (four spaces, after a blank line, outside a list). A fence never closed
// is an error naming name and its line, not a block that silently
// swallows the rest of the guide.
func Blocks(name string, md []byte) ([]Block, error) {
	s := &scanner{blank: true}
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(nil, len(md)+1) // no line is too long to read
	for n := 1; sc.Scan(); n++ {
		s.line(n, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if s.fenced != nil {
		return nil, fmt.Errorf("%s:%d: the fence %s opened here is never closed: close it with a line of %s",
			name, s.fenced.Line, s.fence.mark(), s.fence.mark())
	}
	s.endIndented()
	return s.out, nil
}

func (s *scanner) line(n int, line string) {
	blank := strings.TrimSpace(line) == ""
	switch {
	case s.fenced != nil && s.fence.closedBy(line):
		s.fenced.Body = s.body.String()
		s.out = append(s.out, *s.fenced)
		s.fenced = nil
	case s.fenced != nil:
		s.body.WriteString(s.fence.content(line) + "\n")
		return
	case s.indented != nil && (blank || strings.HasPrefix(line, "    ")):
		s.body.WriteString(strings.TrimPrefix(line, "    ") + "\n")
		return
	case s.indented != nil:
		s.endIndented()
		s.line(n, line)
		return
	case s.openFence(n, line):
	case strings.HasPrefix(line, "    ") && !blank && s.blank && !s.inList:
		s.indented = s.open(n, "")
		s.indented.Indented = true
		s.body.WriteString(strings.TrimPrefix(line, "    ") + "\n")
	case strings.HasPrefix(line, "#"):
		s.section = strings.TrimSpace(strings.TrimLeft(line, "#"))
	}
	s.track(line, blank)
}

// openFence starts a fenced block when line opens one.
func (s *scanner) openFence(n int, line string) bool {
	f, info, ok := fenceOf(line)
	if !ok || f.char == '`' && strings.Contains(info, "`") { // a line of inline code, not a fence
		return false
	}
	lang := ""
	if words := strings.Fields(info); len(words) > 0 {
		lang = words[0]
	}
	s.fenced, s.fence = s.open(n, lang), f
	return true
}

// open starts a block at line n, taking the skip mark above it.
func (s *scanner) open(n int, lang string) *Block {
	b := &Block{Lang: lang, Line: n, Section: s.section}
	if m := skipMark.FindStringSubmatch(s.above); m != nil {
		b.Skip = m[1]
	}
	s.body.Reset()
	return b
}

// track keeps the context the next block's start needs.
func (s *scanner) track(line string, blank bool) {
	s.blank = blank
	if blank || s.fenced != nil || s.indented != nil {
		return
	}
	s.above = strings.TrimSpace(line)
	switch {
	case listItem.MatchString(line):
		s.inList = true
	case !strings.HasPrefix(line, " "):
		s.inList = false
	}
}

// endIndented closes an open indented block; its trailing blank lines are
// not part of it.
func (s *scanner) endIndented() {
	if s.indented == nil {
		return
	}
	s.indented.Body = strings.TrimRight(s.body.String(), "\n") + "\n"
	s.out = append(s.out, *s.indented)
	s.indented = nil
	s.blank = true
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

// commandWords are the programs the docs' commands start with: an
// indented block whose first word is one of them holds commands.
var commandWords = []string{"konnectivity-bundle", "sudo", "make", "go", "kustomize", "podman", "crictl", "curl",
	"kubectl", "oc", "openssl", "nft", "sh", "bash", "export", "cd"}

// assignment is a first word that sets a variable for the command after it.
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// IsCommands says b holds shell commands: a fenced sh or bash block, or an
// indented one whose first word is a program (commandWords) or a variable
// assignment before one. A console block is a transcript, shown.
func IsCommands(b Block) bool {
	if !b.Indented {
		return b.Lang == "sh" || b.Lang == "bash"
	}
	first, _, _ := strings.Cut(strings.TrimSpace(b.Body), " ")
	for _, w := range commandWords {
		if first == w {
			return true
		}
	}
	return assignment.MatchString(first)
}
