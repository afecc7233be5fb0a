package deadlinecheck

import (
	"errors"
	"fmt"
	"math"
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

// TestArrivalRate works λ = n / L by hand: L the longer of the records'
// span and the oldest waiting workload's age, at most the marks' span,
// at least a second; n the marks in it.
func TestArrivalRate(t *testing.T) {
	ago := func(a int) time.Time { return t0.Add(-time.Duration(a) * time.Second) }
	recs := func(ages ...int) []arrivalRecord {
		var out []arrivalRecord
		for _, a := range ages {
			out = append(out, arrivalRecord{arrivalMark: arrivalMark{created: ago(a)}})
		}
		return out
	}
	marks := func(ages ...int) []time.Time {
		var out []time.Time
		for _, a := range ages {
			out = append(out, ago(a))
		}
		return out
	}
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
