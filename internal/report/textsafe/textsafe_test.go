package textsafe

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// hostile is the alphabet an attacker would put in a label value, an object
// name or a log line.
var hostile = []string{
	"\x1b[2J\x1b[H",                               // clear the screen
	"\x1b]0;pwned\x07",                            // retitle the terminal, ended by BEL
	"ok\nok       all good",                       // a forged line
	"a\rb", "\x00", "\x7f", "\u0085", "\u009b31m", // NUL, DEL, NEL, the C1 CSI
	"x\u2028y\u2029z", "\u202eevil", "\u2066\u2069", "\ufeff",
	"\xff\xfe invalid", "tab\there",
}

// TestEscapeLeavesNoControlCharacter: every hostile string comes out with
// no byte or character a terminal acts on, and valid UTF-8.
func TestEscapeLeavesNoControlCharacter(t *testing.T) {
	for _, in := range append(hostile, strings.Join(hostile, "")) {
		out := Escape(in)
		if !utf8.ValidString(out) {
			t.Errorf("Escape(%q) = %q: not valid UTF-8", in, out)
		}
		for _, r := range out {
			if r < 0x20 || r == 0x7f || unicode.In(r, unicode.Cc, unicode.Zl, unicode.Zp, unicode.Cf) {
				t.Errorf("Escape(%q) = %q keeps %U", in, out, r)
			}
		}
	}
}

func TestEscapeWording(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain name-1.example", "plain name-1.example"},
		{`C:\path stays`, `C:\path stays`},
		{"héllo wörld ✓", "héllo wörld ✓"},
		{"a\nb", `a\nb`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"bell\x07", `bell\a`},
		{"nul\x00", `nul\x00`},
		{"cr\r", `cr\r`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"csi\u009b", `csi\u009b`},
		{"bad\xffbyte", `bad\xffbyte`},
		{"\ufffd is a real replacement character", "\ufffd is a real replacement character"},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"root:x:0:0:root:/root:/bin/bash\nsecret", 8, `root:x:0... (30 more bytes)`},
		{"\x1b[2Jab", 3, `\x1b[2... (3 more bytes)`},
		{"ééé", 3, "é... (4 more bytes)"}, // never cuts a character in two
	} {
		if got := Excerpt(tc.in, tc.max); got != tc.want {
			t.Errorf("Excerpt(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// TestValueEscapesUnderEveryVerb: an outside value formatted into an error
// or a line by any verb keeps no raw control or format character, so it
// cannot start a line of its own.
func TestValueEscapesUnderEveryVerb(t *testing.T) {
	for _, in := range hostile {
		for _, verb := range []string{"%s", "%v", "%q", "%20s", "%-5v", "%d", "%x"} {
			out := fmt.Sprintf("x "+verb+" y", Value(in))
			for _, r := range out {
				if unicode.In(r, unicode.Cc, unicode.Zl, unicode.Zp, unicode.Cf) {
					t.Errorf("Sprintf(%q, Value(%q)) = %q keeps %U", verb, in, out, r)
				}
			}
		}
	}
	for _, tc := range []struct{ verb, want string }{
		{"%s", `a\nb`}, {"%v", `a\nb`}, {"%q", `"a\nb"`}, {"%6s", `  a\nb`},
	} {
		if got := fmt.Sprintf(tc.verb, Value("a\nb")); got != tc.want {
			t.Errorf("Sprintf(%q, Value(a LF b)) = %q, want %q", tc.verb, got, tc.want)
		}
	}
}

// TestErrKeepsTheChain: Err's text is one escaped line, and errors.Is and
// errors.As still find what it wraps.
func TestErrKeepsTheChain(t *testing.T) {
	inner := &fs.PathError{Op: "open", Path: "a\nFORGED: x", Err: fs.ErrNotExist}
	err := fmt.Errorf("reading: %w", Err(inner))
	if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `a\nFORGED: x`) {
		t.Errorf("Err's text = %q, want the path escaped on one line", err.Error())
	}
	var pe *fs.PathError
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) {
		t.Errorf("Err hides the error it wraps: %v", err)
	}
	if Err(nil) != nil {
		t.Error("Err(nil) is not nil")
	}
	if again := Err(Err(inner)); again.Error() != Err(inner).Error() {
		t.Errorf("Err twice = %q", again.Error())
	}
}

func TestShort(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"build", 80, "build"},
		{"bu\nild", 80, `bu\nild`},
		{strings.Repeat("a", 100), 5, "aaaaa..."},
		{"a\x1bbcdef", 3, `a\x1bb...`},
		{"ééé", 3, "é..."},
	} {
		if got := Short(tc.in, tc.max); got != tc.want {
			t.Errorf("Short(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}
