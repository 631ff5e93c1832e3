package textsafe

import (
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
