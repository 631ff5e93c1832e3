// Package hostiletext is the tests' attacker: values a metric label, an
// object name, a log line or a file could hold to take over a terminal, and
// the check that a text output shows none of them raw.
package hostiletext

import (
	"strings"
	"testing"
	"unicode"
)

// Forged starts the line a hostile value tries to forge after a newline,
// a CR or a line separator.
const Forged = "FORGED ok all good"

// Values are hostile strings, each also a plausible name or label value
// around the attack.
var Values = []string{
	"web\x1b[2J\x1b[Hhook",     // clear the screen
	"web\x1b]0;pwned\x07hook",  // retitle the terminal, ended by BEL
	"web\n" + Forged,           // forge a line
	"web\r" + Forged,           // overwrite the line
	"web\u2028" + Forged,       // a line separator
	"web\u2029" + Forged,       // a paragraph separator
	"web\x00\x7f\u009b31mhook", // NUL, DEL and the C1 CSI
	"web\u202ekooh",            // a bidirectional override
	"web\thook\vx\fy\bz",       // tab, vertical tab, form feed, backspace
	"web\xff\xfe",              // bytes that are not UTF-8
}

// One is every value joined, for a field that takes a single string.
var One = strings.Join(Values, "|")

// AssertInert fails t when out holds a raw control character other than
// the newlines ending its own lines, a line or paragraph separator, a
// format character, or a line that starts with Forged.
func AssertInert(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && (unicode.In(r, unicode.Cc, unicode.Zl, unicode.Zp, unicode.Cf) || r == unicode.ReplacementChar) {
			t.Errorf("%s prints %U raw:\n%q", what, r, out)
			return
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), Forged) {
			t.Errorf("%s prints a forged line %q:\n%s", what, line, out)
		}
	}
}
