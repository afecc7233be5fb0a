package xencredit

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/schedkit/schedkit/internal/testkit"
)

// TestLimits builds hosts at MaxPCPUs, MaxVCPUs and MaxRunQueues and one
// beyond each: at the limit New takes the memory its doc states and a round
// of events on every VCPU allocates nothing; one beyond is refused naming
// the field, and a flood of bad domains gives at most maxErrors problems.
func TestLimits(t *testing.T) {
	cfg := DefaultConfig(MaxPCPUs)
	pinned := make([]Domain, MaxVCPUs)
	for i := range pinned {
		pinned[i] = Domain{Weight: MaxWeight, Cap: 100 * MaxPCPUs, PCPUs: []int{i % MaxPCPUs}}
	}
	var s State
	var err error
	got := testkit.Allocated(func() { s, err = New(cfg, pinned) })
	if err != nil {
		t.Fatal(err)
	}
	if got > 2<<20 {
		t.Errorf("New at MaxPCPUs and MaxVCPUs pinned allocated %d B, over 2 MiB", got)
	}
	// Every VCPU wakes and runs a timeslice, then the host accounts.
	var log []Change
	round := func(now time.Duration) {
		for v := range MaxVCPUs {
			if log, err = s.Wake(now, v, log[:0]); err != nil {
				t.Fatal(err)
			}
		}
		for p := range MaxPCPUs {
			if log, err = s.Tick(now+cfg.TickPeriod(), p, log[:0]); err != nil {
				t.Fatal(err)
			}
		}
		if log, err = s.Account(now+cfg.Timeslice, log[:0]); err != nil {
			t.Fatal(err)
		}
		for v := range MaxVCPUs {
			if log, err = s.Block(now+cfg.Timeslice, v, log[:0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	round(0)
	if !raceEnabled {
		now := time.Duration(0)
		if n := testing.AllocsPerRun(2, func() { now += time.Second; round(now) }); n != 0 {
			t.Errorf("a round of events on %d VCPUs: %v allocations", MaxVCPUs, n)
		}
	}

	// MaxVCPUs floating over 1,024 PCPUs each fill MaxRunQueues exactly.
	floating := floatingDomains()
	got = testkit.Allocated(func() { s, err = New(cfg, floating) })
	if err != nil {
		t.Fatalf("MaxRunQueues: %v", err)
	}
	if got > 8*MaxRunQueues+4<<20 { // and MaxPCPUs/8 bytes of affinity bitset a domain
		t.Errorf("New at MaxRunQueues allocated %d B, over 8 B an entry", got)
	}
	floating[MaxVCPUs-1].Affinity = append(floating[0].Affinity, 1024)
	_, err = New(cfg, floating)
	wantField(t, err, "Domains[4095].Affinity")

	_, err = New(cfg, append(pinned, Domain{Weight: 1, PCPUs: []int{0}}))
	wantField(t, err, "Domains")
	pinned[0].PCPUs = []int{0, 1}
	_, err = New(cfg, pinned)
	wantField(t, err, "Domains[4095].PCPUs")
	_, err = New(DefaultConfig(MaxPCPUs+1), pinned[:1])
	wantField(t, err, "Config.PCPUs")

	// A flood of bad domains: at most maxErrors problems, and the last says
	// the rest was not checked.
	bad := make([]Domain, MaxVCPUs)
	for i := range bad {
		bad[i] = Domain{Weight: -1, PCPUs: []int{-1}, Affinity: []int{-1, -1}}
	}
	_, err = New(cfg, bad)
	var n int
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		n++
		if !errors.Is(e, ErrBadInput) {
			t.Fatalf("problem %v does not match ErrBadInput", e)
		}
	}
	if n > maxErrors+1 || !strings.Contains(err.Error(), "not checked") {
		t.Fatalf("%d problems joined, want at most %d and a note", n, maxErrors+1)
	}
}
