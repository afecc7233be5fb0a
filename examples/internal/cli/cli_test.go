package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/examples/internal/cli"
	"github.com/schedkit/schedkit/examples/internal/cli/clitest"
)

// run is a minimal program following the convention.
func run(args []string, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("demo", "usage: demo [-runs N] [-rate R] [-mode M] [-plot DIR]", stderr)
	runs := fs.Int("runs", 100, "Monte-Carlo runs")
	rate := fs.Float64("rate", 1, "arrival rate (jobs/s)")
	mode := fs.String("mode", "a", "mode: a or b")
	plot := fs.String("plot", "", "write PNG figures into `DIR`")
	if code, done := cli.Parse(fs, args); done {
		return code
	}
	var c cli.Checker
	c.Int("runs", *runs, 1, 1_000_000)
	c.FloatAbove("rate", *rate, 0, 1e6)
	c.OneOf("mode", *mode, "a", "b")
	c.Dir("plot", *plot)
	if err := c.Err(); err != nil {
		return cli.Fail(stderr, "demo", err, cli.ExitUsage)
	}
	fmt.Fprintln(stdout, "ran", *runs)
	return cli.ExitOK
}

func TestConvention(t *testing.T) {
	file := clitest.EmptyFile(t)
	dir := filepath.Dir(file)
	cases := append(clitest.Standard(),
		clitest.Case{Name: "runs 0", Args: []string{"-runs", "0"}, Code: 2, Stderr: []string{"-runs = 0", "[1, 1000000]"}},
		clitest.Case{Name: "rate NaN", Args: []string{"-rate", "NaN"}, Code: 2, Stderr: []string{"-rate = NaN", "(0, 1e+06]"}},
		clitest.Case{Name: "mode", Args: []string{"-mode", "c"}, Code: 2, Stderr: []string{`-mode = "c"`, "a, b"}},
		clitest.Case{Name: "plot onto a file", Args: []string{"-plot", filepath.Join(file, "x")}, Code: 2, Stderr: []string{"-plot = "}},
		clitest.Case{Name: "every problem at once", Args: []string{"-runs", "-1", "-rate", "0"}, Code: 2, Stderr: []string{"-runs = -1", "-rate = 0"}},
		clitest.Case{Name: "malformed value", Args: []string{"-runs", "x"}, Code: 2, Stderr: []string{"-runs", "usage:"}},
	)
	clitest.Check(t, func(args []string, out, errb *bytes.Buffer) int { return run(args, out, errb) }, cases)
	var out, errb bytes.Buffer
	if code := run([]string{"-plot", filepath.Join(dir, "new", "sub")}, &out, &errb); code != 0 || out.String() != "ran 100\n" {
		t.Fatalf("good run: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if fi, err := os.Stat(filepath.Join(dir, "new", "sub")); err != nil || !fi.IsDir() {
		t.Fatalf("-plot DIR not created: %v", err)
	}
}

func TestProgress(t *testing.T) {
	var b bytes.Buffer
	p := cli.NewProgress(&b, "runs", 4)
	for range 4 {
		p.Add(1)
	}
	p.Done()
	if got, want := b.String(), "\rruns   0%\rruns  25%\rruns  50%\rruns  75%\rruns 100%\n"; got != want {
		t.Fatalf("progress %q, want %q", got, want)
	}
	var silent *cli.Progress
	silent.Add(1)
	silent.Done()
	q := cli.NewProgress(nil, "x", 0)
	q.Add(3)
	q.Done()
	if strings.Contains(b.String(), "x") {
		t.Fatal("nil writer printed")
	}
}
