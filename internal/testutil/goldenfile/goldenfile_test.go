package goldenfile

import (
	"fmt"
	"strings"
	"testing"
)

// recorder is a testing.TB whose Fatalf records instead of stopping, so a
// refused value can be observed.
type recorder struct {
	testing.TB
	fatal string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }

// TestUpdate pins the switch's values: only 1 turns update mode on, and a
// value it does not know fails naming the variable and the fix.
func TestUpdate(t *testing.T) {
	for _, tc := range []struct {
		env   string
		want  bool
		fatal string
	}{
		{env: "", want: false},
		{env: "0", want: false},
		{env: "1", want: true},
		{env: "true", want: false, fatal: `KB_UPDATE_GOLDEN="true": set it to 1`},
	} {
		t.Run(fmt.Sprintf("%q", tc.env), func(t *testing.T) {
			t.Setenv(UpdateEnv, tc.env)
			r := &recorder{TB: t}
			want := tc.want || (*updateFlag && tc.fatal == "") // -update given to this package too
			if got := Update(r); got != want || !strings.Contains(r.fatal, tc.fatal) || (tc.fatal == "") != (r.fatal == "") {
				t.Errorf("Update with %s=%q = %v, failure %q; want %v, failure containing %q", UpdateEnv, tc.env, got, r.fatal, want, tc.fatal)
			}
		})
	}
}
