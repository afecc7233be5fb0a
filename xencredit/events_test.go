package xencredit

import (
	"slices"
	"testing"
)

// Two VCPUs of equal weight on one PCPU; every number worked by hand.
func TestBoostPreemptsAndBurn(t *testing.T) {
	s := mustNew(t, DefaultConfig(1),
		Domain{Weight: 256, PCPUs: []int{0}}, // A = VCPU 0, CPU-bound
		Domain{Weight: 256, PCPUs: []int{0}}) // B = VCPU 1, interactive

	log := run(t, &s, ev{evWake, 0, 0})
	want := []Change{{BoostStart, 0, 0, Boost}, {Dispatch, 0, 0, Boost}}
	if !slices.Equal(log, want) {
		t.Fatalf("wake A: %v, want %v", log, want)
	}
	if pc := mustPCPU(t, &s, 0); pc.SliceEnd != ms(30) {
		t.Fatalf("slice end %v, want 30ms", pc.SliceEnd)
	}
	// Tick at 10 ms: boost ends, 10 ms = 100 credits burned, A activated.
	log = run(t, &s, ev{evTick, ms(10), 0})
	if a := mustVCPU(t, &s, 0); a.Credit != -100 || a.Priority != Under || !a.Active || s.TotalWeight() != 256 {
		t.Fatalf("after tick: %+v W=%d", a, s.TotalWeight())
	}
	if !slices.Equal(log, []Change{{BoostEnd, 0, 0, Under}}) {
		t.Fatalf("tick log %v", log)
	}
	// B wakes at 15 ms: BOOST > UNDER, A has run 15 ms > 1 ms ratelimit.
	log = run(t, &s, ev{evWake, ms(15), 1})
	want = []Change{{BoostStart, 1, 0, Boost}, {Preempt, 0, 0, Under}, {Dispatch, 1, 0, Boost}}
	if !slices.Equal(log, want) {
		t.Fatalf("wake B: %v, want %v", log, want)
	}
	if a := mustVCPU(t, &s, 0); a.Credit != -150 {
		t.Fatalf("A credit %d, want -150 (5 ms more burned at the switch)", a.Credit)
	}
	// B blocks after 2 ms: 20 credits, A runs again.
	run(t, &s, ev{evBlock, ms(17), 1}, ev{evTick, ms(20), 0})
	if b := mustVCPU(t, &s, 1); b.Credit != -20 || b.Priority != Boost || b.Active {
		t.Fatalf("B: %+v (still BOOST: no tick found it running)", b)
	}
	if a := mustVCPU(t, &s, 0); a.Credit != -180 {
		t.Fatalf("A credit %d, want -180", a.Credit)
	}
	// Accounting at 30 ms: only A is active, W = 256, C = 300, A gets 300.
	log = run(t, &s, ev{evAccount, ms(30), 0})
	a, b := mustVCPU(t, &s, 0), mustVCPU(t, &s, 1)
	if a.Credit != 120 || a.Priority != Under {
		t.Fatalf("A after accounting: %+v, want credit 120 UNDER", a)
	}
	if b.Credit != -20 || b.Priority != Boost {
		t.Fatalf("inactive B must not be credited or re-prioritised: %+v", b)
	}
	if len(log) != 0 {
		t.Fatalf("accounting log %v, want none", log)
	}
	// Running time: A 0–15 and 17–30, B 15–17, idle never.
	if a.Times[Running] != ms(28) || b.Times[Running] != ms(2) || b.Times[Blocked] != ms(28) || a.Times[Runnable] != ms(2) {
		t.Fatalf("times A %v B %v", a.Times, b.Times)
	}
}

// The ratelimit keeps a VCPU that has run less than 1 ms (Xen 4.2: for a
// full ratelimit; master: for the rest of it).
func TestRatelimit(t *testing.T) {
	for _, tt := range []struct {
		name      string
		remainder bool
		wantEnd   float64
	}{{"xen42", false, 1.4}, {"master", true, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig(1)
			cfg.RatelimitRemainder = tt.remainder
			s := mustNew(t, cfg, Domain{Weight: 256, PCPUs: []int{0}}, Domain{Weight: 256, PCPUs: []int{0}})
			run(t, &s, ev{evWake, 0, 0}, ev{evTick, ms(0.2), 0}) // A UNDER, running
			log := run(t, &s, ev{evWake, ms(0.4), 1})            // B BOOST
			if !slices.Equal(log, []Change{{BoostStart, 1, 0, Boost}, {Keep, 0, 0, Under}}) {
				t.Fatalf("log %v", log)
			}
			if pc := mustPCPU(t, &s, 0); pc.SliceEnd != ms(tt.wantEnd) || pc.Running != 0 {
				t.Fatalf("pcpu %+v, want A kept to %v ms", pc, tt.wantEnd)
			}
			log = run(t, &s, ev{evSchedule, ms(tt.wantEnd), 0})
			if !slices.Equal(log, []Change{{Preempt, 0, 0, Under}, {Dispatch, 1, 0, Boost}}) {
				t.Fatalf("at slice end: %v", log)
			}
		})
	}
}

// MI: a waking foreground VCPU preempts a background VCPU at once, whatever
// its credit and even within the ratelimit, unless RatelimitDelaysBackground.
func TestBackgroundPreempted(t *testing.T) {
	for _, delay := range []bool{false, true} {
		cfg := DefaultConfig(1)
		cfg.RatelimitDelaysBackground = delay
		s := mustNew(t, cfg, Domain{Weight: 0, Background: true, PCPUs: []int{0}}, Domain{Weight: 256, PCPUs: []int{0}})
		log := run(t, &s, ev{evWake, 0, 0})
		if !slices.Equal(log, []Change{{Dispatch, 0, 0, Background}}) {
			t.Fatalf("background must not boost: %v", log)
		}
		log = run(t, &s, ev{evWake, ms(0.5), 1})
		want := []Change{{BoostStart, 1, 0, Boost}, {Preempt, 0, 0, Background}, {Dispatch, 1, 0, Boost}}
		if delay {
			want = []Change{{BoostStart, 1, 0, Boost}, {Keep, 0, 0, Background}}
		}
		if !slices.Equal(log, want) {
			t.Fatalf("delay=%v: %v, want %v", delay, log, want)
		}
	}
	// An OVER foreground VCPU also preempts it (stock credit would not:
	// OVER is never boosted and equal priority never preempts).
	s := mustNew(t, DefaultConfig(1), Domain{Background: true, PCPUs: []int{0}}, Domain{Weight: 256, PCPUs: []int{0}})
	run(t, &s, ev{evWake, 0, 1}, ev{evTick, ms(10), 0}, ev{evTick, ms(20), 0}, ev{evBlock, ms(25), 1}, ev{evWake, ms(26), 0})
	s.vcpus[1].credit = -301 // make the next accounting put it OVER
	run(t, &s, ev{evAccount, ms(30), 0})
	if f := mustVCPU(t, &s, 1); f.Priority != Over {
		t.Fatalf("foreground %+v, want OVER", f)
	}
	log := run(t, &s, ev{evWake, ms(35), 1})
	if !slices.Equal(log, []Change{{Preempt, 0, 0, Background}, {Dispatch, 1, 0, Over}}) {
		t.Fatalf("OVER waker: %v", log)
	}
}

// Only UNDER VCPUs are boosted; OVER and parked ones are not.
func TestBoostOnlyUnder(t *testing.T) {
	s := mustNew(t, DefaultConfig(1), Domain{Weight: 256, PCPUs: []int{0, 0}})
	s.vcpus[1].pri = Over
	log := run(t, &s, ev{evWake, 0, 0}, ev{evWake, ms(1), 1})
	if hasChange(log, Change{BoostStart, 1, 0, Boost}) || mustPCPU(t, &s, 0).Queued != 1 {
		t.Fatalf("OVER waker boosted or ran: %v", log)
	}
}

func TestScheduleContinuesAlone(t *testing.T) {
	s := mustNew(t, DefaultConfig(1), Domain{Weight: 256, PCPUs: []int{0}})
	run(t, &s, ev{evWake, 0, 0})
	log := run(t, &s, ev{evSchedule, ms(30), 0})
	if len(log) != 0 || mustPCPU(t, &s, 0).SliceEnd != ms(60) {
		t.Fatalf("alone VCPU must keep running with a new slice: %v %+v", log, mustPCPU(t, &s, 0))
	}
	// Idle PCPU with nothing queued: Schedule is a no-op.
	run(t, &s, ev{evBlock, ms(40), 0})
	if log := run(t, &s, ev{evSchedule, ms(50), 0}); len(log) != 0 {
		t.Fatalf("idle schedule: %v", log)
	}
	if pc := mustPCPU(t, &s, 0); pc.Idle != ms(10) || pc.Running != -1 || pc.SliceEnd != Never {
		t.Fatalf("idle pcpu %+v", pc)
	}
}

// Runq sort at the first tick of a new epoch moves UNDERs ahead of OVERs,
// keeping order within each part.
func TestRunqSort(t *testing.T) {
	s := mustNew(t, DefaultConfig(1), Domain{Weight: 256, PCPUs: []int{0, 0, 0, 0}})
	for v := range 4 {
		s.vcpus[v].pri = Over
	}
	run(t, &s, ev{evWake, 0, 0}, ev{evWake, 0, 1}, ev{evWake, 0, 2}, ev{evWake, 0, 3})
	s.vcpus[3].pri, s.vcpus[2].pri = Under, Under
	s.epoch++
	run(t, &s, ev{evTick, ms(10), 0})
	q, _ := s.RunQueue(0, nil)
	if !slices.Equal(q, []int{2, 3, 1}) {
		t.Fatalf("sorted runq %v, want [2 3 1]", q)
	}
}
