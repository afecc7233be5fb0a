package replay

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Three jobs on a 100-processor machine replayed on 10 CPUs, compressed
// 10×: worked by hand.
func TestBuildHandWorked(t *testing.T) {
	jobs := []TraceJob{
		{ID: "1", Submit: 1000, Run: 300, Procs: 8, Requested: 900},  // 1 pod (⌈0.8⌉), 30 s, deadline 90 s
		{ID: "2", Submit: 1100, Run: 5, Procs: 100},                  // 10 pods, 0.5 s → 2 s, no estimate: a MIMP factor × 2 s
		{ID: "3", Submit: 1200, Run: 600, Procs: 25, Requested: 600}, // 3 pods, 60 s, deadline 60 s
		{ID: "4", Submit: 5000, Run: 60, Procs: 1, Requested: 60},    // outside the window
	}
	w := Workload{From: 1000, Span: 1000, Compress: 10, CPUs: 10, TraceProcs: 100, MinRun: 2 * time.Second}
	p, err := w.Build(jobs)
	if err != nil {
		t.Fatal(err)
	}
	want := []Submission{
		{Name: "j00000", At: 0, Run: 30 * time.Second, Deadline: 90 * time.Second, Pods: 1, TraceID: "1"},
		{Name: "j00001", At: 10 * time.Second, Run: 2 * time.Second, Pods: 10, TraceID: "2"},
		{Name: "j00002", At: 20 * time.Second, Run: 60 * time.Second, Deadline: 60 * time.Second, Pods: 3, TraceID: "3"},
	}
	if len(p.Subs) != len(want) {
		t.Fatalf("%d submissions, want %d: %+v", len(p.Subs), len(want), p.Subs)
	}
	// Job 2's deadline is one of MIMP's factors × its 2 s.
	for _, m := range mimpTypes {
		if p.Subs[1].Deadline == seconds(2*m.Factor) {
			want[1].Deadline = p.Subs[1].Deadline
		}
	}
	for i := range want {
		if p.Subs[i] != want[i] {
			t.Errorf("submission %d = %+v, want %+v", i, p.Subs[i], want[i])
		}
	}
	// Work 30 + 20 + 180 = 230 pod-s over 10 CPUs × a span of 20 s × 3/2.
	if p.NoEstimate != 1 || math.Abs(p.OwnLoad-230.0/300) > 1e-12 || p.Load != p.OwnLoad {
		t.Errorf("NoEstimate %d, OwnLoad %g, Load %g; want 1, %g, the same", p.NoEstimate, p.OwnLoad, p.Load, 230.0/300)
	}
	// At load 2× the gaps shrink by OwnLoad / 2; MaxRun 40 s leaves job 3 out.
	w.Load, w.MaxRun = 2, 40*time.Second
	p, err = w.Build(jobs)
	if err != nil {
		t.Fatal(err)
	}
	// Work 50 pod-s: span = 50 / (10 · 2) = 2.5 s = gap × 2, gap 1.25 s.
	if p.LeftOut != 1 || len(p.Subs) != 2 || p.Subs[1].At != 1250*time.Millisecond || p.Load != 2 {
		t.Errorf("load 2, MaxRun 40s: %+v", p)
	}
}

// TestWindow: a span gives the window's end; span 0 runs to the trace's
// end (it printed "[0, 0) s").
func TestWindow(t *testing.T) {
	for _, c := range []struct {
		from, span float64
		want       string
	}{
		{8726400, 259200, "[8726400, 8985600) s"},
		{0, 7200, "[0, 7200) s"},
		{0, 0, "[0 s, end of trace)"},
		{600, 0, "[600 s, end of trace)"},
	} {
		if got := (Workload{From: c.from, Span: c.span}).Window(); got != c.want {
			t.Errorf("Window() of From %g, Span %g = %q, want %q", c.from, c.span, got, c.want)
		}
	}
}

func TestBuildBad(t *testing.T) {
	good := Workload{Compress: 10, CPUs: 10, TraceProcs: 100, MinRun: time.Second}
	jobs := []TraceJob{{ID: "1", Run: 10, Procs: 1}}
	for _, c := range []struct {
		mod  func(*Workload)
		want string
	}{
		{func(w *Workload) { w.From = -1 }, "Workload.From = -1"},
		{func(w *Workload) { w.Span = math.Inf(1) }, "Workload.Span = +Inf"},
		{func(w *Workload) { w.Compress = 0.5 }, "Workload.Compress = 0.5"},
		{func(w *Workload) { w.Load = math.NaN() }, "Workload.Load = NaN"},
		{func(w *Workload) { w.CPUs = 0 }, "Workload.CPUs = 0"},
		{func(w *Workload) { w.TraceProcs = -3 }, "Workload.TraceProcs = -3"},
		{func(w *Workload) { w.MinRun = time.Millisecond }, "Workload.MinRun = 1ms"},
		{func(w *Workload) { w.MaxRun = time.Millisecond * 500 }, "Workload.MaxRun = 500ms"},
		{func(w *Workload) { w.MaxJobs = -1 }, "Workload.MaxJobs = -1"},
		{func(w *Workload) { w.From = 100 }, "no job of the trace"},
	} {
		w := good
		c.mod(&w)
		if _, err := w.Build(jobs); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", w, err, c.want)
		}
	}
}

// propBuild: the submissions are in order from time 0, each of 1 to CPUs
// pods running at least MinRun with a deadline no earlier than its run
// time; every job of the window is submitted or left out; the offered
// load is the one asked for; the same input builds the same plan.
func propBuild(t *rapid.T) {
	n := rapid.IntRange(1, 40).Draw(t, "n")
	jobs := make([]TraceJob, n)
	for i := range jobs {
		jobs[i] = TraceJob{ID: strconv.Itoa(i), Submit: rapid.Float64Range(0, 1e5).Draw(t, "submit"),
			Run: rapid.Float64Range(0.001, 1e5).Draw(t, "run"), Procs: rapid.IntRange(1, 200).Draw(t, "procs"),
			Requested: rapid.Float64Range(0, 2e5).Draw(t, "req")}
	}
	w := Workload{Compress: rapid.Float64Range(1, 1000).Draw(t, "compress"), CPUs: rapid.IntRange(1, 64).Draw(t, "cpus"),
		TraceProcs: 100, MinRun: time.Second, Load: rapid.SampledFrom([]float64{0, 0.5, 1, 2}).Draw(t, "load"),
		Seed: rapid.Uint64().Draw(t, "seed")}
	p, err := w.Build(jobs)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Subs)+p.LeftOut != n {
		t.Fatalf("%d submitted + %d left out, want %d", len(p.Subs), p.LeftOut, n)
	}
	var work float64
	for i, s := range p.Subs {
		if s.Pods < 1 || s.Pods > w.CPUs || s.Run < w.MinRun-time.Millisecond || s.Deadline < s.Run-time.Millisecond ||
			i == 0 && s.At != 0 || i > 0 && s.At < p.Subs[i-1].At {
			t.Fatalf("submission %d: %+v", i, s)
		}
		work += float64(s.Pods) * s.Run.Seconds()
	}
	if w.Load > 0 && len(p.Subs) > 1 {
		last := p.Subs[len(p.Subs)-1].At.Seconds()
		span := last * float64(len(p.Subs)) / float64(len(p.Subs)-1)
		if span > 1 && math.Abs(work/(float64(w.CPUs)*span)/w.Load-1) > 0.01 {
			t.Fatalf("offered load %g, want %g", work/(float64(w.CPUs)*span), w.Load)
		}
	}
	q, _ := w.Build(jobs)
	for i := range q.Subs {
		if q.Subs[i] != p.Subs[i] {
			t.Fatalf("a second build differs at %d", i)
		}
	}
}

func TestPropBuild(t *testing.T) { rapid.Check(t, propBuild) }
func FuzzBuild(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propBuild)) }
