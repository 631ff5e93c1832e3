package output

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// plain has only the JSON form every value has.
type plain struct {
	Name string `json:"name"`
}

// texted has a text form, and a JSON document other than itself.
type texted struct{ name string }

func (t texted) WriteText(w io.Writer) error {
	_, err := io.WriteString(w, "name: "+t.name+"\n")
	return err
}

func (t texted) JSONDocument() any { return plain{Name: t.name} }

// extra has a format beyond text and JSON.
type extra struct{}

func (extra) WriteText(w io.Writer) error { _, err := io.WriteString(w, "text\n"); return err }

func (extra) WriteFormat(w io.Writer, f Format) error {
	if f != "shout" {
		return errors.New("no " + string(f))
	}
	_, err := io.WriteString(w, "TEXT\n")
	return err
}

// TestWrite: JSON through the one encoder (indented, <, > and & as they
// are, a report's own document when it has one), text through WriteText,
// another format through WriteFormat, and an error for a form the report
// lacks.
func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		name    string
		f       Format
		v       any
		want    string
		wantErr string
	}{
		{"json of a value", JSON, plain{Name: "a<b>&c"}, "{\n  \"name\": \"a<b>&c\"\n}\n", ""},
		{"json of a document", JSON, texted{name: "x"}, "{\n  \"name\": \"x\"\n}\n", ""},
		{"json of a list", JSON, []int{}, "[]\n", ""},
		{"text", Text, texted{name: "x"}, "name: x\n", ""},
		{"extra format", "shout", extra{}, "TEXT\n", ""},
		{"extra format refused by the report", "whisper", extra{}, "", "no whisper"},
		{"no text form", Text, plain{}, "", "has no text form"},
		{"no extra format", "markdown", texted{}, "", "has no markdown form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			err := Write(&b, tc.f, tc.v)
			switch {
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one saying %q", err, tc.wantErr)
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v", err)
			case b.String() != tc.want:
				t.Errorf("wrote %q, want %q", b.String(), tc.want)
			}
		})
	}
}

// TestChoice: the default is the first format, a listed one is taken, any
// other is refused naming the formats, as every command's --output says.
func TestChoice(t *testing.T) {
	for _, tc := range []struct {
		name    string
		formats []Format
		set     string
		want    Format
		wantErr string
	}{
		{"default", []Format{Text, JSON}, "", Text, ""},
		{"listed", []Format{Text, JSON}, "json", JSON, ""},
		{"command's own", append([]Format{Text, JSON}, FromNames("nftables", "aws")...), "aws", "aws", ""},
		{"unlisted", []Format{Text, JSON}, "yaml", Text, "use one of text, json"},
		{"case matters", []Format{Text, "markdown", JSON}, "JSON", Text, "use one of text, markdown, json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewChoice(tc.formats...)
			var err error
			if tc.set != "" {
				err = c.Set(tc.set)
			}
			if (err == nil) != (tc.wantErr == "") || (err != nil && err.Error() != tc.wantErr) {
				t.Errorf("Set(%q): error %v, want %q", tc.set, err, tc.wantErr)
			}
			if c.Format() != tc.want || c.String() != string(tc.want) {
				t.Errorf("Set(%q): chose %q (%q), want %q", tc.set, c.Format(), c.String(), tc.want)
			}
		})
	}
}
