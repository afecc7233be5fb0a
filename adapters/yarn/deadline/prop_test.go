package deadline

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/schedkit/schedkit/adapters/yarn/rm"
	"pgregory.net/rapid"
)

// genCluster draws a cluster of up to 12 apps with any state, progress,
// container count, priority and tags — valid, malformed and absent — and
// up to 4 nodes.
func genCluster(t *rapid.T) Cluster {
	c := Cluster{Now: now, Scheduler: rapid.SampledFrom([]string{rm.SchedulerCapacity, rm.SchedulerFair, rm.SchedulerFifo}).Draw(t, "sched")}
	for i := range rapid.IntRange(0, 4).Draw(t, "nodes") {
		c.Nodes = append(c.Nodes, node(fmt.Sprintf("n%d", i), rapid.SampledFrom([]string{"RUNNING", "RUNNING", "LOST"}).Draw(t, "state"),
			rapid.Int64Range(0, 16384).Draw(t, "mb"), rapid.Int64Range(0, 16).Draw(t, "vcores")))
	}
	seqs := rapid.SliceOfNDistinct(rapid.IntRange(1, 9999), 0, 12, rapid.ID[int]).Draw(t, "seqs")
	for _, seq := range seqs {
		p := rm.Int64(rapid.Int64Range(0, 12).Draw(t, "prio"))
		a := rm.App{ID: fmt.Sprintf("application_1_%04d", seq),
			State:               rm.String(rapid.SampledFrom([]string{"ACCEPTED", "ACCEPTED", "RUNNING", "RUNNING", "FINISHED", "SUBMITTED"}).Draw(t, "state")),
			Progress:            rm.Float(rapid.SampledFrom([]float64{0, 12.5, 50, 99.9, 100}).Draw(t, "progress")),
			RunningContainers:   rm.Int64(rapid.Int64Range(0, 12).Draw(t, "containers")),
			StartedTime:         rm.Int64(now - rapid.Int64Range(0, 3_600_000).Draw(t, "ago")),
			Queue:               rm.String(rapid.SampledFrom([]string{"default", "default", "reservation_1_0001"}).Draw(t, "queue")),
			ApplicationPriority: &p}
		var tags []string
		if rapid.IntRange(0, 9).Draw(t, "has deadline") > 1 {
			tags = append(tags, DeadlineTag(now+rapid.Int64Range(-60_000, 600_000).Draw(t, "dl")), "schedkit.io/job-type=t")
			if n := rapid.SampledFrom([]int{0, 3, 30, 300}).Draw(t, "tasks"); n > 0 {
				tags = append(tags, fmt.Sprintf("schedkit.io/tasks=%d", n))
			}
		}
		// One fault in three apps: a malformed field or tag.
		switch rapid.IntRange(0, 17).Draw(t, "fault") {
		case 0:
			a.Progress = rm.Float(math.NaN())
		case 1:
			a.Progress = -1
		case 2:
			a.RunningContainers = -1
		case 3:
			tags = append(tags, "schedkit.io/deadline=soon")
		case 4:
			tags = append(tags, "schedkit.io/colour=red")
		case 5:
			tags = append(tags, "schedkit.io/tasks=-1")
		}
		a.ApplicationTags = rm.String(strings.Join(tags, ","))
		c.Apps = append(c.Apps, a)
	}
	if rapid.Bool().Draw(t, "mine") {
		c.Reservations = []rm.Reservation{{ID: "reservation_1_0001", Definition: rm.ReservationDefinition{Name: rm.String(ReservationPrefix + "application_1_0042"),
			Requests: rm.ReservationRequests{Request: rm.List[rm.ReservationRequest]{{NumContainers: 3}}}}}}
	}
	return c
}

// propCompute: on any cluster Compute succeeds; the plan is the same for
// the same input, for the apps listed in any order, and from a Planner
// that planned another cluster before; and it is safe:
// kills only hit ACCEPTED apps with a valid deadline tag, priorities stay
// in [MinPriority, MaxPriority] and differ from the current one, are only
// written under the Capacity Scheduler, and no app is both killed and
// given a priority, a reservation or a lifetime; a rejected app gets no
// action.
func propCompute(t *rapid.T) {
	c := genCluster(t)
	cfg := testConfig()
	cfg.Order = rapid.SampledFrom([]string{OrderMP, OrderEDF}).Draw(t, "order")
	cfg.ReportOnly = rapid.Bool().Draw(t, "report")
	cfg.Lifetime = rapid.Bool().Draw(t, "lifetime")
	cfg.Runs = 50
	if rapid.Bool().Draw(t, "reserve") {
		cfg.PlanQueue = "dedicated"
	}
	if rapid.Bool().Draw(t, "default") {
		cfg.DefaultModel = "t"
	}
	p, err := Compute(c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := Compute(c, cfg)
	if !reflect.DeepEqual(p, again) {
		t.Fatal("two plans of one cluster differ")
	}
	var pl Planner
	if _, err := pl.Compute(genCluster(t), cfg); err != nil {
		t.Fatal(err)
	}
	if q, _ := pl.Compute(c, cfg); !reflect.DeepEqual(p, q) {
		t.Fatalf("a Planner's plan after another cluster's differs:\n%v\n%v", p, q)
	}
	perm := c
	perm.Apps = rapid.Permutation(c.Apps).Draw(t, "perm")
	if q, _ := Compute(perm, cfg); !reflect.DeepEqual(p, q) {
		t.Fatalf("the plan depends on the order of the apps:\n%v\n%v", p, q)
	}
	state := map[string]string{}
	for _, a := range c.Apps {
		state[a.ID] = string(a.State)
	}
	rejected := map[string]bool{}
	for _, r := range p.Rejected {
		if !strings.HasPrefix(r.Reason, "reservation: ") {
			rejected[r.App] = true
		}
	}
	killed := map[string]bool{}
	for _, a := range p.Actions {
		if a.Kind == KindKill {
			killed[a.App] = true
		}
	}
	for _, a := range p.Actions {
		if rejected[a.App] {
			t.Fatalf("action on a rejected app: %v", a)
		}
		switch a.Kind {
		case KindKill, KindReport:
			if state[a.App] != rm.StateAccepted || a.Diagnostic == "" {
				t.Fatalf("kill of a %s app or without a diagnostic: %v", state[a.App], a)
			}
			if (a.Kind == KindKill) == cfg.ReportOnly {
				t.Fatalf("%s with ReportOnly %v", a.Kind, cfg.ReportOnly)
			}
		case KindPriority:
			if c.Scheduler != rm.SchedulerCapacity || a.Priority < cfg.MinPriority || a.Priority > cfg.MaxPriority || a.Priority == a.From || killed[a.App] {
				t.Fatalf("bad priority action %v (scheduler %s)", a, c.Scheduler)
			}
		case KindReserve, KindLifetime:
			if killed[a.App] || (a.Kind == KindReserve && (cfg.PlanQueue == "" || state[a.App] != rm.StateAccepted)) {
				t.Fatalf("bad %v", a)
			}
		case KindDeleteReservation:
			if cfg.PlanQueue == "" || c.Scheduler == rm.SchedulerFifo {
				t.Fatalf("deletion without reservations: %v", a)
			}
		}
	}
}

func TestComputeProperties(t *testing.T) { rapid.Check(t, propCompute) }
func FuzzCompute(f *testing.F)           { f.Fuzz(rapid.MakeFuzz(propCompute)) }
