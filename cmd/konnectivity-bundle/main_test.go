package main

import (
	"os"
	"testing"
)

// runMain makes the test binary run main itself, so tests run the commands
// as processes of this very build (fips_test.go).
const runMain = "KB_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	switch {
	case os.Getenv(runMain) == "1":
		main()
	case os.Getenv(fipsControl) == "1":
		reportEnforcement()
	}
	os.Exit(m.Run())
}
