package deadline

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/schedkit/schedkit/adapters/internal/annotation"
	"github.com/schedkit/schedkit/adapters/yarn/trace"
	"github.com/schedkit/schedkit/tct/jct"
)

// Orders of the priority ranking.
const (
	// OrderMP ranks with MIMP's Maximum Progress picker (MIMP §5.2):
	// apps at risk of missing their deadline on the containers they hold
	// first, by deadline, then the others by deadline.
	OrderMP = "mp"
	// OrderEDF ranks by deadline alone (MIMP §5.2 EDF).
	OrderEDF = "edf"
)

// Config is the controller's policy. Validate checks it.
type Config struct {
	// Catalog holds the job-type models apps refer to.
	Catalog trace.Catalog
	// DefaultModel is the job type of a deadline app without a
	// schedkit.io/job-type tag; "" means such an app is rejected.
	DefaultModel string
	// Order is OrderMP or OrderEDF.
	Order string
	// MinPriority and MaxPriority bound the YARN priorities written: the
	// first app in the ranking gets MaxPriority, each next one 1 less,
	// none less than MinPriority. MaxPriority should not exceed the
	// cluster's yarn.cluster.max-application-priority, at which the
	// Capacity Scheduler caps it.
	MinPriority, MaxPriority int64
	// ContainerMB and ContainerVCores are the size of one task container:
	// a node's slots are how many fit its memory and cores, and a
	// reservation asks for containers of this size.
	ContainerMB, ContainerVCores int64
	// ReportOnly reports an ACCEPTED app that cannot meet its deadline
	// instead of killing it.
	ReportOnly bool
	// PlanQueue is the reservable queue of the ReservationSystem; "" turns
	// reservations off.
	PlanQueue string
	// Confidence is the probability with which a reservation must let its
	// app meet the deadline (jct.WorkersFor), in (0, 1).
	Confidence float64
	// Runs and Seed set the Monte-Carlo predictions behind a reservation
	// (jct.Options); equal seeds give equal plans.
	Runs int
	Seed uint64
	// Lifetime, when true, sets each deadline app's LIFETIME timeout to its
	// deadline plus LifetimeGrace, so that YARN itself kills an app that
	// overruns it.
	Lifetime      bool
	LifetimeGrace time.Duration
}

// DefaultConfig returns the defaults the command line starts from.
func DefaultConfig() Config {
	return Config{Order: OrderMP, MinPriority: 0, MaxPriority: 10, ContainerMB: 1024, ContainerVCores: 1,
		Confidence: 0.9, Runs: 500, Seed: 1}
}

// Validate returns every problem with c, joined; each names the field and
// its range.
func (c Config) Validate() error {
	var errs []error
	bad := func(field string, v any, want string) {
		errs = append(errs, fmt.Errorf("deadline: Config.%s = %v: %s", field, v, want))
	}
	if c.Order != OrderMP && c.Order != OrderEDF {
		bad("Order", fmt.Sprintf("%q", c.Order), `must be "mp" or "edf"`)
	}
	if c.MinPriority < 0 {
		bad("MinPriority", c.MinPriority, "must be ≥ 0")
	}
	if c.MaxPriority < c.MinPriority {
		bad("MaxPriority", c.MaxPriority, fmt.Sprintf("must be ≥ MinPriority (%d)", c.MinPriority))
	}
	if c.ContainerMB < 1 {
		bad("ContainerMB", c.ContainerMB, "must be ≥ 1")
	}
	if c.ContainerVCores < 1 {
		bad("ContainerVCores", c.ContainerVCores, "must be ≥ 1")
	}
	if !(c.Confidence > 0 && c.Confidence < 1) {
		bad("Confidence", c.Confidence, "must be in (0, 1)")
	}
	if c.Runs < 1 || c.Runs > jct.MaxRuns {
		bad("Runs", c.Runs, fmt.Sprintf("must be in [1, %d]", jct.MaxRuns))
	}
	if c.LifetimeGrace < 0 || c.LifetimeGrace > annotation.MaxDuration {
		bad("LifetimeGrace", c.LifetimeGrace, fmt.Sprintf("must be in [0, %v]", annotation.MaxDuration))
	}
	if c.DefaultModel != "" {
		if _, ok := c.Catalog.Lookup(c.DefaultModel); !ok {
			bad("DefaultModel", fmt.Sprintf("%q", c.DefaultModel), "is not a job type of the catalog")
		}
	}
	for _, t := range c.Catalog.Types {
		if err := t.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// msToS converts a span in milliseconds to seconds.
func msToS(ms int64) float64 { return float64(ms) / 1000 }

// sToMs converts seconds to whole milliseconds, rounding up.
func sToMs(s float64) int64 { return int64(math.Ceil(s * 1000)) }
