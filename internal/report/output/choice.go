package output

import (
	"fmt"
	"slices"
	"strings"
)

// Choice is an --output flag's value (a pflag.Value): one of the formats a
// command writes, the first the default. It is the one place an --output
// value is checked, so every command refuses a wrong one alike.
type Choice struct {
	f       Format
	formats []Format
}

// NewChoice is a Choice of formats, set to the first.
func NewChoice(formats ...Format) *Choice {
	return &Choice{f: formats[0], formats: formats}
}

// Format is the format chosen.
func (c *Choice) Format() Format { return c.f }

// String is the format chosen, as pflag shows it.
func (c *Choice) String() string { return string(c.f) }

// Type is the flag's type, as pflag's help shows it.
func (c *Choice) Type() string { return "string" }

// Set chooses s, which must be one of the formats.
func (c *Choice) Set(s string) error {
	if !slices.Contains(c.formats, Format(s)) {
		return fmt.Errorf("use one of %s", Join(c.formats, ", "))
	}
	c.f = Format(s)
	return nil
}

// Join is the formats' names separated by sep, as help and errors list them.
func Join(formats []Format, sep string) string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = string(f)
	}
	return strings.Join(names, sep)
}

// FromNames turns names into Formats, for a package that keeps its format
// names as text (firewall's rule formats).
func FromNames(names ...string) []Format {
	out := make([]Format, len(names))
	for i, n := range names {
		out[i] = Format(n)
	}
	return out
}
