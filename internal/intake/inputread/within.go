package inputread

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrNoEnd is wrapped by the error of an input that had not ended, or
// whose FIFO had no writer, when the reader's deadline passed.
var ErrNoEnd = errors.New("nothing of it was used")

// FileWithin is File bounded by ctx: opening a FIFO waits for its writer,
// and reading waits for the end, only until ctx is done; then it fails
// with an error naming path and wrapping ErrNoEnd. A regular file reads as
// with File. An open still waiting for a writer when ctx ends is left to
// finish on its own (the descriptor it may yield is closed then).
func FileWithin(ctx context.Context, path string, k Kind) ([]byte, error) {
	f, err := openWithin(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A FIFO or a pipe is in Go's poller, so a read deadline ends a read
	// that waits; a regular file ignores it (and never waits).
	stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Now()) })
	defer stop()
	data, err := Reader(f, path, k)
	if errors.Is(err, os.ErrDeadlineExceeded) || err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("%s had not ended when the deadline passed; %w", path, ErrNoEnd)
	}
	return data, err
}

// openWithin opens path for reading, giving up when ctx ends first: the
// open of a FIFO blocks until a writer opens it.
func openWithin(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	ch := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		ch <- opened{f, err}
	}()
	select {
	case o := <-ch:
		return o.f, o.err
	case <-ctx.Done():
		go func() {
			if o := <-ch; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, fmt.Errorf("%s is a FIFO no writer opened before the deadline passed; %w", path, ErrNoEnd)
	}
}
