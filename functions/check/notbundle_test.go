package check

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

// TestNotABundleQuotesTheStart: the not-a-bundle finding quotes the first
// line of the input up to 40 characters (runes, never a split one), quoted
// and escaped as %q does, with "..." when it cut.
func TestNotABundleQuotesTheStart(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"short", "just some text\n", `beginning "just some text"`},
		{"exactly 40 ASCII", strings.Repeat("x", 40) + "\n", `beginning "` + strings.Repeat("x", 40) + `"`},
		{"41 ASCII cut at 40", strings.Repeat("x", 41) + "\n", `beginning "` + strings.Repeat("x", 40) + `..."`},
		{"multibyte across byte 40", strings.Repeat("x", 39) + "éééé\n", `beginning "` + strings.Repeat("x", 39) + `é..."`},
		{"40 two-byte runes kept whole", strings.Repeat("é", 40) + "\n", `beginning "` + strings.Repeat("é", 40) + `"`},
		{"41 three-byte runes cut at 40", strings.Repeat("字", 41) + "\n", `beginning "` + strings.Repeat("字", 40) + `..."`},
		{"control character escaped", "a\x1bb: c\n", `beginning "a\x1bb: c"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := Check([]byte(tc.in), Options{})
			if err != nil {
				t.Skipf("kyaml refuses %q outright (%v); no finding to word", tc.in, err)
			}
			if len(fs) != 1 || result.Rule(fs[0]) != NotABundleRule {
				t.Fatalf("Check(%q) = %s; want one %s finding", tc.in, dump(fs), NotABundleRule)
			}
			msg := fs[0].Message
			if !utf8.ValidString(msg) {
				t.Errorf("the message is not valid UTF-8: %q", msg)
			}
			if !strings.HasSuffix(msg, tc.want) {
				t.Errorf("message %q; want it to end %s", msg, tc.want)
			}
		})
	}
}
