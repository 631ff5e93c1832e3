// Package textsafe makes values the tool does not control safe to print in
// a terminal: metric labels, object and webhook names, server-log lines and
// file excerpts. A control character in them could move the cursor, clear
// the screen, retitle the terminal or forge a line of the report, so each
// is shown escaped, as Go writes it in a string literal, never raw.
package textsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape returns s with every character a terminal could act on written as
// an escape: C0 and C1 controls (NUL, BEL, BS, TAB, LF, CR, ESC, ...), DEL,
// the line and paragraph separators U+2028 and U+2029, format characters
// such as the bidirectional overrides, and bytes that are not UTF-8.
// Printable text, backslashes included, is unchanged.
func Escape(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r):
			b.WriteString(escapeRune(r))
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Excerpt is Escape of at most max bytes of s, marked when cut, for a
// reader that names a file's content without echoing it: what it shows
// is short and inert.
func Excerpt(s string, max int) string {
	if len(s) <= max {
		return Escape(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes)", Escape(s[:cut]), len(s)-cut)
}

// clean reports whether s needs no escape, the common case, without
// allocating.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			return cleanSlow(s[i:])
		}
	}
	return true
}

func cleanSlow(s string) bool {
	for i, r := range s {
		if unsafeRune(r) || (r == utf8.RuneError && !strings.HasPrefix(s[i:], string(utf8.RuneError))) {
			return false
		}
	}
	return true
}

// unsafeRune: controls (Cc: C0, DEL, C1), the line and paragraph separators
// (Zl, Zp) and format characters (Cf: bidirectional overrides, zero-width
// characters), which change how the text around them is shown.
func unsafeRune(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Zl, unicode.Zp, unicode.Cf)
}

func escapeRune(r rune) string {
	switch r {
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if r < 0x80 {
		return fmt.Sprintf(`\x%02x`, r)
	}
	return fmt.Sprintf(`\u%04x`, r)
}
