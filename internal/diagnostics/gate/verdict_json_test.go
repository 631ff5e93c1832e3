package gate

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestVerdictJSONWaitedSeconds: wait.json gives the time waited in labelled
// seconds, not a bare count of nanoseconds.
func TestVerdictJSONWaitedSeconds(t *testing.T) {
	for _, tc := range []struct {
		waited time.Duration
		want   string
	}{
		{6006688732 * time.Nanosecond, `"waitedSeconds":6.007`},
		{0, `"waitedSeconds":0`},
		{5 * time.Minute, `"waitedSeconds":300`},
	} {
		data, err := json.Marshal(Verdict{Ready: true, Waited: tc.waited, Agents: 1})
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		if !strings.Contains(s, tc.want) || strings.Contains(s, `"waited":`) || !strings.Contains(s, `"agents":1`) {
			t.Errorf("%v: got %s, want %s, no bare waited, and the other fields", tc.waited, s, tc.want)
		}
	}
}
