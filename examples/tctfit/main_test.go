package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/examples/internal/cli/clitest"
	"github.com/schedkit/schedkit/tct"
)

func TestDefaultIsFig6Shaped(t *testing.T) {
	sets, isDefault, err := loadInput("", nil)
	if err != nil || !isDefault {
		t.Fatal(err, isDefault)
	}
	if len(sets) != 2 {
		t.Fatalf("%d default data sets, want 2", len(sets))
	}
	var slow [2]float64
	for i := range sets {
		s := &sets[i]
		if len(s.X) != 60 {
			t.Errorf("%s: %d points, want 60", s.Name, len(s.X))
		}
		lo, hi := minMax(s.X)
		if lo < 0.1 || hi > 1 {
			t.Errorf("%s: web CPU utilisation spans [%v, %v], want within [0.1, 1]", s.Name, lo, hi)
		}
		s.Model, s.Report, err = tct.FitExp2(s.X, s.Y, tct.FitOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// MIMP Table 2 reports 7–10%; our synthetic noise gives the same order.
		if !s.Report.Converged || s.Report.NRMSE < 0.03 || s.Report.NRMSE > 0.15 {
			t.Errorf("%s: NRMSE %v converged %v", s.Name, s.Report.NRMSE, s.Report.Converged)
		}
		slow[i] = s.Model.TCT(1) / s.Model.TCT(0.1)
	}
	// Fig. 6 / §6.6: the CPU-bound job slows down far more than the IO-bound.
	if !(slow[0] > 2 && slow[1] < 1.5) {
		t.Errorf("slowdowns CPU-bound %v, IO-bound %v", slow[0], slow[1])
	}
}

func TestRunDefaultOutput(t *testing.T) {
	var first string // every run of the default prints the same bytes
	for _, stdin := range []*strings.Reader{nil, strings.NewReader(""), strings.NewReader("x,y\n\n")} {
		var out, errb bytes.Buffer
		var code int
		if stdin == nil {
			code = run(nil, nil, &out, &errb)
		} else {
			code = run(nil, stdin, &out, &errb)
		}
		if code != 0 || errb.Len() != 0 {
			t.Fatalf("exit %d, stderr %q", code, errb.String())
		}
		s := out.String()
		for _, want := range []string{"CPU-bound job", "IO-bound job", "exp2 (Eq. 1): y = ", "NRMSE", "slowdown from 10% to 100% web CPU",
			"Terms:", "SSE: sum of squared residuals", "Differs from the paper because:", "synthetic points"} {
			if !strings.Contains(s, want) {
				t.Errorf("output lacks %q:\n%s", want, s)
			}
		}
		if n := strings.Count(s, "converged "); n != 2 {
			t.Errorf("%d fits printed, want 2:\n%s", n, s)
		}
		if first == "" {
			first = s
		} else if s != first {
			t.Errorf("a second run of the default printed different bytes:\n%s\nfirst:\n%s", s, first)
		}
	}
	var j1, j2 bytes.Buffer
	if c1, c2 := run([]string{"-json"}, nil, &j1, io.Discard), run([]string{"-json"}, nil, &j2, io.Discard); c1 != 0 || c2 != 0 || j1.String() != j2.String() {
		t.Errorf("two -json runs differ (exit %d, %d)", c1, c2)
	}
}

// TestRunJSONComplete: -json holds every fit the text shows (both for the
// default, with the slowdowns and the differences from the paper), each
// with the whole text line's numbers.
func TestRunJSONComplete(t *testing.T) {
	fitKeys := []string{"a", "b", "c", "cancellation", "collapsed", "converged", "d", "iterations", "name", "nrmse", "points", "rmse", "sse", "start", "x_max", "x_min"}
	for _, tt := range []struct {
		stdin   string
		fits    int
		topKeys []string
	}{
		{"x,y\n0,4\n0.25,2.9\n0.5,2.1\n0.75,1.6\n1,1.2\n", 1, []string{"differs_from_paper", "fits"}},
		{"", 2, []string{"differs_from_paper", "fits", "slowdown"}},
	} {
		var out, errb bytes.Buffer
		if code := run([]string{"-json"}, strings.NewReader(tt.stdin), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		dec := json.NewDecoder(&out)
		var obj map[string]json.RawMessage
		if err := dec.Decode(&obj); err != nil {
			t.Fatal(err)
		}
		if dec.More() {
			t.Fatal("more than one JSON value")
		}
		if got := sortedKeys(obj); !slices.Equal(got, tt.topKeys) {
			t.Errorf("top-level keys %v, want %v", got, tt.topKeys)
		}
		var fits []map[string]json.RawMessage
		if err := json.Unmarshal(obj["fits"], &fits); err != nil || len(fits) != tt.fits {
			t.Fatalf("fits %s: %v, want %d", obj["fits"], err, tt.fits)
		}
		for _, f := range fits {
			if got := sortedKeys(f); !slices.Equal(got, fitKeys) {
				t.Errorf("fit keys %v, want %v", got, fitKeys)
			}
			var c bool
			if err := json.Unmarshal(f["converged"], &c); err != nil {
				t.Errorf("converged %s: %v", f["converged"], err)
			}
			var v float64
			if err := json.Unmarshal(f["nrmse"], &v); err != nil || math.IsNaN(v) {
				t.Errorf("nrmse %s: %v", f["nrmse"], err)
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}

// TestRunBadInput: input that cannot be read or fitted exits 1 with a
// message naming the file and saying what is wrong.
func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tt := range []struct {
		name  string
		args  []string
		stdin string
		want  []string
	}{
		{"bad row", nil, "x,y\n0,1\n0.5,abc\n1,3\n", []string{"standard input: line 3", `field 2 "abc" is not a number`}},
		{"three distinct x", nil, "1,2\n1,3\n2,4\n3,5\n", []string{"standard input: the data have 3 distinct x value(s) in 4 row(s)", "needs at least 4 distinct x values"}},
		{"empty file", []string{"-in", write("empty.csv", "")}, "", []string{"empty.csv: no data rows (the file is empty"}},
		{"header only", []string{"-in", write("header.csv", "x,y\n")}, "", []string{"header.csv: no data rows"}},
		{"one row", []string{"-in", write("one.csv", "0.5,2\n")}, "", []string{"one.csv: the data have 1 distinct x value(s) in 1 row(s)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tt.args, strings.NewReader(tt.stdin), &out, &errb)
			if code != 1 || out.Len() != 0 {
				t.Errorf("exit %d, stdout %q; want 1 and nothing", code, out.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(errb.String(), w) {
					t.Errorf("stderr %q lacks %q", errb.String(), w)
				}
			}
		})
	}
}

// TestCLI follows the examples' command-line convention.
func TestCLI(t *testing.T) {
	file := clitest.EmptyFile(t)
	dir := filepath.Dir(file)
	cases := append(clitest.Standard(),
		clitest.Case{Name: "in missing", Args: []string{"-in", filepath.Join(dir, "missing.csv")}, Code: 2, Stderr: []string{"-in = ", "cannot be read"}},
		clitest.Case{Name: "in a directory", Args: []string{"-in", dir}, Code: 2, Stderr: []string{"-in = ", "must be a readable file"}},
		clitest.Case{Name: "plot onto a file", Args: []string{"-plot", filepath.Join(file, "x")}, Code: 2, Stderr: []string{"-plot = "}},
		clitest.Case{Name: "every problem at once", Args: []string{"-in", dir, "-plot", filepath.Join(file, "x")}, Code: 2, Stderr: []string{"-in = ", "-plot = "}},
	)
	clitest.Check(t, func(args []string, out, errb *bytes.Buffer) int { return run(args, nil, out, errb) }, cases)
}

func TestRunFileAndPlot(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	plots := filepath.Join(dir, "plots")
	if err := os.WriteFile(in, []byte("# residual capacity, seconds\n0,200\n0.2,130\n0.4,95\n0.6,75\n0.8,60\n1,52\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"-in", in, "-plot", plots}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	m := regexp.MustCompile(`NRMSE ([0-9.]+)%`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no NRMSE in output:\n%s", out.String())
	}
	if v, _ := strconv.ParseFloat(m[1], 64); v > 5 {
		t.Errorf("NRMSE %v%% on a smooth curve", v)
	}
	if strings.Contains(out.String(), "Differs from the paper") {
		t.Errorf("a user's data compared with the paper:\n%s", out.String())
	}
	b, err := os.ReadFile(filepath.Join(plots, plotFile))
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("plot is not a PNG: %v", err)
	}
	// The default's plot, both data sets.
	if code := run([]string{"-plot", plots, "-json"}, nil, &out, &errb); code != 0 {
		t.Fatalf("default -plot: exit %d: %s", code, errb.String())
	}
}

func TestReadPointsTable(t *testing.T) {
	for _, tt := range []struct {
		name    string
		in      string
		x, y    []float64
		errLine string // "" for success
	}{
		{"plain", "1,2\n3,4\n", []float64{1, 3}, []float64{2, 4}, ""},
		{"header", "web_cpu,norm_tct\n0.1,1.2\n", []float64{0.1}, []float64{1.2}, ""},
		{"spaces, CRLF, blank and comments", " 1 , 2 \r\n\r\n# note\n3,4", []float64{1, 3}, []float64{2, 4}, ""},
		{"exponents", "1e-3,2.5E+2\n", []float64{1e-3}, []float64{250}, ""},
		{"bad number", "1,2\n3,x\n", nil, nil, "line 2"},
		{"header only later", "1,2\nx,y\n", nil, nil, "line 2"},
		{"three fields", "1,2,3\n", nil, nil, "line 1"},
		{"one field header-like", "x\n1,2\n", nil, nil, "line 1"},
		{"NaN", "x,y\n1,NaN\n", nil, nil, "line 2"},
		{"Inf", "Inf,1\n", nil, nil, "line 1"},
		{"empty field", "1,\n", nil, nil, "line 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			x, y, err := readPoints(strings.NewReader(tt.in))
			if tt.errLine != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.errLine+":") {
					t.Fatalf("err = %v, want %s", err, tt.errLine)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equal(x, tt.x) || !equal(y, tt.y) {
				t.Errorf("got %v %v, want %v %v", x, y, tt.x, tt.y)
			}
		})
	}
	for _, in := range []string{"", "\n\n", "x,y\n", "# only a comment\n"} {
		if _, _, err := readPoints(strings.NewReader(in)); !errors.Is(err, errNoData) {
			t.Errorf("%q: err = %v, want errNoData", in, err)
		}
	}
	long := strings.Repeat("1", maxLine+10)
	if _, _, err := readPoints(strings.NewReader("1,2\n" + long + ",3\n")); err == nil || !strings.HasPrefix(err.Error(), "line 2:") {
		t.Errorf("overlong line: %v", err)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// FuzzReadPoints: any input either parses into equally long, non-empty,
// finite columns or fails with a line-numbered error or errNoData.
func FuzzReadPoints(f *testing.F) {
	for _, s := range []string{"x,y\n1,2\n3,4\n", "1,2\n3,abc\n", "", "NaN,1\n", " 1 , 2 \r\n# c\n"} {
		f.Add(s)
	}
	lineErr := regexp.MustCompile(`^line [0-9]+: `)
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 4096 {
			return
		}
		x, y, err := readPoints(strings.NewReader(in))
		if err != nil {
			if !errors.Is(err, errNoData) && !lineErr.MatchString(err.Error()) {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		if len(x) == 0 || len(x) != len(y) {
			t.Fatalf("columns %d and %d", len(x), len(y))
		}
		for i := range x {
			if math.IsNaN(x[i]) || math.IsInf(x[i], 0) || math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
				t.Fatalf("non-finite value at %d: %v %v", i, x[i], y[i])
			}
		}
		// Whatever parses, the fit accepts or rejects with ErrBadInput.
		if len(x) <= 64 {
			if _, _, err := tct.FitExp2(x, y, tct.FitOptions{}); err != nil && !errors.Is(err, tct.ErrBadInput) {
				t.Fatalf("fit error %v", err)
			}
		}
	})
}
