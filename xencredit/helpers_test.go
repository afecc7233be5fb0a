package xencredit

import (
	"reflect"
	"testing"
	"time"
)

// An ev is one event of a scripted or generated sequence.
type ev struct {
	kind evKind
	at   time.Duration
	id   int // VCPU for wake/block, PCPU for tick/schedule
}

type evKind uint8

const (
	evWake evKind = iota
	evBlock
	evTick
	evAccount
	evSchedule
	numEvKinds
)

func (k evKind) String() string {
	return [...]string{"wake", "block", "tick", "account", "schedule"}[k]
}

// apply runs one event on s.
func apply(s *State, e ev, log []Change) ([]Change, error) {
	switch e.kind {
	case evWake:
		return s.Wake(e.at, e.id, log)
	case evBlock:
		return s.Block(e.at, e.id, log)
	case evTick:
		return s.Tick(e.at, e.id, log)
	case evAccount:
		return s.Account(e.at, log)
	default:
		return s.Schedule(e.at, e.id, log)
	}
}

func ms(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }

func mustNew(t testing.TB, cfg Config, doms ...Domain) State {
	t.Helper()
	s, err := New(cfg, doms)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return s
}

// floatingDomains is MaxVCPUs one-VCPU domains of weight 256, each allowed
// on PCPUs 0–1023 (one shared Affinity slice) and starting on PCPU i mod
// 1024: on a host of at least 1,024 PCPUs they fill MaxRunQueues exactly.
func floatingDomains() []Domain {
	aff := make([]int, 1024)
	for p := range aff {
		aff[p] = p
	}
	doms := make([]Domain, MaxVCPUs)
	for i := range doms {
		doms[i] = Domain{Weight: 256, PCPUs: []int{i % 1024}, Affinity: aff}
	}
	return doms
}

func mustVCPU(t testing.TB, s *State, v int) VCPU { t.Helper(); return mustGet(t, s.VCPU, v) }
func mustPCPU(t testing.TB, s *State, p int) PCPU { t.Helper(); return mustGet(t, s.PCPU, p) }

// mustGet returns get(i), failing the test on its error.
func mustGet[T any](t testing.TB, get func(int) (T, error), i int) T {
	t.Helper()
	x, err := get(i)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// run applies the events in order, failing the test on any error, and
// returns the changes of the last one.
func run(t testing.TB, s *State, evs ...ev) []Change {
	t.Helper()
	var log []Change
	for _, e := range evs {
		var err error
		log, err = apply(s, e, log[:0])
		if err != nil {
			t.Fatalf("%v at %v on %d: %v", e.kind, e.at, e.id, err)
		}
	}
	return log
}

func hasChange(log []Change, c Change) bool {
	for _, x := range log {
		if x == c {
			return true
		}
	}
	return false
}

// equalStates compares two states field by field, run queues by content.
func equalStates(a, b *State) bool {
	return reflect.DeepEqual(a, b)
}
