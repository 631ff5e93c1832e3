package gate

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// DefaultProcNet are the kernel's TCP tables of the gate's own network
// namespace: the bootstrap host's, where the server listens (hostNetwork).
var DefaultProcNet = []string{"/proc/net/tcp", "/proc/net/tcp6"}

// tcpListen is the kernel's state number of a listening socket
// (include/net/tcp_states.h); every other state is a connection.
const tcpListen = 0x0A

// agentConnections counts TCP connections, in any state but listening, on
// the server's agent port: agents whose TLS handshake the server refuses
// leave them (TIME_WAIT lasts a minute), while a port a firewall drops
// leaves none, which is how the gate tells a certificate mismatch from a
// closed port. Unreadable tables count nothing.
func agentConnections(files []string, port int) int {
	n := 0
	for _, f := range files {
		n += countLocalPort(f, port)
	}
	return n
}

// countLocalPort reads one /proc/net/tcp-style table: "sl local_address
// rem_address st ...", addresses as hex ADDR:PORT.
func countLocalPort(file string, port int) int {
	f, err := os.Open(file)
	if err != nil {
		return 0
	}
	defer f.Close()
	suffix := fmt.Sprintf(":%04X", port)
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasSuffix(fields[1], suffix) {
			continue
		}
		if st, err := strconv.ParseUint(fields[3], 16, 8); err == nil && st != tcpListen {
			n++
		}
	}
	return n
}
