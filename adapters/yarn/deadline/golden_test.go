package deadline

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/plans.sha256 from the plans Compute makes now")

// goldenCluster draws a cluster of n apps on nodes nodes from seed: every
// state, progress, container count, priority and queue, about one app in
// six malformed (a field or a tag), deadlines on both sides of now, two
// cluster timestamps, and one of the controller's reservations.
func goldenCluster(seed uint64, n, nodes int) Cluster {
	rng := rand.New(rand.NewPCG(seed, 31))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	c := Cluster{Now: now, Scheduler: pick(rm.SchedulerCapacity, rm.SchedulerCapacity, rm.SchedulerFair, rm.SchedulerFifo)}
	for i := range nodes {
		c.Nodes = append(c.Nodes, node(fmt.Sprintf("n%d", i), pick("RUNNING", "RUNNING", "RUNNING", "LOST"),
			rng.Int64N(32769), rng.Int64N(33)))
	}
	for i := range n {
		p := rm.Int64(rng.Int64N(13))
		a := rm.App{ID: fmt.Sprintf("application_%d_%04d", 1+rng.IntN(2), 1+i),
			State:               rm.String(pick("ACCEPTED", "ACCEPTED", "RUNNING", "RUNNING", "RUNNING", "FINISHED")),
			Progress:            rm.Float([]float64{0, 12.5, 50, 99.9, 100}[rng.IntN(5)]),
			RunningContainers:   rm.Int64(rng.Int64N(14) - 1),
			StartedTime:         rm.Int64(now - rng.Int64N(3_600_000)),
			Queue:               rm.String(pick("default", "default", "default", "reservation_1_0001")),
			ApplicationPriority: &p}
		var tags []string
		if rng.IntN(10) > 0 {
			tags = append(tags, DeadlineTag(now+rng.Int64N(4_000_000)-120_000), "schedkit.io/job-type=t")
			if k := []int{0, 3, 30, 300}[rng.IntN(4)]; k > 0 {
				tags = append(tags, fmt.Sprintf("schedkit.io/tasks=%d", k))
			}
		}
		if k := rng.IntN(36); k < len(goldenFaults) {
			goldenFaults[k](&a, &tags)
		}
		a.ApplicationTags = rm.String(strings.Join(tags, ","))
		c.Apps = append(c.Apps, a)
	}
	c.Reservations = []rm.Reservation{{ID: "reservation_1_0001", Definition: rm.ReservationDefinition{Name: rm.String(ReservationPrefix + "application_1_0002"),
		Requests: rm.ReservationRequests{Request: rm.List[rm.ReservationRequest]{{NumContainers: 3}}}}}}
	return c
}

// goldenFaults are the malformed fields and tags goldenCluster draws.
var goldenFaults = []func(a *rm.App, tags *[]string){
	func(a *rm.App, _ *[]string) { a.Progress = -1 },
	func(a *rm.App, _ *[]string) { a.RunningContainers = -2 },
	func(_ *rm.App, tags *[]string) { *tags = append(*tags, "schedkit.io/deadline=soon") },
	func(_ *rm.App, tags *[]string) { *tags = append(*tags, "schedkit.io/colour=red") },
	func(_ *rm.App, tags *[]string) { *tags = append(*tags, "schedkit.io/tasks=-1") },
	func(a *rm.App, _ *[]string) { a.ID = "app_" + a.ID },
}

// goldenCases are the clusters whose plans testdata/plans.sha256 pins:
// 400 small ones under every config variant (reservations on a quarter of
// them), 24 of 200 to 3,000 apps, and the benchmark's clusters.
func goldenCases() []struct {
	name string
	c    Cluster
	cfg  Config
} {
	type gc = struct {
		name string
		c    Cluster
		cfg  Config
	}
	var out []gc
	for seed := range uint64(400) {
		cfg := testConfig()
		cfg.Order = []string{OrderMP, OrderEDF}[seed%2]
		cfg.ReportOnly = seed%5 == 0
		cfg.Lifetime = seed%3 == 0
		if seed%4 == 1 {
			cfg.PlanQueue, cfg.Runs = "plan", 50
		}
		out = append(out, gc{fmt.Sprintf("small/%d", seed), goldenCluster(seed, int(seed%40), int(seed%5)), cfg})
	}
	for seed := range uint64(24) {
		cfg := testConfig()
		cfg.Order = []string{OrderMP, OrderEDF}[seed%2]
		cfg.Lifetime = seed%3 == 0
		n := 200 + int(seed)*120
		out = append(out, gc{fmt.Sprintf("large/%d", seed), goldenCluster(1000+seed, n, n/8), cfg})
	}
	for _, size := range benchSizes {
		for _, order := range []string{OrderMP, OrderEDF} {
			cfg := testConfig()
			cfg.Order = order
			out = append(out, gc{fmt.Sprintf("bench/%d/%d/%s", size[0], size[1], order), benchCluster(size[0], size[1]), cfg})
		}
	}
	return out
}

// planDigest is the SHA-256 of the plan's JSON (every float to the bit)
// compute makes.
func planDigest(t *testing.T, compute func(Cluster, Config) (Plan, error), c Cluster, cfg Config) string {
	p, err := compute(c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestComputeGolden: Compute makes, bit for bit, the plans recorded in
// testdata/plans.sha256 (go test -run TestComputeGolden -update rewrites
// them: only for a change of the plans that is meant), and so does one
// Planner making them one after another.
func TestComputeGolden(t *testing.T) {
	const path = "testdata/plans.sha256"
	cases := goldenCases()
	if *updateGolden {
		var b strings.Builder
		for _, tc := range cases {
			fmt.Fprintf(&b, "%s %s\n", planDigest(t, Compute, tc.c, tc.cfg), tc.name)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		digest, name, _ := strings.Cut(sc.Text(), " ")
		want[name] = digest
	}
	if len(want) != len(cases) {
		t.Fatalf("%s holds %d plans, want %d", path, len(want), len(cases))
	}
	var pl Planner
	for i, tc := range cases {
		if got := planDigest(t, Compute, tc.c, tc.cfg); got != want[tc.name] {
			t.Errorf("%s: plan digest %s, recorded %s", tc.name, got, want[tc.name])
		}
		if got := planDigest(t, pl.Compute, tc.c, tc.cfg); got != want[tc.name] {
			t.Errorf("%s: a Planner's plan digest %s after %d plans, recorded %s", tc.name, got, i, want[tc.name])
		}
	}
}
