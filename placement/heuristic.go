package placement

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/schedkit/schedkit/internal/enumname"
)

// A Heuristic is one of the application-independent allocation policies TARA
// is compared with (Lee thesis §3.3.3.2).
type Heuristic int

const (
	// RoundRobinRacks (RR-R) takes one server from each rack in turn, racks in
	// index order, until r are chosen.
	RoundRobinRacks Heuristic = iota
	// RoundRobinServers (RR-S) fills every available server of a rack before
	// moving to the next; racks by available uplink bandwidth, highest first
	// (the thesis's positive bias for RR-S).
	RoundRobinServers
	// Hybrid1 (H-1) takes at most 20 servers per rack, racks by available
	// uplink bandwidth, highest first.
	Hybrid1
	// Hybrid2 (H-2) is H-1 with at most 10 servers per rack.
	Hybrid2
)

// Heuristics lists the four deterministic baselines in the thesis's order.
var Heuristics = [...]Heuristic{RoundRobinRacks, RoundRobinServers, Hybrid1, Hybrid2}

// String returns the thesis's name: "RR-R", "RR-S", "H-1", "H-2".
func (h Heuristic) String() string { return enumname.Of(h, "Heuristic", heuristicNames[:]) }

var heuristicNames = [...]string{
	RoundRobinRacks:   "RR-R",
	RoundRobinServers: "RR-S",
	Hybrid1:           "H-1",
	Hybrid2:           "H-2",
}

// Place returns the r servers (indices into t.Servers, increasing) that
// heuristic h chooses. Within a rack servers are taken in index order; racks
// with equal available bandwidth (Uplink − BackgroundUplink) are taken in
// index order. The hybrids, when one pass over all racks (at most the cap per
// rack) has not found r servers, make further passes with the same cap, so
// every heuristic succeeds whenever r servers are available. Errors match
// ErrBadInput: an invalid t, r < 1, r above the available servers, or an
// unknown h.
func (h Heuristic) Place(t Topology, r int) ([]int, error) {
	byRack, err := taraRackLists(t, r)
	if err != nil {
		return nil, err
	}
	order := make([]int, len(t.Racks))
	for k := range order {
		order[k] = k
	}
	if h != RoundRobinRacks {
		slices.SortFunc(order, func(a, b int) int {
			return cmp.Or(
				cmp.Compare(t.Racks[b].Uplink-t.Racks[b].BackgroundUplink, t.Racks[a].Uplink-t.Racks[a].BackgroundUplink),
				cmp.Compare(a, b))
		})
	}
	var perPass int
	switch h {
	case RoundRobinRacks:
		perPass = 1
	case RoundRobinServers:
		perPass = len(t.Servers)
	case Hybrid1:
		perPass = 20
	case Hybrid2:
		perPass = 10
	default:
		return nil, &ValueError{Field: "Heuristic", Value: h, Reason: "unknown heuristic"}
	}
	return taraTakeInPasses(byRack, order, r, perPass), nil
}

// taraRackLists validates t and r and returns the available servers of each
// rack in index order.
func taraRackLists(t Topology, r int) ([][]int, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	byRack := availableByRack(t)
	avail := 0
	for _, list := range byRack {
		avail += len(list)
	}
	if r < 1 || r > avail {
		return nil, &ValueError{Field: "r", Value: r, Reason: fmt.Sprintf("must be in [1, %d available servers]", avail)}
	}
	return byRack, nil
}

// availableByRack returns the servers of t with a free slot, one list per
// rack in index order; t must be valid.
func availableByRack(t Topology) [][]int {
	byRack := make([][]int, len(t.Racks))
	for i, s := range t.Servers {
		if s.FreeSlots > 0 {
			byRack[s.Rack] = append(byRack[s.Rack], i)
		}
	}
	return byRack
}

// taraTakeInPasses visits racks in order, taking up to perPass further
// servers from each per pass, until r are taken; r must not exceed the
// servers in byRack. The result is sorted.
func taraTakeInPasses(byRack [][]int, order []int, r, perPass int) []int {
	out := make([]int, 0, r)
	next := make([]int, len(byRack))
	for len(out) < r {
		for _, k := range order {
			take := min(perPass, len(byRack[k])-next[k], r-len(out))
			out = append(out, byRack[k][next[k]:next[k]+take]...)
			next[k] += take
		}
	}
	slices.Sort(out)
	return out
}

// RandomPlacement returns r distinct available servers of t chosen uniformly
// at random with rng (the thesis's Random policy), sorted increasing. Errors
// match ErrBadInput (invalid t, r out of range) or are ErrNilRand.
func RandomPlacement(t Topology, r int, rng *rand.Rand) ([]int, error) {
	if rng == nil {
		return nil, ErrNilRand
	}
	if _, err := taraRackLists(t, r); err != nil {
		return nil, err
	}
	avail := t.Available()
	for i := range r { // partial Fisher–Yates
		j := i + rng.IntN(len(avail)-i)
		avail[i], avail[j] = avail[j], avail[i]
	}
	out := avail[:r:r]
	slices.Sort(out)
	return out, nil
}
