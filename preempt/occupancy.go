package preempt

import (
	"fmt"
	"math"
)

// An OccupancyWindow keeps the occupancy samples of the last Window seconds
// for starvation condition (2) of GP §V: "the cluster is busy, for example,
// > t% time of a period (e.g. 3 minutes) more than p% slots are occupied".
// The caller feeds one sample per heartbeat or preemption check with Add; a
// sample is busy when occupied > p·total. BusyFraction is the fraction of the
// samples in the window that are busy — a count of samples, so feed them at a
// regular period for it to be a fraction of time.
//
// The window at time T holds the samples with time in (T − Window, T], T the
// time of the latest sample. Build one with NewOccupancyWindow; the zero
// value is not usable. It grows to the number of samples in one window and
// then allocates nothing; it holds at most MaxWindowSamples samples (9 bytes
// each). Use it through a pointer; a copy shares storage.
type OccupancyWindow struct {
	window float64 // seconds
	p      float64 // busy slot fraction
	times  []float64
	busy   []bool
	head   int // first sample still in the window
	nBusy  int // busy samples in times[head:]
}

// MaxWindowSamples bounds the samples one window holds (2²⁰: a sample every
// 0.1 s over a 24-hour window fits); Add refuses a sample that would exceed
// it. A full window holds at most 23 MiB (9 bytes a sample, and room for as
// many again before it compacts); filling one allocates 45 MiB in all.
const MaxWindowSamples = 1 << 20

// NewOccupancyWindow returns an empty window of the given length in seconds
// (> 0, finite; DefaultWindow is 3 minutes) where a sample is busy when more
// than p of the slots are occupied (p ∈ [0, 1]; DefaultBusySlots is 0.9).
func NewOccupancyWindow(window, p float64) (*OccupancyWindow, error) {
	if !(window > 0) || math.IsInf(window, 1) {
		return nil, bad("window", window, "must be finite and > 0")
	}
	if !(p >= 0 && p <= 1) {
		return nil, bad("p", p, "must be in [0, 1]")
	}
	return &OccupancyWindow{window: window, p: p}, nil
}

// Add records that at time t (seconds, finite, not before the previous
// sample) occupied of total slots were in use (0 ≤ occupied ≤ total) and
// drops the samples that left the window. On error the window is unchanged.
// A total of 0 gives a sample that is not busy. A sample that would leave
// more than MaxWindowSamples samples in the window is refused (field "t").
func (w *OccupancyWindow) Add(t float64, occupied, total int) error {
	if w == nil || !(w.window > 0) {
		return bad("OccupancyWindow", 0, "must come from NewOccupancyWindow")
	}
	if !(math.Abs(t) <= MaxTime) {
		return bad("t", t, "must be in [-MaxTime, MaxTime]")
	}
	if n := len(w.times); n > 0 && t < w.times[n-1] {
		return bad("t", t, "must not be before the previous sample")
	}
	if total < 0 {
		return bad("total", total, "must be ≥ 0")
	}
	if occupied < 0 || occupied > total {
		return bad("occupied", occupied, "must be in [0, total]")
	}
	if w.Len() >= MaxWindowSamples && t-w.times[w.head] < w.window {
		return bad("t", t, fmt.Sprintf("the window would hold more than MaxWindowSamples = %d samples: sample less often or shorten the window", MaxWindowSamples))
	}
	b := float64(occupied) > w.p*float64(total)
	w.times = append(w.times, t)
	w.busy = append(w.busy, b)
	if b {
		w.nBusy++
	}
	// t − time < window rather than time > t − window: with a tiny window
	// t − window rounds to t, and the latest sample would leave at once.
	for w.head < len(w.times) && !(t-w.times[w.head] < w.window) {
		if w.busy[w.head] {
			w.nBusy--
		}
		w.head++
	}
	if w.head > 0 && w.head >= len(w.times)/2 {
		n := copy(w.times, w.times[w.head:])
		copy(w.busy, w.busy[w.head:])
		w.times, w.busy = w.times[:n], w.busy[:n]
		w.head = 0
	}
	return nil
}

// Len returns the number of samples in the window.
func (w *OccupancyWindow) Len() int {
	if w == nil {
		return 0
	}
	return len(w.times) - w.head
}

// BusyFraction returns the fraction of the window's samples that are busy,
// in [0, 1]; 0 for an empty window.
func (w *OccupancyWindow) BusyFraction() float64 {
	n := w.Len()
	if n == 0 {
		return 0
	}
	return float64(w.nBusy) / float64(n)
}

// Busy is starvation condition (2): BusyFraction() > t, t ∈ [0, 1]
// (DefaultBusyTime is 0.8). An empty window is never busy; a NaN t gives
// false.
func (w *OccupancyWindow) Busy(t float64) bool {
	return w.Len() > 0 && w.BusyFraction() > t
}
