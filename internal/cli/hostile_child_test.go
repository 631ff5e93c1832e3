package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// hostileSlots caps the cases that run a child at once, whatever
// go test's -parallel says: the machine has 2 shared cores.
var hostileSlots = make(chan struct{}, 4)

// newHostileCmd is the command line as a child with the test's
// environment (hostileEnv), killed when the test binary dies.
func newHostileCmd(bin string, args []string, stdout, stderr io.Writer) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = hostileEnv()
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = 5 * time.Second                                    // a grandchild holding stdout must not hold the test
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // nor outlive a test binary that dies
	return cmd
}

// watchHostileChild kills p once it has run for limit or its resident set
// passes twice hostileRSSCeiling, saying why on killed, until stop closes.
func watchHostileChild(p *os.Process, limit time.Duration, killed chan<- string) (stop chan struct{}) {
	stop = make(chan struct{})
	go func() {
		deadline := time.NewTimer(limit)
		defer deadline.Stop()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-deadline.C:
				killed <- fmt.Sprintf("still running after %s", limit)
				_ = p.Kill()
				return
			case <-tick.C:
				if rss := residentBytes(p.Pid); rss > 2*hostileRSSCeiling {
					killed <- fmt.Sprintf("resident set %d MiB, past twice the ceiling", rss>>20)
					_ = p.Kill()
					return
				}
			}
		}
	}()
	return stop
}

// residentBytes is a process's resident set now (VmRSS), 0 when unknown.
func residentBytes(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kib, _ := strconv.ParseInt(f[1], 10, 64)
			return kib << 10
		}
	}
	return 0
}

// tailWriter keeps the last 4 KiB written to it and counts all.
type tailWriter struct {
	mu  sync.Mutex
	n   int64
	buf []byte
}

const tailKeep = 4 << 10

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(p)
	w.n += int64(n)
	if len(p) > tailKeep {
		p = p[len(p)-tailKeep:]
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) > tailKeep {
		w.buf = append([]byte(nil), w.buf[len(w.buf)-tailKeep:]...)
	}
	return n, nil
}

// lastLines is the last n lines kept, each indented and cut at 300 bytes.
func (w *tailWriter) lastLines(n int) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(w.buf), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	for i, l := range lines {
		if len(l) > 300 {
			l = l[:300] + "..."
		}
		lines[i] = "    " + strings.ToValidUTF8(l, "?")
	}
	return strings.Join(lines, "\n")
}
