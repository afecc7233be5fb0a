package xencredit

import (
	"slices"
	"testing"
	"time"
)

// activateAll wakes and ticks every VCPU in order so each is active, then
// blocks it, leaving credits at -1 each (0.1 ms of running).
func activateAll(t *testing.T, s *State) {
	t.Helper()
	now := time.Duration(0)
	for v := range s.NumVCPUs() {
		p := s.vcpus[v].pcpu
		run(t, s, ev{evWake, now, v}, ev{evTick, now + ms(0.1), p}, ev{evBlock, now + ms(0.1), v})
		now += ms(0.1)
	}
}

// 2 PCPUs, X weight 256 and Y weight 1, one VCPU each, both active; hand
// arithmetic of csched_acct (C = 600, W = 257):
//   - X first: weight_left = 1, peak 300, fair ⌈600·256/257⌉ = 598 ≥ peak, so
//     C += ⌈298·257/1⌉ = 76586; X gets 300. Y: fair ⌈77186/257⌉ = 301 ≥ 300,
//     Y gets 300 — the minimum weight earns a full slice of credit.
//   - Y first: weight_left = 256, fair ⌈600/257⌉ = 3 < 300 ("extra"), Y
//     gets 3; X: fair 598 ≥ 300 and extra was marked, so X moves to the head
//     of the list and gets 300.
func TestAccountWeightsAndListOrder(t *testing.T) {
	cfg := DefaultConfig(2)
	for _, tt := range []struct {
		name            string
		order           []Domain
		wantX, wantY    int
		wantListHeadDom int
	}{
		{"X first", []Domain{{Weight: 256, PCPUs: []int{0}}, {Weight: 1, PCPUs: []int{1}}}, 299, 299, 0},
		{"Y first", []Domain{{Weight: 1, PCPUs: []int{1}}, {Weight: 256, PCPUs: []int{0}}}, 299, 2, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := mustNew(t, cfg, tt.order...)
			activateAll(t, &s)
			log := run(t, &s, ev{evAccount, ms(30), 0})
			x, y := 0, 1
			if tt.order[0].Weight == 1 {
				x, y = 1, 0
			}
			if gx, gy := mustVCPU(t, &s, x).Credit, mustVCPU(t, &s, y).Credit; gx != tt.wantX || gy != tt.wantY {
				t.Fatalf("credits X=%d Y=%d, want %d %d (each had -1)", gx, gy, tt.wantX, tt.wantY)
			}
			if s.activeDoms[0] != int32(tt.wantListHeadDom) {
				t.Fatalf("active list %v", s.activeDoms)
			}
			if s.balance != int64(tt.wantX+tt.wantY) || len(log) != 0 {
				t.Fatalf("balance %d log %v", s.balance, log)
			}
		})
	}
}

// Above +300 a VCPU leaves the active list and its credit is halved; W drops.
func TestAccountDeactivatesRich(t *testing.T) {
	s := mustNew(t, DefaultConfig(1), Domain{Weight: 256, PCPUs: []int{0}})
	activateAll(t, &s)
	s.vcpus[0].credit = 100
	run(t, &s, ev{evAccount, ms(30), 0}) // 400 > 300: halved to 200
	v := mustVCPU(t, &s, 0)
	if v.Credit != 200 || v.Active || v.Priority != Under || s.TotalWeight() != 0 || len(s.activeDoms) != 0 {
		t.Fatalf("%+v W=%d list=%v", v, s.TotalWeight(), s.activeDoms)
	}
	// W = 0: accounting only zeroes the balance.
	run(t, &s, ev{evAccount, ms(60), 0})
	if mustVCPU(t, &s, 0).Credit != 200 || s.balance != 0 {
		t.Fatal("accounting with W = 0 changed credit")
	}
}

// A domain capped at 50% of a PCPU: capc = ⌈50·300/100⌉ = 150, per-VCPU
// cap 150. Run CPU-bound with ticks every 10 ms, accounting every 30 ms.
func TestCapParksAndUnparks(t *testing.T) {
	s := mustNew(t, DefaultConfig(1), Domain{Weight: 256, Cap: 50, PCPUs: []int{0}})
	run(t, &s, ev{evWake, 0, 0}, ev{evTick, ms(10), 0}, ev{evTick, ms(20), 0})
	// credit -200; +150 → -50: OVER, not parked (-50 ≥ -150).
	run(t, &s, ev{evAccount, ms(30), 0})
	if v := mustVCPU(t, &s, 0); v.Credit != -50 || v.Priority != Over || v.Parked {
		t.Fatalf("at 30 ms %+v", v)
	}
	run(t, &s, ev{evSchedule, ms(30), 0}, ev{evTick, ms(40), 0}, ev{evTick, ms(50), 0}, ev{evTick, ms(60), 0})
	// burned 30 ms more (the 20–30 ms part at the schedule): -50-100-300 = -450; +150 = -300 < -150: parked.
	log := run(t, &s, ev{evAccount, ms(60), 0})
	want := []Change{{Park, 0, 0, Over}, {Dispatch, -1, 0, Idle}}
	if !slices.Equal(log, want) {
		t.Fatalf("park log %v, want %v", log, want)
	}
	if v := mustVCPU(t, &s, 0); v.Credit != -300 || !v.Parked || v.State != Offline {
		t.Fatalf("parked %+v", v)
	}
	run(t, &s, ev{evAccount, ms(90), 0}) // -150: still parked
	if v := mustVCPU(t, &s, 0); v.Credit != -150 || !v.Parked {
		t.Fatalf("at 90 ms %+v", v)
	}
	log = run(t, &s, ev{evAccount, ms(120), 0}) // 0: UNDER, unparked without boost
	want = []Change{{Unpark, 0, 0, Under}, {Dispatch, 0, 0, Under}}
	if !slices.Equal(log, want) {
		t.Fatalf("unpark log %v, want %v", log, want)
	}
	v := mustVCPU(t, &s, 0)
	if v.Times[Offline] != ms(60) || v.Times[Running] != ms(60) {
		t.Fatalf("times %v", v.Times)
	}
	// A wake while parked goes to Offline; a block while parked to Blocked.
	if _, err := s.Wake(ms(121), 0, nil); err == nil {
		t.Fatal("waking a running VCPU must fail")
	}
}

// Starvation guard, p = 100 ms, e = 5 ms, against a CPU-bound foreground
// VCPU that stays UNDER (it earns the 300 credits it burns). Raised to OVER
// (MIMP §4.2), the background VCPU still never runs; raised to UNDER (the
// prototype) it gets exactly one 5 ms starvation slice, then goes back.
func TestGuardAgainstCPUBoundForeground(t *testing.T) {
	for _, under := range []bool{false, true} {
		cfg := DefaultConfig(1)
		cfg.GuardPeriod, cfg.GuardExec, cfg.GuardRaiseToUnder = ms(100), ms(5), under
		s := mustNew(t, cfg, Domain{Background: true, PCPUs: []int{0}}, Domain{Weight: 256, PCPUs: []int{0}})
		run(t, &s, ev{evWake, 0, 0}, ev{evWake, ms(1), 1}) // fg preempts bg after 1 ms
		var raised, lowered time.Duration
		var log []Change
		for now := ms(10); now <= ms(200); now += ms(1) {
			if now%ms(10) == 0 {
				run(t, &s, ev{evTick, now, 0})
			}
			if now%ms(30) == 0 {
				log = run(t, &s, ev{evAccount, now, 0})
				if hasChange(log, Change{Raise, 0, 0, map[bool]Priority{false: Over, true: Under}[under]}) {
					raised = now
				}
			}
			if mustPCPU(t, &s, 0).SliceEnd == now {
				log = run(t, &s, ev{evSchedule, now, 0})
				if hasChange(log, Change{Lower, 0, 0, Background}) {
					lowered = now
				}
			}
		}
		bg := mustVCPU(t, &s, 0)
		if raised != ms(120) {
			t.Fatalf("under=%v: raised at %v, want 120ms (first accounting ≥ p)", under, raised)
		}
		if !under && (bg.Times[Running] != ms(1) || !bg.Raised) {
			t.Fatalf("raise-to-OVER: bg %+v, want still raised, 1 ms run", bg)
		}
		// fg's slices end at 31, 61, 91, 121 ms: bg runs 121–126.
		if under && (bg.Times[Running] != ms(6) || bg.Raised || lowered != ms(126)) {
			t.Fatalf("raise-to-UNDER: bg %+v lowered at %v, want 6 ms run, lowered at 126ms", bg, lowered)
		}
	}
}

// A blocked background VCPU is never raised (the prototype's bug raised it
// while blocked, so it woke UNDER and was boosted).
func TestGuardSkipsBlocked(t *testing.T) {
	cfg := DefaultConfig(1)
	cfg.GuardPeriod, cfg.GuardExec, cfg.GuardRaiseToUnder = ms(30), ms(5), true
	s := mustNew(t, cfg, Domain{Background: true, PCPUs: []int{0}})
	log := run(t, &s, ev{evAccount, ms(30), 0}, ev{evWake, ms(31), 0})
	if v := mustVCPU(t, &s, 0); v.Priority != Background || v.Raised || hasChange(log, Change{BoostStart, 0, 0, Boost}) {
		t.Fatalf("%+v %v", v, log)
	}
}

// A domain that becomes active joins the head of the active list with
// ActivateAtHead (Xen's list_add), the tail without. Y (weight 1) is
// activated before X (weight 256): at the tail, X is visited after Y and Y
// gets only its weight's share, 3 (see TestAccountWeightsAndListOrder); at
// the head, X is visited first and Y is handed X's unused credit, 300.
func TestActivateAtHead(t *testing.T) {
	for _, tt := range []struct {
		atHead bool
		wantY  int
		list   []int32
	}{{false, 2, []int32{1, 0}}, {true, 299, []int32{1, 0}}} {
		cfg := DefaultConfig(2)
		cfg.ActivateAtHead = tt.atHead
		s := mustNew(t, cfg, Domain{Weight: 1, PCPUs: []int{1}}, Domain{Weight: 256, PCPUs: []int{0}})
		activateAll(t, &s)
		if want := map[bool][]int32{false: {0, 1}, true: {1, 0}}[tt.atHead]; !slices.Equal(s.activeDoms, want) {
			t.Fatalf("atHead=%v: active list %v before accounting, want %v", tt.atHead, s.activeDoms, want)
		}
		run(t, &s, ev{evAccount, ms(30), 0})
		if y, x := mustVCPU(t, &s, 0).Credit, mustVCPU(t, &s, 1).Credit; y != tt.wantY || x != 299 {
			t.Fatalf("atHead=%v: credits Y=%d X=%d, want %d 299", tt.atHead, y, x, tt.wantY)
		}
		if !slices.Equal(s.activeDoms, tt.list) {
			t.Fatalf("atHead=%v: active list %v after accounting, want %v", tt.atHead, s.activeDoms, tt.list)
		}
	}
}
