package check

import (
	"os"
	"strings"
	"testing"
)

// TestCheckNamesTheMissingSeparator: Check itself fails with the separator
// message, not a parser error about whichever object it was building.
func TestCheckNamesTheMissingSeparator(t *testing.T) {
	good, err := os.ReadFile("testdata/bundle/good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Replace(string(good), "\n---\n", "\n", 1)
	_, err = Check([]byte(joined), Options{})
	if err == nil || !strings.Contains(err.Error(), "two documents joined without `---`") {
		t.Fatalf("Check = %v, want the missing-separator error", err)
	}
}
