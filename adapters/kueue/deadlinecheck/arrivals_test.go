package deadlinecheck

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	kueue "sigs.k8s.io/kueue/apis/kueue/v1beta2"
)

// TestArrivalsByHand works the arrivals' effect by hand. A quota of 2
// slots; X holds one for 100 s more; B, waiting, wants both for 50 s. One
// record: an arrival of one slot running 200 s; one arrival per sample,
// at a rate of 10⁹ a second (it comes within a microsecond). Without
// arrivals B starts at 100. BestEffortFIFO: the arrival fits beside X at
// once and holds its slot until 200, so B starts at 200, whatever the
// arrival's priority. StrictFIFO: an arrival of B's priority waits behind
// B (100); one of higher priority goes ahead of B (200).
func TestArrivalsByHand(t *testing.T) {
	running := []etaJob{{share: 0.5, run: []float64{100}}}
	jobs := []etaJob{{share: 1, run: []float64{50}, priority: 5}}
	for _, tt := range []struct {
		name     string
		strict   bool
		priority int64 // the arrival's
		none     bool
		want     float64
	}{
		{"no arrivals", false, 5, true, 100},
		{"best effort, same priority", false, 5, false, 200},
		{"best effort, lower priority", false, 1, false, 200},
		{"strict, same priority", true, 5, false, 100},
		{"strict, lower priority", true, 1, false, 100},
		{"strict, higher priority", true, 9, false, 200},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var arr *etaArrivals
			if !tt.none {
				arr = &etaArrivals{rate: 1e9, shares: []float64{0.5}, priorities: []int64{tt.priority}, runs: []float64{200}, samples: 1, seed: 7, slots: 1}
			}
			starts := [][]float64{{-1}}
			newSimulation(jobs, arr, walkPace{}).run(running, jobs, arr, tt.strict, 0, starts)
			if math.Abs(starts[0][0]-tt.want) > 1e-6 {
				t.Errorf("B starts at %v, want %v", starts[0][0], tt.want)
			}
		})
	}
}

// propStrictTailArrivals: under StrictFIFO, arrivals of no higher
// priority than any waiting job sit behind all of them, so a queue of
// jobs that all wait now (none being deactivated, none entering later)
// starts exactly as without arrivals.
func propStrictTailArrivals(t *rapid.T) {
	samples := rapid.IntRange(1, 3).Draw(t, "samples")
	runs := func(label string) []float64 {
		r := make([]float64, samples)
		for s := range r {
			r[s] = float64(rapid.IntRange(0, 100).Draw(t, label))
		}
		return r
	}
	share := func(label string) float64 { return float64(rapid.IntRange(1, 4).Draw(t, label)) / 4 }
	running := make([]etaJob, rapid.IntRange(0, 3).Draw(t, "running"))
	for i := range running {
		running[i] = etaJob{share: share("r share"), run: runs("r run")}
	}
	jobs := make([]etaJob, rapid.IntRange(1, 20).Draw(t, "pending"))
	for k := range jobs {
		jobs[k] = etaJob{share: share("share"), run: runs("run"), priority: int64(rapid.IntRange(2, 4).Draw(t, "priority"))}
	}
	slices.SortStableFunc(jobs, func(a, b etaJob) int { return int(b.priority - a.priority) })
	lowest := jobs[len(jobs)-1].priority
	arr := &etaArrivals{rate: float64(rapid.IntRange(1, 100).Draw(t, "rate per 100 s")) / 100, samples: samples, seed: rapid.Uint64().Draw(t, "seed"),
		slots: rapid.IntRange(1, 30).Draw(t, "slots")}
	if rapid.Bool().Draw(t, "gaps?") {
		arr.gaps, arr.since = drawGaps(t)
	}
	for range rapid.IntRange(1, 4).Draw(t, "records") {
		arr.shares = append(arr.shares, share("a share"))
		arr.priorities = append(arr.priorities, int64(rapid.IntRange(0, int(lowest)).Draw(t, "a priority")))
		arr.runs = append(arr.runs, runs("a run")...)
	}
	with, without := make([][]float64, len(jobs)), make([][]float64, len(jobs))
	for k := range jobs {
		with[k], without[k] = make([]float64, samples), make([]float64, samples)
	}
	a, b := newSimulation(jobs, arr, walkPace{}), newSimulation(jobs, nil, walkPace{})
	for s := range samples {
		a.run(running, jobs, arr, true, s, with)
		b.run(running, jobs, nil, true, s, without)
	}
	for k := range jobs {
		if !slices.Equal(with[k], without[k]) {
			t.Fatalf("job %d starts at %v with arrivals behind it, %v without", k, with[k], without[k])
		}
	}
}

func TestPropStrictTailArrivals(t *testing.T) { rapid.Check(t, propStrictTailArrivals) }

// recordsAgo returns records created the given seconds before t0.
func recordsAgo(ages ...int) []arrivalRecord {
	var out []arrivalRecord
	for _, m := range marksAgo(ages...) {
		out = append(out, arrivalRecord{arrivalMark: arrivalMark{created: m}})
	}
	return out
}

// marksAgo returns the times the given seconds before t0.
func marksAgo(ages ...int) []time.Time {
	var out []time.Time
	for _, a := range ages {
		out = append(out, t0.Add(-time.Duration(a)*time.Second))
	}
	return out
}

// TestArrivalRate works λ = n / L by hand: L the longer of the records'
// span and the oldest waiting workload's age, at most the marks' span,
// at least a second; n the marks in it.
func TestArrivalRate(t *testing.T) {
	recs, marks := recordsAgo, marksAgo
	ten := recs(100, 90, 80, 70, 60, 50, 40, 30, 20, 10)
	burst := recs(9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
	for _, tt := range []struct {
		name   string
		recs   []arrivalRecord
		marks  []time.Time
		waited time.Duration
		want   float64
	}{
		{"too few", recs(9, 8, 7, 6, 5, 4, 3, 2, 1), nil, 0, 0},
		{"ten over 100 s", ten, nil, 0, 0.1},
		{"ten over 200 s, none for the last 100", recs(200, 190, 180, 170, 160, 150, 140, 130, 120, 110), nil, 0, 0.05},
		{"ten at once: a second at least", recs(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), nil, 0, 10},
		{"marks the records': the records' span", ten, marks(100, 90, 80, 70, 60, 50, 40, 30, 20, 10), 50 * time.Second, 0.1},
		// A burst of ten in 9 s after two arrivals 100 and 60 s ago: the
		// records alone say 10 / 9 s; a workload waiting 60 s counts the
		// 11 marks of the last 60 s over 60 s; one waiting 300 s all 12
		// marks, over their 100 s.
		{"a burst, nothing waits longer", burst, marks(100, 60, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), 5 * time.Second, 10.0 / 9},
		{"a burst, a workload waiting 60 s", burst, marks(100, 60, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), 60 * time.Second, 11.0 / 60},
		{"a burst, a workload waiting 300 s", burst, marks(100, 60, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), 300 * time.Second, 12.0 / 100},
	} {
		if got := arrivalRate(tt.recs, tt.marks, t0, tt.waited); got != tt.want {
			t.Errorf("%s: rate %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestArrivalLearner: a workload counts once, when it has samples and
// nothing run and is not deactivated, being deactivated or blocked; the
// window keeps the latest ArrivalWindow by creation
// (ties by UID), in order; a ClusterQueue's records go with it.
func TestArrivalLearner(t *testing.T) {
	l := newArrivalLearner()
	key := etaPassKey{queue: "cq", check: "deadline"}
	own := []float64{30}
	mk := func(uid string, age int) Workload {
		return Workload{Key: "ns/" + uid, UID: types.UID(uid), Phase: Waiting, Pods: 2, Slots: 4, Priority: 3, Created: t0.Add(-time.Duration(age) * time.Second)}
	}
	ws := []Workload{mk("a", 10), mk("b", 20), mk("ran", 5), mk("nosamples", 5), mk("ready", 30), mk("promised", 40),
		mk("rejecting", 5), mk("deactivated", 5), mk("blocked", 5)}
	ws[2].Executed = time.Second
	ws[5].Phase = Promised
	ws[7].Phase = Deactivated
	ws[8].Blocked = errors.New("owner unreadable")
	works := []*work{{own: own}, {own: own}, {own: own}, nil, {own: own}, {own: own}, {own: own}, {own: own}, {own: own}}
	outs := make([]Outcome, len(ws))
	outs[4].Verdict = &Verdict{State: kueue.CheckStateReady}
	outs[6].Deactivate = true
	l.observe(key, ws, works, outs)
	l.observe(key, ws, works, outs) // again: no second record
	got := l.input(key, 0, nil).recs
	var uids []types.UID
	for _, r := range got {
		uids = append(uids, r.uid)
	}
	if !slices.Equal(uids, []types.UID{"promised", "ready", "b", "a"}) || got[3].share != 0.5 || got[3].priority != 3 || &got[3].own[0] != &own[0] {
		t.Fatalf("records %v (%+v), want promised, ready, b, a; share 0.5, priority 3, their samples", uids, got)
	}

	// A window's worth more, newer: the two oldest drop out; an older
	// workload than the whole window is not taken.
	ws, works, outs = nil, nil, nil
	for i := range ArrivalWindow {
		ws = append(ws, mk(fmt.Sprintf("n%02d", i), 9-i%5))
		works = append(works, &work{own: own})
	}
	ws = append(ws, mk("old", 1000))
	works = append(works, &work{own: own})
	outs = make([]Outcome, len(ws))
	l.observe(key, ws, works, outs)
	got = l.input(key, 0, nil).recs
	if len(got) != ArrivalWindow {
		t.Fatalf("%d records, want %d", len(got), ArrivalWindow)
	}
	for i := 1; i < len(got); i++ {
		if got[i-1].compare(got[i].arrivalMark) >= 0 {
			t.Fatalf("records out of order at %d: %v then %v", i, got[i-1].uid, got[i].uid)
		}
	}
	if slices.ContainsFunc(got, func(r arrivalRecord) bool {
		return r.uid == "a" || r.uid == "b" || r.uid == "ready" || r.uid == "promised" || r.uid == "old"
	}) {
		t.Errorf("records %v keep an older arrival", got)
	}
	// The marks keep every arrival counted, the older ones too: the four
	// first, the window's and "old", ascending.
	marks := l.input(key, 0, nil).marks
	if len(marks) != 4+ArrivalWindow+1 || !marks[0].Equal(t0.Add(-1000*time.Second)) || !slices.IsSortedFunc(marks, time.Time.Compare) {
		t.Errorf("%d marks from %v, want %d ascending from %v", len(marks), marks[0], 4+ArrivalWindow+1, t0.Add(-1000*time.Second))
	}
	l.forget("cq")
	if in := l.input(key, 0, nil); len(in.recs)+len(in.marks) != 0 {
		t.Errorf("%d records, %d marks after the ClusterQueue is gone", len(in.recs), len(in.marks))
	}
}

// drawGaps draws 1–8 gaps between arrivals of 0–30 whole seconds (a
// burst's arrivals share their creation second), ascending, not all 0,
// and the seconds since the last arrival, 0–40.
func drawGaps(t *rapid.T) (gaps []float64, since float64) {
	sum := 0.0
	for range rapid.IntRange(1, 8).Draw(t, "gaps") {
		g := float64(rapid.IntRange(0, 30).Draw(t, "gap"))
		gaps = append(gaps, g)
		sum += g
	}
	if sum == 0 {
		gaps[0] = 1
	}
	slices.Sort(gaps)
	return gaps, float64(rapid.IntRange(0, 40).Draw(t, "since"))
}

// TestArrivalGaps works the look-back's gaps by hand (the cases of
// TestArrivalRate): n gaps summing to L, the piece before the first
// arrival joined to the piece after the last, ascending; and the time
// since the last arrival.
func TestArrivalGaps(t *testing.T) {
	recs, marks := recordsAgo, marksAgo
	burst := recs(9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
	for _, tt := range []struct {
		name   string
		recs   []arrivalRecord
		marks  []time.Time
		waited time.Duration
		want   []float64
		since  float64
	}{
		{"too few", recs(9, 8, 7, 6, 5, 4, 3, 2, 1), nil, 0, nil, 0},
		// L = 100 s; the arrivals at 0, 10, …, 90 s into it: 100 − 90 + 0
		// joined, then 10 apart; the last 10 s ago.
		{"ten over 100 s", recs(100, 90, 80, 70, 60, 50, 40, 30, 20, 10), nil, 0, []float64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10}, 10},
		// L = 1 s (the least), all ten arriving at its end: the joined
		// piece is the second before them, the others 0.
		{"ten at once", recs(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), nil, 0, []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 0},
		// L = 60 s: the marks 60 s ago (its start) and 9…0 s ago; the
		// joined piece 0 + 0, then 51 and nine of 1.
		{"a burst, a workload waiting 60 s", burst, marks(100, 60, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), 60 * time.Second, []float64{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 51}, 0},
		// L = 9 s (the records' span): the burst alone.
		{"a burst, nothing waits longer", burst, marks(100, 60, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), 5 * time.Second, []float64{0, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 0},
	} {
		gaps, since := arrivalGaps(nil, tt.recs, tt.marks, t0, tt.waited)
		if !slices.Equal(gaps, tt.want) || since != tt.since {
			t.Errorf("%s: gaps %v, since %v; want %v, %v", tt.name, gaps, since, tt.want, tt.since)
		}
		sum := 0.0
		for _, g := range gaps {
			sum += g
		}
		if rate := arrivalRate(tt.recs, tt.marks, t0, tt.waited); len(gaps) > 0 && math.Abs(sum/float64(len(gaps))-1/rate) > 1e-9 {
			t.Errorf("%s: mean gap %v, want 1/λ = %v", tt.name, sum/float64(len(gaps)), 1/rate)
		}
	}
}

// TestArrivalDraws: the first arrival is the rest of a gap longer than
// the time since the last arrival, one of those uniformly; the next gaps
// are the look-back's own. Gaps 0, nine of 1 and 51 (a burst, then a
// lull): right after an arrival (since 0) the first comes 1 s on with
// probability 9/10 and 51 s on with 1/10; half a second after, 0.5 or
// 50.5 s on; 52 s after, when no gap is that long, exponentially at
// rate λ.
func TestArrivalDraws(t *testing.T) {
	gaps := []float64{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 51}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct {
		since       float64
		short, long float64
	}{{0, 1, 51}, {0.5, 0.5, 50.5}} {
		a := &etaArrivals{rate: 11.0 / 60, gaps: gaps, since: tt.since}
		short := 0
		for range 10000 {
			switch f := a.first(rng); f {
			case tt.short:
				short++
			case tt.long:
			default:
				t.Fatalf("since %v: first arrival %v s away, want %v or %v", tt.since, f, tt.short, tt.long)
			}
			if g := a.next(rng); !slices.Contains(gaps, g) {
				t.Fatalf("gap %v, not one of %v", g, gaps)
			}
		}
		if p := float64(short) / 10000; math.Abs(p-0.9) > 0.02 {
			t.Errorf("since %v: the burst's next arrival first in %v of draws, want about 0.9", tt.since, p)
		}
	}
	lull := &etaArrivals{rate: 11.0 / 60, gaps: gaps, since: 52}
	if f := lull.first(rand.New(rand.NewPCG(1, 2))); f != rand.New(rand.NewPCG(1, 2)).ExpFloat64()/(11.0/60) {
		t.Errorf("52 s after the last arrival the first %v is not exponential's draw", f)
	}
	exp := &etaArrivals{rate: 11.0 / 60}
	if f := exp.first(rand.New(rand.NewPCG(1, 2))); f != rand.New(rand.NewPCG(1, 2)).ExpFloat64()/(11.0/60) {
		t.Errorf("without gaps the first arrival %v is not exponential's draw", f)
	}
}
