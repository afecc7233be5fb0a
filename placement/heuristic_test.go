package placement

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// taraRackCounts returns how many of servers are in each rack of t.
func taraRackCounts(t Topology, servers []int) []int {
	c := make([]int, len(t.Racks))
	for _, s := range servers {
		c[t.Servers[s].Rack]++
	}
	return c
}

func TestHeuristicsThesisScenario(t *testing.T) {
	top := ThesisTopology()
	// Uplinks cycle 800, 700, …, 200 Mbit/s: the 800 racks are 0, 7, 14,
	// the 700 racks 1, 8, 15, the 600 racks 2, 9, 16.
	want := map[Heuristic]map[int]int{
		RoundRobinRacks:   {0: 4, 1: 4, 2: 4, 3: 4, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4, 9: 4, 10: 4, 11: 4, 12: 4, 13: 4, 14: 4, 15: 4, 16: 4, 17: 4, 18: 4, 19: 4},
		RoundRobinServers: {0: 40, 7: 40},
		Hybrid1:           {0: 20, 7: 20, 14: 20, 1: 20},
		Hybrid2:           {0: 10, 7: 10, 14: 10, 1: 10, 8: 10, 15: 10, 2: 10, 9: 10},
	}
	for _, h := range Heuristics {
		t.Run(h.String(), func(t *testing.T) {
			s, err := h.Place(top, 80)
			if err != nil {
				t.Fatal(err)
			}
			if len(s) != 80 || !slices.IsSorted(s) || len(slices.Compact(slices.Clone(s))) != 80 {
				t.Fatalf("not 80 distinct sorted servers: %v", s)
			}
			for k, c := range taraRackCounts(top, s) {
				if c != want[h][k] {
					t.Fatalf("rack %d holds %d VMs, want %d", k, c, want[h][k])
				}
			}
		})
	}
}

func TestHeuristicNames(t *testing.T) {
	names := []string{"RR-R", "RR-S", "H-1", "H-2"}
	for i, h := range Heuristics {
		if h.String() != names[i] {
			t.Errorf("%d: %q, want %q", i, h.String(), names[i])
		}
	}
	if got := Heuristic(9).String(); got != "Heuristic(9)" {
		t.Errorf("unknown heuristic prints %q", got)
	}
}

func TestHybridSecondPass(t *testing.T) {
	// Two racks of 30; rack 1 has the faster uplink. H-1 for 50 VMs takes
	// 20 from rack 1, 20 from rack 0, then 10 more from rack 1.
	top := taraTinyTopology(30, 100, 200)
	s, err := Hybrid1.Place(top, 50)
	if err != nil {
		t.Fatal(err)
	}
	if c := taraRackCounts(top, s); c[0] != 20 || c[1] != 30 {
		t.Fatalf("rack counts %v, want [20 30]", c)
	}
	// Background traffic reorders racks: rack 1 now has 50 left.
	top.Racks[1].BackgroundUplink = 150
	s, err = RoundRobinServers.Place(top, 35)
	if err != nil {
		t.Fatal(err)
	}
	if c := taraRackCounts(top, s); c[0] != 30 || c[1] != 5 {
		t.Fatalf("rack counts %v, want [30 5]", c)
	}
}

func TestHeuristicSkipsUnavailable(t *testing.T) {
	top := taraTinyTopology(3, 100, 100)
	top.Servers[0].FreeSlots = 0
	top.Servers[4].FreeSlots = 0
	s, err := RoundRobinRacks.Place(top, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s, []int{1, 2, 3, 5}) {
		t.Fatalf("got %v", s)
	}
}

func TestHeuristicBadInput(t *testing.T) {
	top := taraTinyTopology(3, 100, 100)
	bad := taraTinyTopology(3, 100, 100)
	bad.Servers[1].Speed = -1
	tests := []struct {
		name  string
		h     Heuristic
		topo  Topology
		r     int
		field string
	}{
		{"zero r", RoundRobinRacks, top, 0, "r"},
		{"negative r", Hybrid1, top, -5, "r"},
		{"r above available", RoundRobinServers, top, 7, "r"},
		{"unknown heuristic", Heuristic(7), top, 2, "Heuristic"},
		{"negative heuristic", Heuristic(-1), top, 2, "Heuristic"},
		{"invalid topology", Hybrid2, bad, 2, "Servers[1].Speed"},
		{"empty topology", Hybrid2, Topology{}, 2, "Topology.Racks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.h.Place(tt.topo, tt.r)
			wantField(t, err, tt.field)
		})
	}
}

func TestRandomPlacement(t *testing.T) {
	top := taraTinyTopology(5, 100, 100, 100)
	top.Servers[3].FreeSlots = 0
	a, err := RandomPlacement(top, 6, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := RandomPlacement(top, 6, rand.New(rand.NewPCG(7, 7)))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Fatalf("equal seeds, different placements: %v %v", a, b)
	}
	if len(a) != 6 || !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != 6 || slices.Contains(a, 3) {
		t.Fatalf("invalid placement %v", a)
	}
	// Every available server is drawn sometimes, the unavailable one never.
	seen := make([]int, len(top.Servers))
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		s, err := RandomPlacement(top, 6, rng)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range s {
			seen[x]++
		}
	}
	for i, n := range seen {
		if (i == 3) != (n == 0) {
			t.Fatalf("server %d drawn %d times", i, n)
		}
	}
	if _, err := RandomPlacement(top, 6, nil); !errors.Is(err, ErrNilRand) {
		t.Fatalf("nil rng: %v", err)
	}
	if _, err := RandomPlacement(top, 15, rng); !errors.Is(err, ErrBadInput) {
		t.Fatalf("r above available: %v", err)
	}
}
