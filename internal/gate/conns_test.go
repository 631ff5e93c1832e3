package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// A /proc/net/tcp excerpt: the agent port 8091 (0x1F9B) listening, one
// connection in TIME_WAIT (06) and one ESTABLISHED (01), and a connection
// whose remote port, not local, is 8091.
const procNetTCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000:1F9B 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0000000000000000 100 0 0 10 0
   1: 0A0200C0:1F9B 0B0200C0:9A3C 06 00000000:00000000 03:00001234 00000000     0        0 0 3 0000000000000000
   2: 0A0200C0:1F9B 0B0200C0:9A40 01 00000000:00000000 00:00000000 00000000     0        0 2 1 0000000000000000 20 4 30 10 -1
   3: 0B0200C0:9A44 0A0200C0:1F9B 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0000000000000000 20 4 30 10 -1
`

func TestAgentConnections(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tcp")
	if err := os.WriteFile(file, []byte(procNetTCP), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		files []string
		port  int
		want  int
	}{
		{[]string{file}, 8091, 2},
		{[]string{file, file}, 8091, 4},
		{[]string{file}, 9091, 0},
		{[]string{filepath.Join(t.TempDir(), "missing")}, 8091, 0},
	}
	for _, tc := range cases {
		if got := agentConnections(tc.files, tc.port); got != tc.want {
			t.Errorf("agentConnections(%v, %d) = %d, want %d", tc.files, tc.port, got, tc.want)
		}
	}
}
