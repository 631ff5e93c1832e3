package firewall

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// commentText makes s safe inside a one-line comment of every format (sh,
// nft and HCL end a comment at a newline; a terminal acts on ESC): it
// escapes control characters, line and paragraph separators, every other
// rune that does not print, and invalid UTF-8, the way Go quotes strings.
// Printable text, quotes included, stays as it is.
func commentText(s string) string {
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}
