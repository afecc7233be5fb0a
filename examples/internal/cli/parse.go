package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit codes shared by every example.
const (
	ExitOK    = 0 // success, or -h
	ExitError = 1 // a failure while working
	ExitUsage = 2 // bad flags or arguments: nothing was done
)

// NewFlagSet returns a flag set named after the program that reports to
// stderr and returns parse errors instead of exiting. usage is printed above
// the flag defaults by -h and after every usage error; it should be the
// synopsis line, e.g. "usage: mimp [-seed N] [-json] [-plot DIR]".
func NewFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), usage)
		fs.PrintDefaults()
	}
	return fs
}

// Parse parses args with fs (made by NewFlagSet). When the program must stop
// now it returns done = true and the exit code: ExitOK after -h or -help,
// ExitUsage after an unknown flag, a malformed value or a stray argument. In
// every case the message and the usage have been printed on fs's output.
func Parse(fs *flag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK, true
		}
		return ExitUsage, true // flag has printed the error and the usage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "%s: unexpected argument %q (this command takes flags only)\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return ExitUsage, true
	}
	return 0, false
}

// Fail prints every problem of err on stderr, one per line and prefixed with
// the program name, and returns code (for os.Exit).
func Fail(stderr io.Writer, name string, err error, code int) int {
	for _, e := range unjoin(err) {
		fmt.Fprintf(stderr, "%s: %v\n", name, e)
	}
	return code
}

// unjoin splits an errors.Join result into its parts.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}
