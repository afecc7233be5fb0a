package main

import (
	"bufio"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedkit/schedkit/edf"
)

// The decisions the replay times.
const (
	kindMP = iota
	kindAdmission
	kindGP
	numKinds
)

var kindNames = [numKinds]string{"MP", "admission", "GP"}

// latencies collects the wall-clock duration of each decision of one kind.
type latencies struct{ ns []int64 }

func (l *latencies) add(d time.Duration) { l.ns = append(l.ns, d.Nanoseconds()) }

// A Latency summarises one kind of decision.
type Latency struct {
	Decision string  `json:"decision"`
	Count    int     `json:"count"`
	PerSec   float64 `json:"decisions_per_second"` // count / time spent deciding
	MeanNs   float64 `json:"mean_ns"`
	P50Ns    int64   `json:"p50_ns"`
	P99Ns    int64   `json:"p99_ns"`
	MaxNs    int64   `json:"max_ns"`
}

// summary sorts the durations and reads the percentiles (nearest rank).
func (l *latencies) summary(name string) Latency {
	s := Latency{Decision: name, Count: len(l.ns)}
	if len(l.ns) == 0 {
		return s
	}
	slices.Sort(l.ns)
	total := int64(0)
	for _, v := range l.ns {
		total += v
	}
	rank := func(p float64) int64 { return l.ns[min(len(l.ns)-1, int(p*float64(len(l.ns))))] }
	s.MeanNs = float64(total) / float64(len(l.ns))
	s.P50Ns, s.P99Ns, s.MaxNs = rank(0.5), rank(0.99), l.ns[len(l.ns)-1]
	if total > 0 {
		s.PerSec = float64(len(l.ns)) / (float64(total) / 1e9)
	}
	return s
}

// memPeak tracks the Go heap's peak, sampled.
type memPeak struct{ heap, sys uint64 }

func (m *memPeak) sample() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.heap = max(m.heap, ms.HeapAlloc)
	m.sys = max(m.sys, ms.Sys)
}

// peakRSS returns the process's peak resident set (VmHWM) in bytes, or 0
// where /proc does not say.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// Result is one replay's outcome.
type Result struct {
	Trace     string `json:"trace"`
	Source    string `json:"source"`
	Note      string `json:"mapping"`
	Units     int    `json:"jobs"`
	Tasks     int    `json:"tasks"`
	Slots     int    `json:"slots"`
	Admission string `json:"admission"`
	// Simulated and wall-clock seconds, events processed.
	SimSeconds  float64 `json:"simulated_s"`
	WallSeconds float64 `json:"wall_s"`
	Events      int     `json:"events"`
	// The queue: most jobs queued and most tasks not yet started at once.
	PeakQueue   int `json:"peak_queued_jobs"`
	PeakPending int `json:"peak_pending_tasks"`
	// What the decisions did.
	Admitted   int                `json:"admitted"`
	Rejected   int                `json:"rejected"`
	TaskStarts int                `json:"task_starts"`
	TaskEnds   int                `json:"task_ends"`
	Killed     int                `json:"killed"`
	Finished   int                `json:"finished_jobs"`
	Met        int                `json:"met"`
	Missed     int                `json:"missed"`
	Reasons    [5]int             `json:"-"`
	MPReasons  map[string]int     `json:"mp_reasons"`
	Latency    [numKinds]Latency  `json:"latency"`
	Memory     map[string]float64 `json:"memory_mb"`
	// The sorted decision durations (ns), for the plots.
	samples [numKinds][]int64
}

// finish summarises the latencies and the memory.
func (res *Result) finish(r *replay) {
	for k := range numKinds {
		res.Latency[k] = r.lat[k].summary(kindNames[k])
		res.samples[k] = r.lat[k].ns
	}
	res.MPReasons = map[string]int{}
	for reason, n := range res.Reasons {
		if n > 0 {
			res.MPReasons[edf.Reason(reason).String()] = n
		}
	}
	res.Memory = map[string]float64{
		"peak_go_heap": float64(r.mem.heap) / (1 << 20),
		"peak_go_sys":  float64(r.mem.sys) / (1 << 20),
		"peak_rss":     float64(peakRSS()) / (1 << 20),
	}
}
