package xencredit

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// A VCPU that wakes on a busy PCPU tickles an idle PCPU of its affinity,
// which steals it (42's __runq_tickle and csched_load_balance).
func TestWakeTicklesIdler(t *testing.T) {
	s := mustNew(t, DefaultConfig(2), Domain{Weight: 256, PCPUs: []int{0, 0}, Affinity: []int{0, 1}})
	run(t, &s, ev{evWake, 0, 0})
	// VCPU 1 wakes on PCPU 0 while VCPU 0 runs there BOOSTed: equal
	// priority does not preempt, PCPU 1 is idle and steals it.
	log := run(t, &s, ev{evWake, ms(1), 1})
	want := []Change{{BoostStart, 1, 0, Boost}, {Dispatch, 1, 1, Boost}}
	if !slices.Equal(log, want) {
		t.Fatalf("log %v, want %v", log, want)
	}
	if x := mustVCPU(t, &s, 1); x.PCPU != 1 || x.State != Running || x.Times[Runnable] != 0 {
		t.Fatalf("VCPU 1 %+v, want running on PCPU 1 without waiting", x)
	}
	// Pinned, the same VCPU waits on PCPU 0 while PCPU 1 idles.
	s = mustNew(t, DefaultConfig(2), Domain{Weight: 256, PCPUs: []int{0, 0}})
	run(t, &s, ev{evWake, 0, 0})
	if log := run(t, &s, ev{evWake, ms(1), 1}); !slices.Equal(log, []Change{{BoostStart, 1, 0, Boost}}) {
		t.Fatalf("pinned: %v", log)
	}
}

// When the waker preempts, the idler tickled with it steals the preempted
// VCPU instead: the local PCPU reschedules first.
func TestIdlerStealsPreempted(t *testing.T) {
	s := mustNew(t, DefaultConfig(2),
		Domain{Weight: 256, PCPUs: []int{0}, Affinity: []int{0, 1}}, // VCPU 0, CPU-bound
		Domain{Weight: 256, PCPUs: []int{0}, Affinity: []int{0, 1}}) // VCPU 1
	run(t, &s, ev{evWake, 0, 0}, ev{evTick, ms(10), 0}) // VCPU 0 UNDER, running on 0
	log := run(t, &s, ev{evWake, ms(12), 1})
	want := []Change{{BoostStart, 1, 0, Boost}, {Preempt, 0, 0, Under}, {Dispatch, 1, 0, Boost}, {Dispatch, 0, 1, Under}}
	if !slices.Equal(log, want) {
		t.Fatalf("log %v, want %v", log, want)
	}
}

// A busy PCPU steals only when its best VCPU is OVER, BACKGROUND or idle,
// and only a VCPU of strictly higher priority queued on a busy peer. With
// every PCPU running an UNDER VCPU nothing moves: the placement is frozen.
func TestStealOnlyBelowUnder(t *testing.T) {
	cfg := DefaultConfig(2)
	cfg.Ratelimit = 0
	s := mustNew(t, cfg,
		Domain{Weight: 256, PCPUs: []int{0, 0}, Affinity: []int{0, 1}}, // VCPUs 0, 1: interactive
		Domain{Weight: 1, PCPUs: []int{0, 1}, Affinity: []int{0, 1}})   // VCPUs 2, 3: batch
	run(t, &s, ev{evWake, 0, 2}, ev{evWake, 0, 3}, ev{evTick, ms(10), 0}, ev{evTick, ms(10), 1})
	// Both PCPUs run an UNDER batch VCPU. VCPU 0 wakes on PCPU 0, BOOST
	// preempts; VCPU 1 wakes there too and waits behind its sibling.
	run(t, &s, ev{evWake, ms(11), 0})
	log := run(t, &s, ev{evWake, ms(12), 1})
	if !slices.Equal(log, []Change{{BoostStart, 1, 0, Boost}}) {
		t.Fatalf("sibling wake: %v", log)
	}
	// PCPU 1's slice ends: its queue holds nothing; VCPU 3 is UNDER, so
	// it does not look for work elsewhere and keeps running.
	if log := run(t, &s, ev{evSchedule, ms(30), 1}); len(log) != 0 {
		t.Fatalf("PCPU 1 slice end: %v", log)
	}
	if q, _ := s.RunQueue(0, nil); !slices.Equal(q, []int{1, 2}) {
		t.Fatalf("PCPU 0 queue %v, want [1 2]", q)
	}
	// Once VCPU 3 is OVER, PCPU 1 steals VCPU 1 at its next slice end.
	s.vcpus[3].pri = Over
	log = run(t, &s, ev{evSchedule, ms(60), 1})
	want := []Change{{Preempt, 3, 1, Over}, {Dispatch, 1, 1, Boost}}
	if !slices.Equal(log, want) {
		t.Fatalf("OVER head: %v, want %v", log, want)
	}
	if x := mustVCPU(t, &s, 1); x.PCPU != 1 || x.Times[Runnable] != ms(48) {
		t.Fatalf("VCPU 1 %+v, want on PCPU 1 after 48 ms queued", x)
	}
}

// MI's background class is below OVER, so a PCPU running a background VCPU
// looks for work on its peers at every schedule.
func TestBackgroundHeadSteals(t *testing.T) {
	s := mustNew(t, DefaultConfig(2),
		Domain{Weight: 256, PCPUs: []int{0, 0}, Affinity: []int{0, 1}},
		Domain{Background: true, PCPUs: []int{0, 1}, Affinity: []int{0, 1}})
	run(t, &s, ev{evWake, 0, 2}, ev{evWake, 0, 3}, ev{evWake, ms(5), 0}, ev{evWake, ms(6), 1})
	// VCPU 0 preempted background VCPU 2 on PCPU 0; VCPU 1 waits there
	// behind its BOOSTed sibling. PCPU 1's slice end moves it over.
	log := run(t, &s, ev{evSchedule, ms(30), 1})
	want := []Change{{Preempt, 3, 1, Background}, {Dispatch, 1, 1, Boost}}
	if !slices.Equal(log, want) {
		t.Fatalf("log %v, want %v", log, want)
	}
}

func TestNewBadAffinity(t *testing.T) {
	for _, tt := range []struct {
		name  string
		d     Domain
		field string
	}{
		{"pcpu outside affinity", Domain{Weight: 1, PCPUs: []int{0, 1}, Affinity: []int{1}}, "Domains[0].PCPUs[0]"},
		{"affinity out of range", Domain{Weight: 1, PCPUs: []int{0}, Affinity: []int{0, 2}}, "Domains[0].Affinity[1]"},
		{"negative affinity", Domain{Weight: 1, PCPUs: []int{0}, Affinity: []int{-1, 0}}, "Domains[0].Affinity[0]"},
		{"duplicate", Domain{Weight: 1, PCPUs: []int{0}, Affinity: []int{0, 0}}, "Domains[0].Affinity[1]"},
		{"too long", Domain{Weight: 1, PCPUs: []int{0}, Affinity: []int{0, 1, 0}}, "Domains[0].Affinity"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(DefaultConfig(2), []Domain{tt.d})
			if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("err %v, want one naming %s", err, tt.field)
			}
		})
	}
}
