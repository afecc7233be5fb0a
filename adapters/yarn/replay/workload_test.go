package replay

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/adapters/yarn/trace"
	"github.com/schedkit/schedkit/tct/jct"
	"pgregory.net/rapid"
)

// TestAppsHandWorked: three jobs, the window keeping the last two; maps
// ⌈input / 100⌉ capped at 3; a task time of e^μ exactly (σ 0); deadline
// = submission + 2 × (AMStart 10 s + waves × task).
func TestAppsHandWorked(t *testing.T) {
	w := Workload{From: 100, Span: 100, Compress: 2, Split: 100, MaxMaps: 3, Task: jct.Lognormal{Mu: math.Log(5)},
		TaskScale: 2, AMStart: 10, Slots: 3, DeadlineFactor: 2, Seed: 1}
	jobs := []trace.SWIMJob{{ID: "a", Submit: 50, Input: 1}, {ID: "c", Submit: 160, Input: 250}, {ID: "b", Submit: 120, Input: 0}}
	apps, err := w.Apps(jobs)
	if err != nil {
		t.Fatal(err)
	}
	// b at 120 s: 1 map, task 10 s, 1 wave: deadline 0 + 2 × (10 + 10) = 40 s.
	// c at 160 s → (160 − 120)/2 = 20 s: 3 maps on 2 task slots = 2 waves:
	// deadline 20 + 2 × (10 + 2 × 10) = 80 s.
	want := []App{
		{Job: "b", At: 0, Maps: 1, Sleep: 10 * time.Second, Deadline: 40 * time.Second},
		{Job: "c", At: 20 * time.Second, Maps: 3, Sleep: 10 * time.Second, Deadline: 80 * time.Second},
	}
	if len(apps) != 2 || apps[0] != want[0] || apps[1] != want[1] {
		t.Fatalf("apps %+v, want %+v", apps, want)
	}
	cat, err := w.Catalog("swim", apps)
	if err != nil {
		t.Fatal(err)
	}
	ty := cat.Types[0]
	if ty.Name != "swim" || ty.Maps != 3 || math.Abs(ty.Map.MeanS-10) > 1e-9 || math.Abs(ty.Arrival.MedianS-10) > 1e-9 {
		t.Errorf("catalog type %+v", ty)
	}
}

// TestWorkloadBadInput: every field out of range is named.
func TestWorkloadBadInput(t *testing.T) {
	for _, c := range []struct {
		mod  func(*Workload)
		want string
	}{
		{func(w *Workload) { w.From = -1 }, "Workload.From = -1"},
		{func(w *Workload) { w.From = math.NaN() }, "Workload.From = NaN"},
		{func(w *Workload) { w.Span = 0 }, "Workload.Span = 0"},
		{func(w *Workload) { w.Compress = 0.5 }, "Workload.Compress = 0.5"},
		{func(w *Workload) { w.Split = 0 }, "Workload.Split = 0"},
		{func(w *Workload) { w.MaxMaps = 0 }, "Workload.MaxMaps = 0"},
		{func(w *Workload) { w.Task.Sigma = -1 }, "Workload.Task"},
		{func(w *Workload) { w.TaskScale = math.Inf(1) }, "Workload.TaskScale = +Inf"},
		{func(w *Workload) { w.AMStart = -2 }, "Workload.AMStart = -2"},
		{func(w *Workload) { w.Slots = 1 }, "Workload.Slots = 1"},
		{func(w *Workload) { w.DeadlineFactor = 0.9 }, "Workload.DeadlineFactor = 0.9"},
	} {
		w := DefaultWorkload()
		c.mod(&w)
		if _, err := w.Apps([]trace.SWIMJob{{ID: "j"}}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Apps: error %v, want one naming %q", err, c.want)
		}
		if _, err := w.Catalog("swim", []App{{Maps: 1}}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Catalog: error %v, want one naming %q", err, c.want)
		}
	}
	w := DefaultWorkload()
	if _, err := w.Apps([]trace.SWIMJob{{ID: "late", Submit: 1e6}}); err == nil || !strings.Contains(err.Error(), "no job submitted in [0, 1800)") {
		t.Errorf("empty window: %v", err)
	}
	if _, err := w.Catalog("swim", nil); err == nil {
		t.Error("Catalog of no apps: no error")
	}
	if _, err := w.Catalog("Bad Name", []App{{Maps: 1}}); err == nil {
		t.Error("Catalog with an upper-case model name: no error")
	}
}

// propApps: for any jobs and valid options, the apps are the window's
// jobs in submission order, submitted from 0 at the compressed gaps, each
// with 1 … MaxMaps maps, a task time in [1 ms, 1 h] and a deadline after
// its submission by at least DeadlineFactor × (AMStart + its task time);
// the same input gives the same apps.
func propApps(t *rapid.T) {
	w := Workload{From: rapid.Float64Range(0, 100).Draw(t, "from"), Span: rapid.Float64Range(1, 1000).Draw(t, "span"),
		Compress: rapid.Float64Range(1, 50).Draw(t, "compress"), Split: rapid.Int64Range(1, 1<<30).Draw(t, "split"),
		MaxMaps:   rapid.IntRange(1, 64).Draw(t, "maxMaps"),
		Task:      jct.Lognormal{Mu: rapid.Float64Range(-3, 5).Draw(t, "mu"), Sigma: rapid.Float64Range(0, 2).Draw(t, "sigma")},
		TaskScale: rapid.Float64Range(0.01, 10).Draw(t, "scale"), AMStart: rapid.Float64Range(0, 60).Draw(t, "am"),
		Slots: rapid.IntRange(2, 64).Draw(t, "slots"), DeadlineFactor: rapid.Float64Range(1, 5).Draw(t, "factor"),
		Seed: rapid.Uint64().Draw(t, "seed")}
	jobs := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) trace.SWIMJob {
		return trace.SWIMJob{ID: "j", Submit: rapid.Float64Range(0, 1200).Draw(t, "submit"), Input: rapid.Int64Range(0, math.MaxInt64).Draw(t, "input")}
	}), 0, 30).Draw(t, "jobs")
	apps, err := w.Apps(jobs)
	in := 0
	for _, j := range jobs {
		if j.Submit >= w.From && j.Submit < w.From+w.Span {
			in++
		}
	}
	if in == 0 {
		if err == nil {
			t.Fatal("no job in the window and no error")
		}
		return
	}
	if err != nil || len(apps) != in {
		t.Fatalf("%d apps for %d jobs in the window: %v", len(apps), in, err)
	}
	again, _ := w.Apps(jobs)
	for i, a := range apps {
		if again[i] != a {
			t.Fatalf("not deterministic: %+v, then %+v", a, again[i])
		}
		if i == 0 && a.At != 0 || i > 0 && a.At < apps[i-1].At {
			t.Fatalf("submission times out of order at %d: %+v", i, apps)
		}
		if a.Maps < 1 || a.Maps > w.MaxMaps || a.Sleep < time.Millisecond || a.Sleep > time.Hour {
			t.Fatalf("app %+v out of range", a)
		}
		floor := time.Duration(w.DeadlineFactor * (w.AMStart*float64(time.Second) + float64(a.Sleep)))
		if a.Deadline-a.At < floor-2*time.Millisecond {
			t.Fatalf("app %+v: relative deadline %v below %v", a, a.Deadline-a.At, floor)
		}
	}
}

func TestPropApps(t *testing.T) { rapid.Check(t, propApps) }
func FuzzApps(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propApps)) }

// TestSummarize: met, killed and missed partition the apps; the share of
// kept apps that missed leaves the killed out.
func TestSummarize(t *testing.T) {
	os := []Outcome{{Met: true, ContainerSeconds: 10}, {Killed: true, ContainerSeconds: 2}, {ContainerSeconds: 30}, {Met: true}}
	s := Summarize(os)
	if s != (Summary{Apps: 4, Met: 2, Missed: 1, Killed: 1, ContainerSeconds: 42}) || math.Abs(s.KeptMissedShare()-1.0/3) > 1e-12 {
		t.Errorf("%+v, share %v", s, s.KeptMissedShare())
	}
	if (Summary{Apps: 1, Killed: 1}).KeptMissedShare() != 0 {
		t.Error("no kept app: share not 0")
	}
}
