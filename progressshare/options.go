package progressshare

import (
	"errors"
	"fmt"

	"github.com/schedkit/schedkit/internal/enumname"
)

// A Locality is the data-locality level of a task on a slot (Table 4.3):
// where the replica it reads is stored relative to the slot's node.
type Locality int

// Locality levels, best first.
const (
	NodeLocal Locality = iota // a replica is on the slot's node
	RackLocal                 // a replica is on another node of the slot's rack
	Remote                    // every replica is in another rack
)

// String returns "node-local", "rack-local" or "remote" (Table 4.3), and
// "Locality(n)" for any other value.
func (l Locality) String() string { return enumname.Of(l, "Locality", localityNames[:]) }

var localityNames = [...]string{
	NodeLocal: "node-local",
	RackLocal: "rack-local",
	Remote:    "remote",
}

// Options tunes both pickers. The zero value is ready to use: reading a
// block costs nothing wherever it is (so task selection and Pref depend on
// computing rates only), Algorithm 2 launches at once (MaxDelay 0) and
// Algorithm 1 launches any locality at once (d1 = d2 = 0).
type Options struct {
	// ReadTime is Tr(s, r) of §4.3.1.2 as a step function of locality, in
	// seconds: ReadTime[NodeLocal], ReadTime[RackLocal], ReadTime[Remote].
	// Each must be in [0, MaxDuration] and they must not decrease from local to
	// remote.
	ReadTime [3]float64

	// MaxDelay is max_delay of Algorithm 2, in seconds, in [0, MaxDuration].
	// A task of job j is launched on slot s iff
	// 1 − Pref_{j,b}(s) ≤ delay(j)/MaxDelay. Zero disables waiting: the
	// chosen task is always launched.
	MaxDelay float64

	// RackDelay (d1) and RemoteDelay (d2) are the delay-scheduling
	// thresholds of the baseline, Algorithm 1, in seconds, in [0, MaxDuration],
	// with RackDelay ≤ RemoteDelay. A node-local task launches at once, a
	// rack-local one once delay(j) ≥ d1, a remote one once delay(j) ≥ d2.
	RackDelay, RemoteDelay float64

	// AffinityFactor turns on, in PickProgressShare, the affinity rule of
	// §4.3.1.4's prose ("if there is another job with a significantly
	// higher computing rate on the slot, the scheduler chooses that job"),
	// which Algorithm 2 omits. Zero, the zero value, turns it off: the
	// decisions are Algorithm 2's, bit for bit. Otherwise it is the factor
	// of "significantly", in [1, MaxRate]: the job Algorithm 2 picks is
	// passed over for another job whose relative rate on the slot (see
	// RelativeRate) is at least AffinityFactor times its own. See the
	// package doc for what the rule gains and what it gives up.
	AffinityFactor float64

	// AffinityBounded limits the affinity rule to jobs that do not need
	// the slot: the picked job is passed over only while it already runs
	// at least its slot share, the number of slots the slot-share fair
	// scheduler (Algorithm 1) gives it, its weighted max-min fair share of
	// the slots over the jobs' demands (see PickProgressShare). The rule
	// then never takes a slot from a job below what slot share would give
	// it. It needs AffinityFactor ≥ 1.
	AffinityBounded bool
}

func (o Options) validate() error {
	var errs []error
	check := func(field string, v float64) {
		if !(v >= 0 && v <= MaxDuration) {
			errs = append(errs, &ValueError{Field: field, Value: v, Reason: "must be in [0, MaxDuration] seconds"})
		}
	}
	for i, v := range o.ReadTime {
		check(fmt.Sprintf("Options.ReadTime[%d]", i), v)
	}
	check("Options.MaxDelay", o.MaxDelay)
	check("Options.RackDelay", o.RackDelay)
	check("Options.RemoteDelay", o.RemoteDelay)
	if f := o.AffinityFactor; f != 0 && !(f >= 1 && f <= MaxRate) {
		errs = append(errs, &ValueError{Field: "Options.AffinityFactor", Value: f, Reason: "must be 0 (off) or in [1, MaxRate]"})
	}
	if o.AffinityBounded && o.AffinityFactor == 0 {
		errs = append(errs, &ValueError{Field: "Options.AffinityBounded", Value: 1, Reason: "needs AffinityFactor in [1, MaxRate]; it is 0 (off)"})
	}
	if len(errs) == 0 {
		if o.ReadTime[RackLocal] < o.ReadTime[NodeLocal] {
			errs = append(errs, &ValueError{Field: "Options.ReadTime[1]", Value: o.ReadTime[1], Reason: "rack-local read must not be faster than node-local"})
		}
		if o.ReadTime[Remote] < o.ReadTime[RackLocal] {
			errs = append(errs, &ValueError{Field: "Options.ReadTime[2]", Value: o.ReadTime[2], Reason: "remote read must not be faster than rack-local"})
		}
		if o.RemoteDelay < o.RackDelay {
			errs = append(errs, &ValueError{Field: "Options.RemoteDelay", Value: o.RemoteDelay, Reason: "must be at least RackDelay"})
		}
	}
	return errors.Join(errs...)
}
