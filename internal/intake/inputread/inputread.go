// Package inputread is the one way this module reads an input a user
// hands it: a file, standard input ("-"), a FIFO or a device given as a
// flag or an argument, a file a kustomization build reads, a file under
// --root. Each kind of input has a cap (caps, the one table); at most the
// cap plus one byte is ever read, and an input over the cap is an error
// naming the input and the cap that wraps ErrTooLarge, never a silent cut.
// A directory given where a file goes is an error wrapping ErrDirectory.
//
// API for callers:
//
//	data, err := inputread.Read(arg, stdin, inputread.Bundle)  // "-" = stdin, else a path
//	data, err := inputread.File(path, inputread.HostFile)
//	data, err := inputread.Reader(r, "the ResourceList on stdin", inputread.FunctionInput)
//
// errors.Is(err, inputread.ErrTooLarge) classifies an input over its cap as
// bad input, whichever command read it.
package inputread

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrTooLarge is wrapped by every *tooLargeError.
var ErrTooLarge = errors.New("input larger than its cap")

// ErrDirectory is wrapped by every *directoryError.
var ErrDirectory = errors.New("a directory where a file goes")

// tooLargeError is an input that holds more than its kind's cap.
type tooLargeError struct {
	Name string // "stdin", a path, "the ResourceList on stdin"
	Kind Kind
}

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than the %s cap for %s; nothing of it was used (docs/commands.md, \"Input caps\")",
		e.Name, formatCap(e.Kind.Cap), e.Kind.Name)
}

// Unwrap makes errors.Is(err, ErrTooLarge) hold.
func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// directoryError is a directory given where a file is read.
type directoryError struct{ Name string }

func (e *directoryError) Error() string {
	return e.Name + " is a directory; give a file (or - for standard input)"
}

// Unwrap makes errors.Is(err, ErrDirectory) hold.
func (e *directoryError) Unwrap() error { return ErrDirectory }

// Read reads arg: "-" is stdin (named "stdin" in errors), anything else
// a path (File).
func Read(arg string, stdin io.Reader, k Kind) ([]byte, error) {
	if arg == "-" {
		return Reader(stdin, "stdin", k)
	}
	return File(arg, k)
}

// File opens path read-only and reads it as Reader does. Opening a FIFO
// waits for its writer, as cat does.
func File(path string, k Kind) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Reader(f, path, k)
}

// statter is what an open file offers: os.File and kustomize's filesys.File.
type statter interface {
	Stat() (fs.FileInfo, error)
}

// Reader reads r (named name in errors) to its end, holding at most
// k.Cap+1 bytes. A regular file whose size is over the cap is refused
// before anything is read; a directory is refused; a stream (stdin, a
// FIFO, a device) is read up to the cap and refused if a byte follows.
func Reader(r io.Reader, name string, k Kind) ([]byte, error) {
	if s, ok := r.(statter); ok {
		if st, err := s.Stat(); err == nil {
			switch {
			case st.IsDir():
				return nil, &directoryError{Name: name}
			case st.Mode().IsRegular() && st.Size() > k.Cap:
				return nil, &tooLargeError{Name: name, Kind: k}
			}
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, k.Cap+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(len(data)) > k.Cap {
		return nil, &tooLargeError{Name: name, Kind: k}
	}
	return data, nil
}
