package main

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// The MI set-up under the other ratelimit setting, reported beside MI.
const (
	// MIExempt is MI with background VCPUs exempt from the ratelimit
	// (MIMP §4.2: a waking regular VM "will always be able to preempt a
	// background VM").
	MIExempt = "mi-exempt"
	// MIRatelimited is MI with the ratelimit delaying a waking regular VCPU
	// behind a background VCPU that has run less than 1 ms (the MIMP
	// prototype's Xen 4.2.1 code).
	MIRatelimited = "mi-ratelimited"
)

// otherMI names the MI run under the opposite of sc's
// RatelimitDelaysBackground.
func otherMI(sc Scenario) string {
	if sc.RatelimitDelaysBackground {
		return MIExempt
	}
	return MIRatelimited
}

// A Point is one load of a sweep: Clients closed-loop clients, or an
// open-loop Rate of requests per second when Clients is 0.
type Point struct {
	Clients int
	Rate    float64
}

func (p Point) String() string {
	if p.Clients > 0 {
		return fmt.Sprintf("%d clients", p.Clients)
	}
	return fmt.Sprintf("%v/s", p.Rate)
}

// setUps is the order of the runs at each point: alone, credit, MI under
// sc's ratelimit setting, MI under the other.
func setUps(sc Scenario) []string { return []string{Alone, Credit, MI, otherMI(sc)} }

// Sweep runs every set-up at every point, point by point in the order of
// setUps. The runs are independent and deterministic, so they run on
// GOMAXPROCS goroutines without changing the results; done (if not nil) is
// called after each run, from one goroutine at a time.
func Sweep(sc Scenario, points []Point, seed uint64, done func()) ([]Result, error) {
	names := setUps(sc)
	runs := make([]Result, len(points)*len(names))
	errs := make([]error, len(runs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := range runs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			pt, name := points[i/len(names)], names[i%len(names)]
			s, sched := sc, name
			s.Clients = pt.Clients
			if name == otherMI(sc) {
				s.RatelimitDelaysBackground = !sc.RatelimitDelaysBackground
				sched = MI
			}
			res, err := Simulate(s, sched, pt.Rate, seed)
			if err != nil {
				err = fmt.Errorf("%s at %v: %w", name, pt, err)
			}
			res.Scheduler = name
			runs[i], errs[i] = res, err
			if done != nil {
				mu.Lock()
				done()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return runs, nil
}
