package xencredit

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
)

// genSetup draws a small host: 1–3 PCPUs, 1–4 domains (some capped, some
// background, some with an affinity of several PCPUs) with 1–3 VCPUs each,
// and any option combination.
func genSetup(t *rapid.T) (Config, []Domain) {
	cfg := DefaultConfig(rapid.IntRange(1, 3).Draw(t, "pcpus"))
	cfg.Ratelimit = rapid.SampledFrom([]time.Duration{0, time.Millisecond, 5 * time.Millisecond}).Draw(t, "ratelimit")
	cfg.RatelimitRemainder = rapid.Bool().Draw(t, "remainder")
	cfg.RatelimitDelaysBackground = rapid.Bool().Draw(t, "rlBackground")
	cfg.ActivateAtHead = rapid.Bool().Draw(t, "atHead")
	if rapid.Bool().Draw(t, "guard") {
		cfg.GuardPeriod = ms(float64(rapid.IntRange(10, 200).Draw(t, "p_ms")))
		cfg.GuardExec = ms(float64(rapid.IntRange(1, 10).Draw(t, "e_ms")))
		cfg.GuardRaiseToUnder = rapid.Bool().Draw(t, "toUnder")
	}
	nd := rapid.IntRange(1, 4).Draw(t, "domains")
	doms := make([]Domain, nd)
	for i := range doms {
		d := &doms[i]
		d.Background = rapid.IntRange(0, 2).Draw(t, "bg") == 0
		d.Weight = rapid.SampledFrom([]int{1, 2, 128, 256, 512, 65535}).Draw(t, "weight")
		if !d.Background && rapid.IntRange(0, 3).Draw(t, "capped") == 0 {
			d.Cap = rapid.IntRange(1, 100*cfg.PCPUs).Draw(t, "cap")
		}
		d.PCPUs = rapid.SliceOfN(rapid.IntRange(0, cfg.PCPUs-1), 1, 3).Draw(t, "vcpus")
		if cfg.PCPUs > 1 && rapid.IntRange(0, 2).Draw(t, "migrates") == 0 {
			// An affinity of its PCPUs plus any others.
			for p := range cfg.PCPUs {
				if slices.Contains(d.PCPUs, p) || rapid.Bool().Draw(t, "inAffinity") {
					d.Affinity = append(d.Affinity, p)
				}
			}
		}
	}
	return cfg, doms
}

// machine is the model side of the rapid state machine.
type machine struct {
	s      State
	log    []Change
	gStart []time.Duration // guard period start per VCPU (model's own)
	gRan   []time.Duration // running time at gStart
}

// step draws the next event's time: mostly a few ms on, rarely a leap to
// just before MaxTime (a host up for 146 years), never beyond it.
func (m *machine) step(t *rapid.T) time.Duration {
	dt := rapid.SampledFrom([]time.Duration{0, 50 * time.Microsecond, 700 * time.Microsecond, 3 * time.Millisecond, 10 * time.Millisecond, 31 * time.Millisecond}).Draw(t, "dt")
	if rapid.IntRange(0, 49).Draw(t, "leap") == 0 {
		return max(m.s.Now(), MaxTime-time.Second)
	}
	return min(m.s.Now()+dt, MaxTime)
}

func (m *machine) vcpu(t *rapid.T, v int) VCPU {
	x, err := m.s.VCPU(v)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestPropMachine(t *testing.T) { rapid.Check(t, propMachine) }
func FuzzMachine(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propMachine)) }

func propMachine(t *rapid.T) {
	cfg, doms := genSetup(t)
	s, err := New(cfg, doms)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	m := &machine{s: s, gStart: make([]time.Duration, s.NumVCPUs()), gRan: make([]time.Duration, s.NumVCPUs())}
	nv, np := s.NumVCPUs(), s.NumPCPUs()
	t.Repeat(map[string]func(*rapid.T){
		"wake": func(t *rapid.T) {
			v := rapid.IntRange(0, nv-1).Draw(t, "v")
			before := m.vcpu(t, v)
			var err error
			m.log, err = m.s.Wake(m.step(t), v, m.log[:0])
			if before.Blocked != (err == nil) {
				t.Fatalf("wake of %+v: err %v", before, err)
			}
			boosted := hasChange(m.log, Change{BoostStart, v, before.PCPU, Boost})
			if err == nil && boosted != (before.Priority == Under && !before.Parked) {
				t.Fatalf("VCPU %d was %v parked=%v; boosted=%v", v, before.Priority, before.Parked, boosted)
			}
		},
		"block": func(t *rapid.T) {
			v := rapid.IntRange(0, nv-1).Draw(t, "v")
			before := m.vcpu(t, v)
			var err error
			m.log, err = m.s.Block(m.step(t), v, m.log[:0])
			if before.Blocked != (err != nil) {
				t.Fatalf("block of %+v: err %v", before, err)
			}
		},
		"tick": func(t *rapid.T) {
			var err error
			if m.log, err = m.s.Tick(m.step(t), rapid.IntRange(0, np-1).Draw(t, "p"), m.log[:0]); err != nil {
				t.Fatal(err)
			}
		},
		"sliceEnd": func(t *rapid.T) {
			p := rapid.IntRange(0, np-1).Draw(t, "p")
			pc, _ := m.s.PCPU(p)
			end := pc.SliceEnd
			if end == Never || end < m.s.Now() {
				t.Skip("no slice end ahead")
			}
			if end > MaxTime {
				// Dispatched within a timeslice of MaxTime: the clock ends
				// first (see Limits in the package doc).
				if _, err := m.s.Schedule(end, p, nil); !errors.Is(err, ErrBadInput) {
					t.Fatalf("Schedule at %v beyond MaxTime: %v", end, err)
				}
				t.Skip("slice end beyond MaxTime")
			}
			var err error
			if m.log, err = m.s.Schedule(end, p, m.log[:0]); err != nil {
				t.Fatal(err)
			}
		},
		"schedule": func(t *rapid.T) {
			var err error
			if m.log, err = m.s.Schedule(m.step(t), rapid.IntRange(0, np-1).Draw(t, "p"), m.log[:0]); err != nil {
				t.Fatal(err)
			}
		},
		"account": func(t *rapid.T) { m.account(t) },
		"bad": func(t *rapid.T) {
			before := m.s.Clone()
			e := ev{kind: evKind(rapid.IntRange(0, int(numEvKinds)-1).Draw(t, "kind")), at: m.s.Now() - 1}
			if e.kind != evAccount && rapid.Bool().Draw(t, "badID") {
				e.at = m.s.Now()
				e.id = extremes.OrIntEdge(rapid.SampledFrom([]int{-1, -1 << 40, nv + np, 1 << 40}), 0, max(nv, np)).Draw(t, "id")
				if e.id >= 0 && e.id < max(nv, np) {
					e.id = -1 // may be valid for some kind: keep it bad
				}
			} else if rapid.Bool().Draw(t, "badTime") {
				e.at = rapid.SampledFrom([]time.Duration{math.MinInt64, -1, MaxTime + 1, Never - 1, Never}).Draw(t, "at")
				if e.at >= m.s.Now() && e.at <= MaxTime {
					e.at = -1
				}
			}
			log, err := apply(&m.s, e, nil)
			if !errors.Is(err, ErrBadInput) || len(log) != 0 || !equalStates(&m.s, &before) {
				t.Fatalf("bad event %+v: err %v, state changed=%v", e, err, !equalStates(&m.s, &before))
			}
		},
		"": func(t *rapid.T) { checkInvariants(t, &m.s) },
	})
}

func (m *machine) account(t *rapid.T) { m.accountAt(t, m.step(t)) }

// accountAt runs Account at now and checks credits, priorities and the
// guard's choice against the model.
func (m *machine) accountAt(t *rapid.T, now time.Duration) {
	then := m.s.Now()
	pre := make([]VCPU, m.s.NumVCPUs())
	for v := range pre {
		pre[v] = m.vcpu(t, v)
	}
	var err error
	if m.log, err = m.s.Account(now, m.log[:0]); err != nil {
		t.Fatal(err)
	}
	cfg := m.s.Config()
	resched := map[int]bool{}
	raised := map[int]bool{}
	for _, c := range m.log {
		switch c.Kind {
		case Dispatch, Preempt, Keep:
			resched[c.PCPU] = true
		case Raise:
			raised[c.VCPU] = true
		}
	}
	for v, b := range pre {
		// A VCPU stolen from a PCPU means that PCPU rescheduled too,
		// perhaps keeping its VCPU without a change to log.
		if x := m.vcpu(t, v); x.PCPU != b.PCPU {
			resched[b.PCPU] = true
		}
	}
	lim := cfg.CreditsPerTimeslice()
	for v, b := range pre {
		x := m.vcpu(t, v)
		if b.Active && !resched[x.PCPU] {
			// Credited in this accounting: priority from the credit's sign,
			// active credits within ±300.
			if (x.Credit < 0) != (x.Priority == Over) || (x.Priority != Over && x.Priority != Under) {
				t.Fatalf("VCPU %d after accounting: credit %d priority %v", v, x.Credit, x.Priority)
			}
			if x.Active && (x.Credit < -lim || x.Credit > lim) {
				t.Fatalf("VCPU %d credit %d out of [-%d, %d]", v, x.Credit, lim, lim)
			}
		}
		if !b.Background || cfg.GuardPeriod == 0 {
			if raised[v] {
				t.Fatalf("VCPU %d raised but not background", v)
			}
			continue
		}
		if now-m.gStart[v] < cfg.GuardPeriod {
			if raised[v] {
				t.Fatalf("VCPU %d raised before its period ended", v)
			}
			continue
		}
		ranNow := b.Times[Running]
		if b.State == Running {
			ranNow += now - then
		}
		want := ranNow-m.gRan[v] < cfg.GuardExec && !b.Blocked && !b.Raised
		if raised[v] != want {
			t.Fatalf("guard on %+v (ran %v since %v): raised=%v want %v", b, ranNow-m.gRan[v], m.gStart[v], raised[v], want)
		}
		m.gStart[v], m.gRan[v] = now, ranNow
	}
}

// checkInvariants asserts what holds after every event.
func checkInvariants(t interface{ Fatalf(string, ...any) }, s *State) {
	now := s.Now()
	cfg := s.Config()
	var ran, busy time.Duration
	for v := range s.NumVCPUs() {
		x, _ := s.VCPU(v)
		var sum time.Duration
		for _, d := range x.Times {
			sum += d
		}
		if sum != now {
			t.Fatalf("VCPU %d runstate times %v sum to %v, not %v", v, x.Times, sum, now)
		}
		ran += x.Times[Running]
		if !s.allowed(v, x.PCPU) {
			t.Fatalf("VCPU %d on PCPU %d outside its affinity", v, x.PCPU)
		}
		if x.Background && (x.Priority == Boost || x.Active || x.Credit != 0 || x.Parked) {
			t.Fatalf("background VCPU %d: %+v", v, x)
		}
		if x.Raised != (x.Background && x.Priority != Background) {
			t.Fatalf("VCPU %d raised=%v priority %v", v, x.Raised, x.Priority)
		}
		if x.Parked && s.doms[x.Domain].cap == 0 {
			t.Fatalf("uncapped VCPU %d parked", v)
		}
		want := Runnable
		switch {
		case x.Parked && x.Blocked:
			want = Blocked
		case x.Parked:
			want = Offline
		case x.Blocked:
			want = Blocked
		}
		pc, _ := s.PCPU(x.PCPU)
		if pc.Running == v {
			want = Running
		}
		if x.State != want {
			t.Fatalf("VCPU %d in %v, want %v (%+v)", v, x.State, want, x)
		}
	}
	for p := range s.NumPCPUs() {
		pc, _ := s.PCPU(p)
		// CPU time is conserved: the running time of VCPUs on it + idle =
		// elapsed, and the PCPUs' busy time is the VCPUs' running time.
		if pc.Busy+pc.Idle != now {
			t.Fatalf("PCPU %d: busy %v + idle %v != %v", p, pc.Busy, pc.Idle, now)
		}
		busy += pc.Busy
		q, _ := s.RunQueue(p, nil)
		seenBG := false
		for _, v := range q {
			x, _ := s.VCPU(v)
			if x.State != Runnable || x.PCPU != p {
				t.Fatalf("queued VCPU %d on %d is %v", v, p, x.State)
			}
			if x.Priority == Background {
				seenBG = true
			} else if seenBG {
				t.Fatalf("PCPU %d queue %v: VCPU %d behind a background VCPU", p, q, v)
			}
		}
		if pc.Running < 0 {
			if len(q) != 0 {
				t.Fatalf("PCPU %d idle with queue %v", p, q)
			}
			continue
		}
		cur, _ := s.VCPU(pc.Running)
		if cur.PCPU != p {
			t.Fatalf("PCPU %d runs VCPU %d placed on %d", p, pc.Running, cur.PCPU)
		}
		// A runnable non-background VCPU never waits behind a running
		// background VCPU (a raised one is in its starvation slice).
		if cur.Priority == Background && len(q) > 0 && !cfg.RatelimitDelaysBackground {
			if h, _ := s.VCPU(q[0]); h.Priority > Background {
				t.Fatalf("PCPU %d runs background VCPU %d while %d (%v) waits", p, pc.Running, q[0], h.Priority)
			}
		}
	}
	if busy != ran {
		t.Fatalf("PCPUs busy %v, VCPUs running %v", busy, ran)
	}
}

func TestPropDriven(t *testing.T) { rapid.Check(t, propDriven) }
func FuzzDriven(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propDriven)) }

// propDriven runs a drawn host for 2 s of simulated time the way a caller
// would: a tick every 10 ms per PCPU (each in its own phase), accounting
// every 30 ms out of phase, Schedule at every slice end, and wakes and
// blocks at random times; it checks every invariant after every event and
// the accounting checks at every Account. Long runs reach caps parking and
// unparking, deactivation and the guard far more often than short
// state-machine runs.
func propDriven(t *rapid.T) {
	cfg, doms := genSetup(t)
	s, err := New(cfg, doms)
	if err != nil {
		t.Fatal(err)
	}
	m := &machine{s: s, gStart: make([]time.Duration, s.NumVCPUs()), gRan: make([]time.Duration, s.NumVCPUs())}
	np, nv := s.NumPCPUs(), s.NumVCPUs()
	tick := make([]time.Duration, np)
	for p := range tick {
		tick[p] = cfg.TickPeriod() + time.Duration(p)*time.Millisecond
	}
	acct := cfg.Timeslice + ms(float64(rapid.IntRange(0, 29).Draw(t, "phase_ms")))
	flips := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) ev {
		return ev{evWake, time.Duration(rapid.Int64Range(0, int64(2*time.Second)).Draw(t, "at")), rapid.IntRange(0, nv-1).Draw(t, "v")}
	}), 0, 300).Draw(t, "flips")
	slices.SortFunc(flips, func(a, b ev) int { return cmp.Compare(a.at, b.at) })
	do := func(e ev) {
		var err error
		if m.log, err = apply(&m.s, e, m.log[:0]); err != nil {
			t.Fatalf("%v: %v", e, err)
		}
	}
	for m.s.Now() < 2*time.Second {
		now, kind, id := acct, evAccount, 0
		for p := range np {
			if tick[p] < now {
				now, kind, id = tick[p], evTick, p
			}
			if pc, _ := m.s.PCPU(p); pc.SliceEnd < now {
				now, kind, id = pc.SliceEnd, evSchedule, p
			}
		}
		if len(flips) > 0 && flips[0].at < now {
			now, kind, id = flips[0].at, evWake, flips[0].id
			flips = flips[1:]
			if x, _ := m.s.VCPU(id); !x.Blocked {
				kind = evBlock
			}
		}
		switch kind {
		case evAccount:
			m.accountAt(t, now)
			acct += cfg.Timeslice
		case evTick:
			do(ev{evTick, now, id})
			tick[id] += cfg.TickPeriod()
		default:
			do(ev{kind, now, id})
		}
		checkInvariants(t, &m.s)
	}
}

func TestPropDeterminism(t *testing.T) { rapid.Check(t, propDeterminism) }
func FuzzEvents(f *testing.F)          { f.Fuzz(rapid.MakeFuzz(propDeterminism)) }

// The same event sequence gives the same states, event by event.
func propDeterminism(t *rapid.T) {
	cfg, doms := genSetup(t)
	a, err := New(cfg, doms)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := New(cfg, doms)
	evs := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) ev {
		return ev{
			kind: evKind(rapid.IntRange(0, int(numEvKinds)-1).Draw(t, "kind")),
			at:   time.Duration(rapid.Int64Range(0, int64(40*time.Millisecond)).Draw(t, "dt")),
			id:   rapid.IntRange(0, 8).Draw(t, "id"),
		}
	}), 0, 200).Draw(t, "events")
	var la, lb []Change
	var now time.Duration
	for _, e := range evs {
		now += e.at
		e.at = now
		var ea, eb error
		la, ea = apply(&a, e, la[:0])
		lb, eb = apply(&b, e, lb[:0])
		if (ea == nil) != (eb == nil) || fmt.Sprint(la) != fmt.Sprint(lb) || !equalStates(&a, &b) {
			t.Fatalf("runs diverged at %+v", e)
		}
		if ea != nil && !errors.Is(ea, ErrBadInput) {
			t.Fatalf("error not ErrBadInput: %v", ea)
		}
		checkInvariants(t, &a)
	}
}
