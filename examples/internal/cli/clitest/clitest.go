// Package clitest drives an example's run function through the command-line
// convention of package cli in a table test.
package clitest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Run is an example's whole program: arguments without the program name,
// stdout and stderr; it returns the exit code.
type Run func(args []string, stdout, stderr *bytes.Buffer) int

// A Case is one command line and what it must do: exit with Code, print
// nothing on stdout, and print every string of Stderr on stderr (typically
// the flag's name and its range).
type Case struct {
	Name   string
	Args   []string
	Code   int
	Stderr []string
}

// Standard returns the cases every example must pass: -h exits 0, an
// unknown flag and a stray argument exit 2.
func Standard() []Case {
	return []Case{
		{Name: "help", Args: []string{"-h"}, Code: 0, Stderr: []string{"usage:"}},
		{Name: "unknown flag", Args: []string{"-no-such-flag"}, Code: 2, Stderr: []string{"no-such-flag", "usage:"}},
		{Name: "stray argument", Args: []string{"foo"}, Code: 2, Stderr: []string{`"foo"`, "usage:"}},
	}
}

// Check runs every case and reports each difference.
func Check(t *testing.T, run Run, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(c.Args, &out, &errb)
			if code != c.Code {
				t.Errorf("%q: exit %d, want %d; stderr:\n%s", c.Args, code, c.Code, errb.String())
			}
			if out.Len() != 0 {
				t.Errorf("%q: printed on stdout:\n%s", c.Args, out.String())
			}
			for _, s := range c.Stderr {
				if !strings.Contains(errb.String(), s) {
					t.Errorf("%q: stderr lacks %q:\n%s", c.Args, s, errb.String())
				}
			}
		})
	}
}

// Bad is a command line the example must refuse: exit 2, naming on stderr
// every string of want (the flag, its value and its range).
func Bad(name string, args []string, want ...string) Case {
	return Case{Name: name, Args: args, Code: 2, Stderr: want}
}

// EmptyFile creates an empty file in the test's temporary directory and
// returns its path: an argument a flag taking a path accepts (or, given to
// a flag taking a directory, refuses).
func EmptyFile(t *testing.T) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// Output runs the program once and returns its exit code, stdout and
// stderr.
func Output(run func(args []string, stdout, stderr io.Writer) int, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}
