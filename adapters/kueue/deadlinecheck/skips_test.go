package deadlinecheck

import (
	"testing"
	"time"
)

// TestSkipsByHand works Kueue's walk by hand, skip cost c = 2 s, requeue
// batch B = 0 or 1 s. A and E hold half the quota each, A for 10 s more, E
// for 50 s. In queue order: B wants all of it for 20 s, C half for 5 s, D
// half for 5 s from 13 s on, F half for 1 s from 30 s on.
//
// BestEffortFIFO, B = 0. At 10 A ends: the walk begins, tries B (does not
// fit), then C fits: quota at 10 + 2·1 = 12, to 17. At 13 D enters,
// nothing is free. At 17 C ends, a walk: B tried, D at 17 + 2 = 19, to 24.
// At 24 D ends, a walk finds nothing. At 30 F enters: no walk begins, but
// B is still ahead, set aside since 24: F at max(30, 24 + 2) = 30, to 31.
// At 50 E ends: B first, at 50. Without the cost: C at 10, to 15, and D
// at 15.
//
// BestEffortFIFO, B = 1 s: each walk begins a second after the quota
// frees. C at 11 + 2 = 13, to 18; D at 19 + 2 = 21, to 26; F at max(30,
// 27 + 2) = 30; B at 51. Without the skip cost: C at 11, to 16; D at 17;
// F at 30; B at 51.
//
// StrictFIFO: B blocks the others, so nothing is ever tried and skipped:
// B at 50, C and D at 70 when B ends, F at 75; the skip cost changes
// nothing. With B = 1 s: B at 51, to 71; C and D at 72, to 77; F at 78.
func TestSkipsByHand(t *testing.T) {
	running := []etaJob{{share: 0.5, run: []float64{10}}, {share: 0.5, run: []float64{50}}}
	jobs := []etaJob{
		{share: 1, run: []float64{20}},
		{share: 0.5, run: []float64{5}},
		{share: 0.5, run: []float64{5}, notBefore: 13},
		{share: 0.5, run: []float64{1}, notBefore: 30},
	}
	for _, tt := range []struct {
		strict bool
		pace   walkPace
		want   []float64
	}{
		{false, walkPace{skip: 2}, []float64{50, 12, 19, 30}},
		{false, walkPace{}, []float64{50, 10, 15, 30}},
		{false, walkPace{skip: 2, requeue: 1}, []float64{51, 13, 21, 30}},
		{false, walkPace{requeue: 1}, []float64{51, 11, 17, 30}},
		{true, walkPace{skip: 2}, []float64{50, 70, 70, 75}},
		{true, walkPace{}, []float64{50, 70, 70, 75}},
		{true, walkPace{skip: 2, requeue: 1}, []float64{51, 72, 72, 78}},
		{true, walkPace{requeue: 1}, []float64{51, 72, 72, 78}},
	} {
		for _, scan := range []bool{false, true} {
			starts := [][]float64{{0}, {0}, {0}, {0}}
			if scan {
				newScanSimulation(jobs, nil, tt.pace).run(running, tt.strict, 0, starts)
			} else {
				newSimulation(jobs, nil, tt.pace).run(running, jobs, nil, tt.strict, 0, starts)
			}
			for k, w := range tt.want {
				if starts[k][0] != w {
					t.Errorf("strict %v, pace %+v, walk over every job %v: job %d gets quota at %v, want %v", tt.strict, tt.pace, scan, k, starts[k][0], w)
				}
			}
		}
	}
}

// TestStatusWritesSkip checks the skip cost by hand: none before
// MinStatusWrites writes, then the median of the latest StatusWriteWindow.
func TestStatusWritesSkip(t *testing.T) {
	var w statusWrites
	for i := range MinStatusWrites - 1 {
		w.record(time.Duration(i+1) * 100 * time.Millisecond)
	}
	if got := w.skip(); got != 0 {
		t.Errorf("%d writes: skip %v, want 0", MinStatusWrites-1, got)
	}
	// 100, 200, …, 1000 ms: the median is between 500 and 600.
	w.record(time.Second)
	if got := w.skip(); got != 0.55 {
		t.Errorf("10 writes of 0.1–1 s: skip %v, want 0.55", got)
	}
	// 50 more of 3 s push every earlier one out of the window.
	for range StatusWriteWindow {
		w.record(3 * time.Second)
	}
	if got := w.skip(); got != 3 {
		t.Errorf("a window of 3 s writes: skip %v, want 3", got)
	}
}

// TestPresence checks the Fenwick count against a plain count.
func TestPresence(t *testing.T) {
	in := []int32{1, 0, 1, 1, 0, 1, 0, 0, 1}
	var pr presence
	pr.init(len(in))
	for p, c := range in {
		if c == 1 {
			pr.leaf(p)
		}
	}
	pr.build()
	pr.add(4, 1)
	pr.add(0, -1)
	in[4]++
	in[0]--
	var want int32
	for p := range len(in) + 1 {
		if got := pr.below(p); got != want {
			t.Errorf("below(%d) = %d, want %d", p, got, want)
		}
		if p < len(in) {
			want += in[p]
		}
	}
}

// TestStatusWritesChanged checks when a new skip cost is logged: the
// first nonzero one, then one a quarter or more from the last logged.
func TestStatusWritesChanged(t *testing.T) {
	var w statusWrites
	for _, tt := range []struct {
		skip float64
		want bool
	}{{0, false}, {0.4, true}, {0.45, false}, {0.31, false}, {0.3, true}, {0.3, false}, {0, true}, {0, false}} {
		if got := w.changed(tt.skip); got != tt.want {
			t.Errorf("changed(%v) after %v: %v, want %v", tt.skip, w.told, got, tt.want)
		}
	}
}
