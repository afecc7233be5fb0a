// Package cli is the command-line convention every schedkit example follows.
//
//   - -h and -help print the usage on stderr and exit 0.
//   - An unknown flag, a malformed flag value or a stray argument prints the
//     problem and the usage on stderr and exits 2.
//   - Every flag is validated before any work starts (Checker): each problem
//     names the flag, its value and the valid range; all problems are
//     reported together and the program exits 2.
//   - Errors found while working (an unreadable trace, a write that fails)
//     exit 1.
//   - Long runs report progress on stderr (Progress), never on stdout, and
//     not at all with -json.
//   - A run ends with Emit: the figures into -plot DIR, then the report on
//     stdout, as JSON indented by two spaces with -json or as text.
//
// An example's main is
//
//	func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
//
// and run parses with Parse, validates with a Checker, then works. The
// clitest package drives run from a table test.
package cli
