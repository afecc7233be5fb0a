package replay

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeResults writes rs as -json does and returns the file's path.
func writeResults(t *testing.T, dir, name string, rs []Result) string {
	t.Helper()
	b, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Two replays of two repetitions each pool into repetitions 1–4, each
// configuration still paired with the stock run of its own replay.
func TestReadResultsPools(t *testing.T) {
	dir := t.TempDir()
	run := func(stockMet, skMet int) []Result {
		var rs []Result
		for rep := 1; rep <= 2; rep++ {
			st, sk := make([]string, 10), make([]string, 10)
			for i := range 10 {
				st[i], sk[i] = "missed", "rejected"
				if i < stockMet+rep {
					st[i] = "met"
				}
				if i < skMet+rep {
					sk[i] = "met"
				}
			}
			rs = append(rs, Result{Config: Stock, Rep: rep, Load: "2×", Outcomes: outcomes(st...)},
				Result{Config: Schedkit, Rep: rep, Load: "2×", Outcomes: outcomes(sk...)})
		}
		return rs
	}
	a := writeResults(t, dir, "a.json", run(5, 7)) // +2, +2
	b := writeResults(t, dir, "b.json", run(6, 5)) // −1, −1
	rs, err := ReadResults([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	var reps []int
	for _, r := range rs {
		reps = append(reps, r.Rep)
	}
	if want := []int{1, 1, 2, 2, 3, 3, 4, 4}; !slices.Equal(reps, want) {
		t.Fatalf("pooled reps %v, want %v", reps, want)
	}
	ms := Margins(Compare(rs))
	if len(ms) != 1 || !slices.Equal(ms[0].Reps, []int{2, 2, -1, -1}) {
		t.Fatalf("margins %+v, want +2 +2 −1 −1", ms)
	}
}

func TestReadResultsBad(t *testing.T) {
	dir := t.TempDir()
	good := writeResults(t, dir, "good.json", []Result{{Config: Stock, Rep: 1, Load: "2×"}})
	for _, c := range []struct {
		name, body, want string
	}{
		{"missing.json", "", "no such file"},
		{"garbage.json", "{not json", "garbage.json: invalid character"},
		{"empty.json", "[]", "empty.json: no results"},
		{"rep0.json", `[{"config":"stock","rep":0,"load":"2×"}]`, "rep0.json: rep 0: want 1 to 1000000"},
		{"huge.json", `[{"config":"stock","rep":1000001,"load":"2×"}]`, "huge.json: rep 1000001: want 1 to 1000000"},
		{"config.json", `[{"config":"fast","rep":1,"load":"2×"}]`, `config.json: rep 1: configuration "fast"`},
		{"load.json", `[{"config":"stock","rep":1}]`, `load.json: rep 1: configuration "stock", load ""`},
		{"good.json", "", "good.json: given twice"},
	} {
		p := filepath.Join(dir, c.name)
		if c.body != "" {
			if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := ReadResults([]string{good, p})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// ReadResults refuses what it cannot pool, naming the file, and pools
// what it accepts into repetitions numbered from 1 on, never panicking.
func FuzzReadResults(f *testing.F) {
	f.Add([]byte(`[{"config":"stock","rep":1,"load":"2×"},{"config":"schedkit","rep":2,"load":"2×"}]`))
	f.Add([]byte(`[{"config":"stock","rep":-3,"load":"2×"}]`))
	f.Add([]byte(`[{"config":"check","rep":9223372036854775807,"load":"1×","outcomes":[{}]}]`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p, q := filepath.Join(dir, "r.json"), filepath.Join(dir, "s.json")
		for _, f := range []string{p, q} {
			if err := os.WriteFile(f, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		rs, err := ReadResults([]string{p, q})
		if err != nil {
			if !strings.Contains(err.Error(), "r.json") && !strings.Contains(err.Error(), "s.json") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, r := range rs {
			if r.Rep < 1 || r.Load == "" {
				t.Fatalf("pooled %+v", r)
			}
		}
		Margins(Compare(rs))
	})
}
