package xencredit

import (
	"math/rand/v2"
	"testing"
	"time"
)

// Measured figures. The package doc states the contracts (O-costs, what
// allocates, the bounds); the figures below are what was measured, with
// the machine and the command, and are re-measured rather than edited.
//
// Measured with go test -run '^$' -bench . -benchtime 300x -cpu 1
// ./xencredit on 2 cores shared with other jobs (AMD EPYC, load average
// 9–15, so timings are inflated and noisy; each figure is the range of 3–6
// runs): a replay of 10 000 events on a 2-PCPU host with 4 VMs of 2 VCPUs
// (ticks, accounting, slice ends, bursty wakes) costs 53–171 ns per event
// with pinned VCPUs (BenchmarkEvent) and 77–293 ns with every VM's
// Affinity both PCPUs (BenchmarkEventAffinity), 0 allocs (pinned by
// TestEventsDoNotAllocate for both); one Account on that host 90–137 ns,
// 0 allocs. The examples/xen driver's hour of simulated time on 2 PCPUs
// with 4 VMs (2 interactive with 600 closed-loop clients each, 2 batch;
// 4.8 million events) takes 3.0–4.3 s of CPU under that load
// (go test -run '^$' -bench Hour -cpu 1 ./examples/xen), about 70% of it
// the driver's event heap (1 200 pending client think times) and about 5%
// this package.
//
// At MaxRunQueues New takes 54 ms and 37 MiB (2 shared cores, load average
// 12); one Account with 4,096 woken VCPUs 5 µs (BenchmarkLimits).

// hostDomains is the benchmark host: 2 PCPUs, 4 VMs of 2 VCPUs each (two
// interactive, one batch at minimum weight, one background), each VCPU
// pinned, or with every VM's affinity both PCPUs.
func hostDomains(affinity bool) []Domain {
	d := []Domain{
		{Weight: 256, PCPUs: []int{0, 1}},
		{Weight: 256, PCPUs: []int{0, 1}},
		{Weight: 1, PCPUs: []int{0, 1}},
		{Background: true, PCPUs: []int{0, 1}},
	}
	if affinity {
		for i := range d {
			d[i].Affinity = []int{0, 1}
		}
	}
	return d
}

// trace drives a State for n events with the caller's timers (ticks every
// 10 ms per PCPU, accounting every 30 ms, schedules at slice ends) and
// bursty wakes and blocks of the interactive VCPUs, and returns the events
// so they can be replayed exactly.
func trace(tb testing.TB, n int, affinity bool) (State, []ev) {
	cfg := DefaultConfig(2)
	cfg.GuardPeriod, cfg.GuardExec = time.Second, 10*time.Millisecond
	cfg.ActivateAtHead = affinity
	s := mustNew(tb, cfg, hostDomains(affinity)...)
	start := s.Clone()
	rng := rand.New(rand.NewPCG(1, 2))
	evs := make([]ev, 0, n)
	var log []Change
	do := func(e ev) {
		var err error
		if log, err = apply(&s, e, log[:0]); err != nil {
			tb.Fatal(err)
		}
		evs = append(evs, e)
	}
	for v := 4; v < 8; v++ {
		do(ev{evWake, 0, v}) // batch and background VCPUs never block
	}
	tick := [2]time.Duration{10 * time.Millisecond, 15 * time.Millisecond}
	acct := 30 * time.Millisecond
	next := time.Duration(rng.ExpFloat64() * float64(5*time.Millisecond))
	for len(evs) < n {
		p0, _ := s.PCPU(0)
		p1, _ := s.PCPU(1)
		now := min(tick[0], tick[1], acct, next, p0.SliceEnd, p1.SliceEnd)
		switch now {
		case tick[0], tick[1]:
			p := 0
			if now == tick[1] {
				p = 1
			}
			do(ev{evTick, now, p})
			tick[p] += 10 * time.Millisecond
		case acct:
			do(ev{evAccount, now, 0})
			acct += 30 * time.Millisecond
		case next:
			v := rng.IntN(4) // an interactive VCPU flips between busy and idle
			if x, _ := s.VCPU(v); x.Blocked {
				do(ev{evWake, now, v})
			} else {
				do(ev{evBlock, now, v})
			}
			next = now + time.Duration(rng.ExpFloat64()*float64(5*time.Millisecond))
		case p0.SliceEnd:
			do(ev{evSchedule, now, 0})
		default:
			do(ev{evSchedule, now, 1})
		}
	}
	return start, evs
}

// restore copies src into dst, which must have the same shape, without
// allocating.
func restore(dst, src *State) {
	doms, vcpus, pcpus, act := dst.doms, dst.vcpus, dst.pcpus, dst.activeDoms
	*dst = *src
	dst.doms, dst.vcpus, dst.pcpus, dst.activeDoms = doms[:copy(doms, src.doms)], vcpus[:copy(vcpus, src.vcpus)], pcpus, act[:len(src.activeDoms)]
	// dst's domains now share src's affinity sets, which no event changes.
	copy(dst.activeDoms, src.activeDoms)
	for p := range pcpus {
		q := pcpus[p].runq
		pcpus[p] = src.pcpus[p]
		pcpus[p].runq = q[:copy(q[:len(src.pcpus[p].runq)], src.pcpus[p].runq)]
	}
}

func replay(tb testing.TB, s *State, evs []ev, log []Change) {
	for _, e := range evs {
		var err error
		if log, err = apply(s, e, log[:0]); err != nil {
			tb.Fatal(err)
		}
	}
}

// No event allocates once the State exists and the log has capacity.
func TestEventsDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts differ under -race")
	}
	for _, affinity := range []bool{false, true} {
		start, evs := trace(t, 5000, affinity)
		s := start.Clone()
		log := make([]Change, 0, 64)
		if n := testing.AllocsPerRun(20, func() {
			restore(&s, &start)
			replay(t, &s, evs, log)
		}); n != 0 {
			t.Fatalf("affinity=%v: %v allocations per %d events, want 0", affinity, n, len(evs))
		}
		// The replay is the same run: same final state as a fresh one.
		fresh := start.Clone()
		replay(t, &fresh, evs, log)
		if !equalStates(&s, &fresh) {
			t.Fatalf("affinity=%v: replay after restore differs from a fresh replay", affinity)
		}
		checkInvariants(t, &s)
	}
}

func BenchmarkEvent(b *testing.B) { benchmarkEvent(b, false) }

// BenchmarkEventAffinity is BenchmarkEvent with every VM free to run on
// both PCPUs (Domain.Affinity) and Xen's active-list order: wakes tickle
// idle PCPUs and OVER-, BACKGROUND- or idle-headed PCPUs steal.
func BenchmarkEventAffinity(b *testing.B) { benchmarkEvent(b, true) }

func benchmarkEvent(b *testing.B, affinity bool) {
	start, evs := trace(b, 10000, affinity)
	s := start.Clone()
	log := make([]Change, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		restore(&s, &start)
		replay(b, &s, evs, log)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(evs)), "ns/event")
}

func BenchmarkAccount(b *testing.B) {
	start, evs := trace(b, 2000, false)
	s := start.Clone()
	replay(b, &s, evs, nil)
	mid := s.Clone()
	log := make([]Change, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		restore(&s, &mid)
		log, _ = s.Account(s.Now()+time.Millisecond, log[:0])
	}
}

// BenchmarkLimits times New at MaxRunQueues (MaxVCPUs floating over 1,024
// PCPUs of MaxPCPUs) and one Account of a host with MaxVCPUs active VCPUs.
func BenchmarkLimits(b *testing.B) {
	cfg := DefaultConfig(MaxPCPUs)
	doms := floatingDomains()
	b.Run("New/MaxRunQueues", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := New(cfg, doms); err != nil {
				b.Fatal(err)
			}
		}
	})
	s, _ := New(cfg, doms)
	var log []Change
	for v := range MaxVCPUs {
		log, _ = s.Wake(0, v, log[:0])
	}
	now := time.Duration(0)
	b.Run("Account/MaxVCPUs", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			now += cfg.Timeslice
			log, _ = s.Account(now, log[:0])
		}
	})
}
