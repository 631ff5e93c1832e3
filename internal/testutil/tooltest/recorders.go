package tooltest

import (
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// RecordRuns writes into a new directory a program for each name that
// appends its name and arguments to the returned log and exits 128, as a
// failed git does; put the directory first on PATH (or alone) to see
// whether a command ran git, ssh or helm. The log does not exist until one
// runs.
func RecordRuns(tb testing.TB, names ...string) (dir, log string) {
	tb.Helper()
	dir = tb.TempDir()
	log = filepath.Join(tb.TempDir(), "ran")
	for _, name := range names {
		script := "#!/bin/sh\necho \"$0 $*\" >> '" + log + "'\nexit 128\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	return dir, log
}

// Ran returns what the programs of RecordRuns logged ("" for nothing).
func Ran(tb testing.TB, log string) string {
	tb.Helper()
	b, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// Listen accepts connections on 127.0.0.1 (an ephemeral port) for the
// rest of the test, closing each at once, and returns its host:port and a
// count of the connections others made so far. The count first dials the
// listener itself and waits for that connection to be accepted: the kernel
// queues connections in order, so every earlier one is counted by then.
func Listen(tb testing.TB) (host string, conns func() int64) {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	var n int64
	accepted := map[string]chan struct{}{}
	seen := func(addr string) chan struct{} {
		if accepted[addr] == nil {
			accepted[addr] = make(chan struct{})
		}
		return accepted[addr]
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			n++
			close(seen(c.RemoteAddr().String()))
			mu.Unlock()
			c.Close()
		}
	}()
	var probes int64
	return l.Addr().String(), func() int64 {
		tb.Helper()
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			tb.Fatalf("dialling the watching listener: %v", err)
		}
		defer c.Close()
		mu.Lock()
		done := seen(c.LocalAddr().String())
		mu.Unlock()
		<-done
		probes++
		mu.Lock()
		defer mu.Unlock()
		return n - probes
	}
}
