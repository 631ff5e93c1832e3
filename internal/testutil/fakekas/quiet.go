package fakekas

import (
	"io"
	"log"
)

// quietLog drops net/http's server log: the hostile modes expect readers
// to hang up mid-response, which the server would log as errors.
func quietLog() *log.Logger { return log.New(io.Discard, "", 0) }
