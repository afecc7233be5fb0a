package xencredit

import (
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// propGuardGuarantee: on one PCPU, background VCPU 0 is always runnable
// beside other background VCPUs that wake and block at random and k CPU-bound
// foreground VCPUs. The caller ticks every 10 ms, accounts every 30 ms (at a
// random phase) and schedules at slice ends. Then in every guard period
// [c_j, c_j+1] closed by a check, extended by B, VCPU 0 runs at least e:
// either it ran e before c_j+1, or the check raised it and its starvation
// slice ends within B, the longest it can wait: the current slice plus one
// slice per foreground VCPU (per Timeslice of e), one starvation slice per other background VCPU
// and a ratelimit per switch. p ≥ B is drawn so a raise always ends before
// the next check.
//
// Against CPU-bound foreground VCPUs the raise is to UNDER: raised to OVER
// it can starve for ever behind a foreground VCPU that earns what it burns
// (TestGuardAgainstCPUBoundForeground), so MIMP §4.2's guarantee needs the
// foreground to leave idle time or fall OVER.
func propGuardGuarantee(t *rapid.T) {
	k := rapid.IntRange(0, 2).Draw(t, "fg")
	nb := rapid.IntRange(1, 3).Draw(t, "bg")
	cfg := DefaultConfig(1)
	cfg.Ratelimit = rapid.SampledFrom([]time.Duration{0, time.Millisecond}).Draw(t, "ratelimit")
	cfg.RatelimitDelaysBackground = rapid.Bool().Draw(t, "rlBackground")
	cfg.GuardExec = ms(float64(rapid.IntRange(1, 40).Draw(t, "e_ms")))
	cfg.GuardRaiseToUnder = k > 0 || rapid.Bool().Draw(t, "toUnder")
	rl := cfg.Ratelimit
	// A starvation slice longer than a Timeslice takes m turns, each
	// behind every foreground VCPU.
	m := time.Duration((cfg.GuardExec + cfg.Timeslice - 1) / cfg.Timeslice)
	B := m*time.Duration(k+1)*cfg.Timeslice + time.Duration(nb)*cfg.GuardExec + m*time.Duration(k+nb+1)*rl
	cfg.GuardPeriod = B + ms(float64(rapid.IntRange(0, 300).Draw(t, "p_extra_ms")))
	doms := []Domain{{Background: true, PCPUs: make([]int, nb)}}
	if k > 0 {
		doms = append(doms, Domain{Weight: rapid.SampledFrom([]int{1, 256, 65535}).Draw(t, "w"), PCPUs: make([]int, k)})
	}
	s, err := New(cfg, doms)
	if err != nil {
		t.Fatal(err)
	}
	const horizon = 3 * time.Second
	type toggle struct {
		at time.Duration
		v  int
	}
	var toggles []toggle
	if nb > 1 {
		for _, at := range rapid.SliceOfN(rapid.Int64Range(0, int64(horizon)), 0, 60).Draw(t, "toggles") {
			toggles = append(toggles, toggle{time.Duration(at), 1 + int(at)%(nb-1)})
		}
		slices.SortFunc(toggles, func(a, b toggle) int { return int(a.at - b.at) })
	}
	phase := ms(float64(rapid.IntRange(0, 29).Draw(t, "phase_ms")))
	var log []Change
	do := func(e ev) {
		var err error
		if log, err = apply(&s, e, log[:0]); err != nil {
			t.Fatalf("%v: %v", e, err)
		}
	}
	do(ev{evWake, 0, 0})
	for v := nb; v < nb+k; v++ {
		do(ev{evWake, 0, v})
	}
	type sample struct {
		at      time.Duration
		ran     time.Duration
		running bool
	}
	samples := []sample{{0, 0, true}}
	checks := []time.Duration{0}
	nextTick, nextAcct := cfg.TickPeriod(), phase+cfg.Timeslice
	for s.Now() < horizon {
		pc, _ := s.PCPU(0)
		now := min(nextTick, nextAcct, pc.SliceEnd)
		if len(toggles) > 0 {
			now = min(now, toggles[0].at)
		}
		switch {
		case now == nextTick:
			do(ev{evTick, now, 0})
			nextTick += cfg.TickPeriod()
		case now == nextAcct:
			do(ev{evAccount, now, 0})
			if now-checks[len(checks)-1] >= cfg.GuardPeriod {
				checks = append(checks, now)
			}
			nextAcct += cfg.Timeslice
		case len(toggles) > 0 && now == toggles[0].at:
			v := toggles[0].v
			toggles = toggles[1:]
			if x, _ := s.VCPU(v); x.Blocked {
				do(ev{evWake, now, v})
			} else {
				do(ev{evBlock, now, v})
			}
		default:
			do(ev{evSchedule, now, 0})
		}
		x, _ := s.VCPU(0)
		samples = append(samples, sample{now, x.Times[Running], x.State == Running})
	}
	ranAt := func(at time.Duration) time.Duration {
		i, _ := slices.BinarySearchFunc(samples, at, func(s sample, at time.Duration) int { return int(s.at - at) })
		for i >= len(samples) || samples[i].at > at {
			i--
		}
		for i+1 < len(samples) && samples[i+1].at == at {
			i++
		}
		r := samples[i].ran
		if samples[i].running {
			r += at - samples[i].at
		}
		return r
	}
	for j := 0; j+1 < len(checks); j++ {
		end := checks[j+1] + B
		if end > s.Now() {
			break
		}
		if got := ranAt(end) - ranAt(checks[j]); got < cfg.GuardExec {
			t.Fatalf("VCPU 0 ran %v in [%v, %v+B=%v], want ≥ e = %v", got, checks[j], checks[j+1], end, cfg.GuardExec)
		}
	}
}

func TestPropGuardGuarantee(t *testing.T) { rapid.Check(t, propGuardGuarantee) }
func FuzzGuardGuarantee(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propGuardGuarantee)) }
