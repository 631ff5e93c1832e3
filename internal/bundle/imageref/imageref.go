// Package imageref is the one rule for an apiserver-network-proxy image
// reference, wherever one is read: --image as the flags are read (every
// command), spec.image in the generator, and render's options. One rule
// gives one wording for the same mistake in every command.
package imageref

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/distribution/reference"
)

// Fix is what to do about a reference Check refuses.
const Fix = "use a reference like quay.io/openshift/origin-apiserver-network-proxy:4.20 or NAME@sha256:<64 hex digits>"

// Error is a reference that is not one.
type Error struct {
	Ref string
	Err error // the grammar's own complaint
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s is not a valid image reference: %v", strconv.Quote(e.Ref), e.Err)
}

// Check applies the container reference grammar the kubelet's runtime
// uses (a short name normalised as docker and podman read it).
func Check(ref string) error {
	if _, err := reference.ParseNormalizedNamed(ref); err != nil {
		return &Error{Ref: ref, Err: err}
	}
	return nil
}

// Flag is a command-line value (pflag.Value) holding one reference,
// refused as the flags are read: a flag problem, like every other flag's.
type Flag struct{ P *string }

func (f Flag) String() string { return *f.P }

// Type names the value in --help.
func (f Flag) Type() string { return "string" }

// Set checks s and keeps it.
func (f Flag) Set(s string) error {
	if err := Check(s); err != nil {
		return fmt.Errorf("%w (fix: %s)", err, Fix)
	}
	*f.P = s
	return nil
}

// ListFlag is a comma-separated list of references (diff's IMAGE_A,IMAGE_B),
// each checked as Flag checks one; a repeated flag appends.
type ListFlag struct{ P *[]string }

func (f ListFlag) String() string { return strings.Join(*f.P, ",") } // "" unset: --help shows no default

// Type names the value in --help.
func (f ListFlag) Type() string { return "strings" }

// Set checks each reference of s and appends them.
func (f ListFlag) Set(s string) error {
	refs := strings.Split(s, ",")
	for _, ref := range refs {
		if err := (Flag{P: new(string)}).Set(ref); err != nil {
			return err
		}
	}
	*f.P = append(*f.P, refs...)
	return nil
}
