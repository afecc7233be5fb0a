// Command tctfit fits paper 000's exp2 task-completion-time model (Eq. 1)
// to measured points and prints it.
//
// Usage:
//
//	tctfit [-in FILE] [-json] [-plot out.png]
//
// Input is CSV with one "x,y" row per measurement (x = residual capacity or
// web VM CPU utilisation, y = task completion time, absolute or
// normalised). A header line, blank lines and '#' comments are allowed. It
// is read from -in FILE, otherwise from standard input when that is a pipe
// or file with at least one data row.
//
// With no input — no -in, and standard input a terminal or empty (CI runs
// it with an empty, non-terminal stdin) — tctfit fits its embedded default:
// two synthetic data sets shaped like 000 Fig. 6, normalised TCT against
// the web VM's CPU utilisation from 10% to 100% for a CPU-bound job (Pi-like)
// and an IO-bound job (Sort-like), 60 tasks each, and prints both fits.
// They are not the paper's measurements (which are not published): they
// were drawn once from 0.55 + 0.45·e^(1.9u) and 0.9 + 0.1·e^(1.3u) with
// 11% and 4% Gaussian relative noise (seeded math/rand/v2 PCG) and stored
// in default_cpu_bound.csv and default_io_bound.csv.
//
// -json prints exactly one object {"a","b","c","d","sse","rmse","nrmse",
// "converged"}; for the default it describes the CPU-bound fit. -plot draws
// the data and fitted curve(s) to a PNG. A bad row prints an error naming
// its line and exits with status 1; bad flags exit with status 2.
package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/schedkit/schedkit/tct"
)

//go:embed default_cpu_bound.csv
var defaultCPUBound string

//go:embed default_io_bound.csv
var defaultIOBound string

// dataset is one named set of points and its fit.
type dataset struct {
	Name   string
	X, Y   []float64
	Model  tct.Exp2
	Report tct.FitReport
}

// jsonFit is the -json schema.
type jsonFit struct {
	A         float64 `json:"a"`
	B         float64 `json:"b"`
	C         float64 `json:"c"`
	D         float64 `json:"d"`
	SSE       float64 `json:"sse"`
	RMSE      float64 `json:"rmse"`
	NRMSE     float64 `json:"nrmse"`
	Converged bool    `json:"converged"`
}

func main() {
	stdin := io.Reader(os.Stdin)
	if fi, err := os.Stdin.Stat(); err != nil || fi.Mode()&os.ModeCharDevice != 0 {
		stdin = nil // a terminal (or no stdin): do not wait for typing
	}
	os.Exit(run(os.Args[1:], stdin, os.Stdout, os.Stderr))
}

// run is the whole program: args without the program name, stdin (nil when
// it is a terminal), and the output streams. It returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tctfit", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "read CSV x,y from `FILE` instead of standard input")
	asJSON := fs.Bool("json", false, `print one JSON object {"a","b","c","d","sse","rmse","nrmse","converged"}`)
	plotPath := fs.String("plot", "", "draw data and fitted curve to `out.png`")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tctfit: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	sets, err := loadInput(*in, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "tctfit: %v\n", err)
		return 1
	}
	for i := range sets {
		s := &sets[i]
		s.Model, s.Report, err = tct.FitExp2(s.X, s.Y, tct.FitOptions{})
		if err != nil {
			fmt.Fprintf(stderr, "tctfit: %s: %v\n", s.Name, err)
			return 1
		}
	}
	if *asJSON {
		s := sets[0]
		enc := json.NewEncoder(stdout)
		if err := enc.Encode(jsonFit{s.Model.A, s.Model.B, s.Model.C, s.Model.D,
			s.Report.SSE, s.Report.RMSE, s.Report.NRMSE, s.Report.Converged}); err != nil {
			fmt.Fprintf(stderr, "tctfit: %v\n", err)
			return 1
		}
	} else {
		for _, s := range sets {
			describe(stdout, s)
		}
		if len(sets) == 2 && *in == "" {
			// The default: compare the two jobs as 000 §6.3.1 does.
			fmt.Fprintf(stdout, "slowdown from 10%% to 100%% web CPU: CPU-bound %.2f×, IO-bound %.2f×\n",
				sets[0].Model.TCT(1)/sets[0].Model.TCT(0.1), sets[1].Model.TCT(1)/sets[1].Model.TCT(0.1))
		}
	}
	if *plotPath != "" {
		if err := plotFits(*plotPath, sets); err != nil {
			fmt.Fprintf(stderr, "tctfit: plot: %v\n", err)
			return 1
		}
		if !*asJSON {
			fmt.Fprintf(stdout, "plot written to %s\n", *plotPath)
		}
	}
	return 0
}

// loadInput returns the data sets to fit: the -in file, else stdin when it
// has data rows, else the embedded default.
func loadInput(path string, stdin io.Reader) ([]dataset, error) {
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		x, y, err := readPoints(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return []dataset{{Name: path, X: x, Y: y}}, nil
	}
	if stdin != nil {
		x, y, err := readPoints(stdin)
		if err == nil {
			return []dataset{{Name: "stdin", X: x, Y: y}}, nil
		}
		if !errors.Is(err, errNoData) {
			return nil, fmt.Errorf("stdin: %w", err)
		}
	}
	return defaultSets()
}

// defaultSets parses the embedded Fig. 6-shaped data.
func defaultSets() ([]dataset, error) {
	var out []dataset
	for _, d := range []struct{ name, csv string }{
		{"CPU-bound job (Pi-like)", defaultCPUBound},
		{"IO-bound job (Sort-like)", defaultIOBound},
	} {
		x, y, err := readPoints(strings.NewReader(d.csv))
		if err != nil {
			return nil, fmt.Errorf("embedded %s: %w", d.name, err)
		}
		out = append(out, dataset{Name: d.name + ", embedded default: normalised TCT vs web VM CPU utilisation u", X: x, Y: y})
	}
	return out, nil
}

// describe prints one fit readably.
func describe(w io.Writer, s dataset) {
	m, r := s.Model, s.Report
	lo, hi := minMax(s.X)
	fmt.Fprintf(w, "%s\n", s.Name)
	fmt.Fprintf(w, "  %d points, x in [%g, %g]\n", len(s.X), lo, hi)
	fmt.Fprintf(w, "  exp2 (Eq. 1): y = %.6g·e^(%.6g·x) + %.6g·e^(%.6g·x)\n", m.A, m.B, m.C, m.D)
	fmt.Fprintf(w, "  at x = %g: %.4g; at x = %g: %.4g\n", lo, m.TCT(lo), hi, m.TCT(hi))
	fmt.Fprintf(w, "  SSE %.4g, RMSE %.4g (Eq. 8), NRMSE %.2f%% (Eq. 9; paper Table 2: 7.25–9.64%%)\n", r.SSE, r.RMSE, 100*r.NRMSE)
	fmt.Fprintf(w, "  converged %v after %d iterations from a %q start", r.Converged, r.Iterations, r.Start.Kind)
	if r.Collapsed {
		fmt.Fprintf(w, "; collapsed to one exponential (b = d)")
	} else if r.Cancellation > 1e3 {
		fmt.Fprintf(w, "; near b = d (terms %.2g× the data)", r.Cancellation)
	}
	fmt.Fprintln(w)
}

// minMax returns the smallest and largest value of v (non-empty).
func minMax(v []float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range v {
		lo, hi = min(lo, e), max(hi, e)
	}
	return lo, hi
}
