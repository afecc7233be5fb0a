package replay

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPlots writes the outcome and ETA plots of two repetitions at two
// loads and checks that each is a PNG of the canvas's size.
func TestPlots(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
	waited := Outcome{Sub: Submission{Run: 10 * time.Second}, Created: t0, Deadline: t0.Add(30 * time.Second),
		Admitted: t0.Add(5 * time.Second), Finished: t0.Add(16 * time.Second),
		ETA: &ETA{Seen: t0, StartP50: t0.Add(4 * time.Second), StartP90: t0.Add(6 * time.Second),
			FinishP50: t0.Add(14 * time.Second), FinishP90: t0.Add(18 * time.Second)}}
	var rs []Result
	for rep := 1; rep <= 2; rep++ {
		for _, l := range []string{"own", "2×"} {
			for i, c := range Configs {
				rs = append(rs, Result{Config: c, Rep: rep, Load: l, Jobs: 10, Met: 5 + i + rep, Missed: 3 - i, Rejected: 2 - rep + 1,
					Outcomes: []Outcome{waited}})
			}
		}
	}
	dir := t.TempDir()
	if err := Plots(dir, rs); err != nil {
		t.Fatal(err)
	}
	for name, width := range map[string]int{"outcomes.png": 15 * 96, "eta-check.png": 7 * 96, "eta-schedkit.png": 7 * 96} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != width {
			t.Errorf("%s: %+v, %v; want a PNG %d pixels wide", name, cfg, err, width)
		}
	}
}
