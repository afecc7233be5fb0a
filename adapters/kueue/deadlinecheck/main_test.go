package deadlinecheck

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs the rapid properties with 5000 checks unless
// -rapid.checks is given: at rapid's default of 100 the plan properties
// rarely draw two decisions that compete for the same deadline.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "rapid.checks" })
	if !set {
		if err := flag.Set("rapid.checks", "5000"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
