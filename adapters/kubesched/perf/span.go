package perf

import "sync"

// A Span is what one namespace's pods took in a run, timed from the pods
// themselves as the benchmark's own pod watch sees them: from the first
// pod created to the last pod bound. Its rate does not depend on when the
// harness looks: the harness's SchedulingDuration ends at the first of its
// once-a-second polls that finds every measured pod bound, so it is the
// pods' creation time plus a whole number of seconds, and a workload that
// takes about three seconds measures 3.2 s or 4.2 s for the same work.
type Span struct {
	// Created is the number of the namespace's pods seen created and
	// Bound the number seen bound to a node.
	Created int `json:"created"`
	Bound   int `json:"bound"`
	// First is when the first pod was seen created and Last when the last
	// was seen bound, in seconds from the run's start; Last is 0 while no
	// pod is bound.
	First float64 `json:"firstCreatedSeconds"`
	Last  float64 `json:"lastBoundSeconds"`
	// CPU is the benchmark process's CPU seconds from First to Last.
	CPU float64 `json:"cpuSeconds"`

	firstCPU, lastCPU float64
}

// Rate is the span's bound pods per second from First to Last; 0 when no
// pod was seen created or bound, or the span has no length.
func (s Span) Rate() float64 {
	if s.Created == 0 || s.Bound == 0 || !(s.Last > s.First) {
		return 0
	}
	return float64(s.Bound) / (s.Last - s.First)
}

// CPUPerPod is the span's process CPU milliseconds per bound pod; 0 when
// no pod was seen created or bound.
func (s Span) CPUPerPod() float64 {
	if s.Created == 0 || s.Bound == 0 {
		return 0
	}
	return 1000 * s.CPU / float64(s.Bound)
}

// spans collects the Span of every namespace from pod events, each given
// with the time (seconds from the run's start) and the process CPU seconds
// when it was seen. A pod bound without having been seen created (it was
// created before the watch began) counts as bound only. Safe for
// concurrent use.
type spans struct {
	mu sync.Mutex
	by map[string]*Span
}

func (s *spans) get(ns string) *Span {
	if s.by == nil {
		s.by = map[string]*Span{}
	}
	sp, ok := s.by[ns]
	if !ok {
		sp = &Span{}
		s.by[ns] = sp
	}
	return sp
}

// created notes a pod of namespace ns seen created at time at.
func (s *spans) created(ns string, at, cpu float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := s.get(ns)
	if sp.Created == 0 || at < sp.First {
		sp.First, sp.firstCPU = at, cpu
	}
	sp.Created++
}

// bound notes a pod of namespace ns seen bound at time at.
func (s *spans) bound(ns string, at, cpu float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sp := s.get(ns)
	sp.Bound++
	if at >= sp.Last {
		sp.Last, sp.lastCPU = at, cpu
	}
}

// all returns a copy of every namespace's Span; nil when no pod was seen.
func (s *spans) all() map[string]Span {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.by) == 0 {
		return nil
	}
	out := make(map[string]Span, len(s.by))
	for ns, sp := range s.by {
		v := *sp
		if v.Created > 0 && v.Bound > 0 {
			v.CPU = v.lastCPU - v.firstCPU
		}
		out[ns] = v
	}
	return out
}
