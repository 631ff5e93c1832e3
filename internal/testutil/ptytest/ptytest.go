// Package ptytest opens a pseudo-terminal for tests of what a command does
// when its stdin is a terminal.
package ptytest

import (
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// Open returns the terminal end of a new pseudo-terminal (what a command
// reads from when a user types) and its controller end; both close when
// the test ends. A machine without /dev/ptmx fails the test, naming it.
func Open(t *testing.T) (tty, controller *os.File) {
	t.Helper()
	controller, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { controller.Close() })
	fd := int(controller.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("naming the pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("opening the pseudo-terminal's terminal end: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty, controller
}

// Resize sets the terminal's size, as a terminal window does when the user
// resizes it; a command reads it when it wraps to the terminal.
func Resize(t *testing.T, tty *os.File, cols, rows int) {
	t.Helper()
	ws := &unix.Winsize{Col: uint16(cols), Row: uint16(rows)}
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, ws); err != nil {
		t.Fatalf("resizing the pseudo-terminal to %dx%d: %v", cols, rows, err)
	}
}
