package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// The applications of GP §VI-B's mixed workload.
const (
	appIOGrep    = "I/O-bound Grep"
	appCPUGrep   = "CPU-bound Grep"
	appAggregate = "Aggregate"
	appJoin      = "Join"
)

// mixedApps are the applications whose instances mixedInstances draws from
// Table III, with GP §VI-B's instance counts and map totals. Join's 870 maps
// are what Table III's 28,621 leave; the rest of Table III, 56 instances
// with 1,589 maps, is CPU-bound Grep, the long job among them, as §VI-B
// gives it.
var mixedApps = []struct {
	name       string
	jobs, maps int
}{
	{appIOGrep, 25, 15554},
	{appAggregate, 34, 10608},
	{appJoin, 15, 870},
}

// mixedInstances is GP §VI-B's mixed workload read onto Table III. §VI-B
// gives 25 I/O-bound Grep instances with 15,554 maps, 56 CPU-bound Grep with
// 1,589, 34 Aggregate with 10,608 and 15 Join instances, but neither their
// sizes nor their task times. Its instance counts add up to Table III's 130
// and its map totals to all but 870 of Table III's 28,621 maps, so each
// seed partitions Table III's 129 ordinary jobs, with their task times,
// among the applications to exactly those counts and totals (Join gets the
// 870 left; the long job is the CPU-bound Grep §VI-B names). Many partitions
// fit; a seeded depth-first search over how many jobs of each size each
// application takes, trying the counts in random order, picks one, and the
// jobs of one size are dealt to the applications in random order (so which
// task times an application gets is drawn too).
func mixedInstances(seed uint64) (ordinary []sizedJob, long sizedJob, err error) {
	rng := rand.New(rand.NewPCG(seed, 0x6d69786564)) // "mixed"
	table, long := tableIIIJobs()
	long.app = appCPUGrep
	var sizes []int // distinct map counts, largest first
	for _, j := range table {
		if !slices.Contains(sizes, j.maps) {
			sizes = append(sizes, j.maps)
		}
	}
	slices.SortFunc(sizes, func(a, b int) int { return b - a })
	groups := make([][]sizedJob, len(sizes))
	avail := make([]int, len(sizes))
	for k, s := range sizes {
		for _, j := range table {
			if j.maps == s {
				groups[k] = append(groups[k], j)
			}
		}
		rng.Shuffle(len(groups[k]), func(a, b int) { groups[k][a], groups[k][b] = groups[k][b], groups[k][a] })
		avail[k] = len(groups[k])
	}
	take := make([][]int, len(mixedApps))
	for a := range take {
		take[a] = make([]int, len(sizes))
	}
	// bounds is the least and the most maps n jobs of sizes[k:] can have.
	bounds := func(k, n int) (lo, hi int, ok bool) {
		have := 0
		for i := k; i < len(sizes); i++ {
			have += avail[i]
		}
		if have < n {
			return 0, 0, false
		}
		for i, left := k, n; left > 0; i++ { // the largest first
			c := min(avail[i], left)
			hi, left = hi+c*sizes[i], left-c
		}
		for i, left := len(sizes)-1, n; left > 0; i-- { // the smallest first
			c := min(avail[i], left)
			lo, left = lo+c*sizes[i], left-c
		}
		return lo, hi, true
	}
	budget := 1 << 20
	var search func(a, k, n, m int) bool
	search = func(a, k, n, m int) bool {
		if budget--; budget < 0 {
			return false
		}
		if k == len(sizes) {
			if n != 0 || m != 0 {
				return false
			}
			if a+1 == len(mixedApps) {
				return true
			}
			return search(a+1, 0, mixedApps[a+1].jobs, mixedApps[a+1].maps)
		}
		if lo, hi, ok := bounds(k, n); !ok || m < lo || m > hi {
			return false
		}
		s := sizes[k]
		for _, c := range rng.Perm(min(avail[k], n, m/s) + 1) {
			avail[k] -= c
			take[a][k] = c
			if search(a, k+1, n-c, m-c*s) {
				return true
			}
			avail[k] += c
		}
		take[a][k] = 0
		return false
	}
	if !search(0, 0, mixedApps[0].jobs, mixedApps[0].maps) {
		return nil, long, fmt.Errorf("seed %d: no partition of Table III into the mixed workload found", seed)
	}
	for k := range sizes {
		g := groups[k]
		for a, app := range mixedApps {
			for range take[a][k] {
				g[0].app = app.name
				ordinary = append(ordinary, g[0])
				g = g[1:]
			}
		}
		for _, j := range g {
			j.app = appCPUGrep
			ordinary = append(ordinary, j)
		}
	}
	return ordinary, long, nil
}
