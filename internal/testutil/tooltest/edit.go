package tooltest

import (
	"os"
	"strings"
	"testing"
)

// EditFile replaces the first from in file with to, and fails the test
// when file no longer holds from: a test that edits a copy of the
// repository must notice when the text it edits has changed.
func EditFile(tb testing.TB, file, from, to string) {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	edited := strings.Replace(string(data), from, to, 1)
	if edited == string(data) {
		tb.Fatalf("%s no longer has %q; update the test's edit", file, from)
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		tb.Fatal(err)
	}
}
