package hostfs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DefaultLockTimeout is how long a second render, teardown or certs waits
// for the first to finish.
const DefaultLockTimeout = 30 * time.Second

// Lock is an exclusive flock(2) on the root directory itself. Locking the
// directory rather than a file in it means the lock exists before anything
// is created, so taking it leaves no trace on the host, and the kernel drops
// it when the holder dies: a killed run never leaves a stale lock.
type Lock struct{ f *os.File }

// LockedError is returned when another process kept the lock past the timeout.
type LockedError struct {
	Root    string
	Holder  string // "pid 123 (konnectivity-bundle render --root /)", or "unknown"
	Timeout time.Duration
	Flag    string // the flag that sets Timeout; "" is --lock-timeout
}

func (e *LockedError) Error() string {
	flag := e.Flag
	if flag == "" {
		flag = "--lock-timeout"
	}
	return fmt.Sprintf("--root %s is locked by %s, still held after waiting %s; "+
		"fix: let it finish, or raise %s", e.Root, e.Holder, e.Timeout.Round(100*time.Millisecond), flag) // a wait the deadline cut is nanoseconds long
}

// Lock waits up to timeout (0: not at all) for the exclusive lock. A
// cancelled ctx (a SIGTERM) stops the wait with context.Cause(ctx).
func (r *Root) Lock(ctx context.Context, timeout time.Duration) (*Lock, error) {
	return r.lock(ctx, timeout, syscall.LOCK_EX)
}

// LockShared waits for a shared lock: readers (a dry run) never see a
// transaction halfway, and do not block each other.
func (r *Root) LockShared(ctx context.Context, timeout time.Duration) (*Lock, error) {
	return r.lock(ctx, timeout, syscall.LOCK_SH)
}

func (r *Root) lock(ctx context.Context, timeout time.Duration, how int) (*Lock, error) {
	f, err := r.r.OpenFile(".", os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, fmt.Errorf("lock --root %s: %w", r.dir, err)
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock --root %s: %w", r.dir, err)
		}
		if !time.Now().Before(deadline) {
			holder := lockHolder(f)
			f.Close()
			return nil, &LockedError{Root: r.dir, Holder: holder, Timeout: timeout}
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, context.Cause(ctx)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() error { return l.f.Close() }

// lockHolder finds the process holding a flock on f's inode in
// /proc/locks, which the kernel keeps exact (a pid file could be stale).
func lockHolder(f *os.File) string {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return "unknown"
	}
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return "unknown"
	}
	defer locks.Close()
	// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; waiters have "->".
	want := ":" + strconv.FormatUint(st.Ino, 10)
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[1] != "FLOCK" || fields[3] != "WRITE" || !strings.HasSuffix(fields[5], want) {
			continue
		}
		pid := fields[4]
		if fields[5] != devIno(st) {
			continue
		}
		cmd, err := os.ReadFile("/proc/" + pid + "/cmdline")
		if err != nil || len(cmd) == 0 {
			return "pid " + pid
		}
		return fmt.Sprintf("pid %s (%s)", pid, strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " ")))
	}
	return "unknown"
}

// devIno formats a device and inode the way /proc/locks does.
func devIno(st syscall.Stat_t) string {
	major := (st.Dev >> 8) & 0xfff
	minor := (st.Dev & 0xff) | ((st.Dev >> 12) & 0xfff00)
	return fmt.Sprintf("%02x:%02x:%d", major, minor, st.Ino)
}
