package placement

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// InstanceType is one row of Lee thesis Table 4.1: a cloud instance type a
// cluster can be built from.
type InstanceType struct {
	Name         string  // e.g. "m1.large"; only for display
	PricePerHour float64 // dollars per started billing hour, > 0
	DiskGB       float64 // local storage, ≥ 0; decides how many core nodes hold the data
	Cores        int     // virtual cores, ≥ 0 (informational)
	ComputeUnits float64 // EC2 compute units, ≥ 0 (informational; a default computing rate)
	MemoryGB     float64 // informational
}

// EC2June2011 returns Lee thesis Table 4.1, the EC2 instance types and prices
// of June 2011, as a new slice the caller may modify.
func EC2June2011() []InstanceType {
	return []InstanceType{
		{"m1.small", 0.085, 160, 1, 1, 1.7},
		{"m1.large", 0.340, 850, 2, 4, 7.5},
		{"m1.xlarge", 0.680, 1690, 4, 8, 15},
		{"m2.xlarge", 0.500, 420, 2, 6.5, 17.1},
		{"m2.2xlarge", 1.000, 850, 4, 13, 34.2},
		{"m2.4xlarge", 2.000, 1690, 8, 26, 68.4},
		{"c1.medium", 0.170, 350, 2, 5, 1.7},
		{"c1.xlarge", 0.680, 1690, 8, 20, 7},
		{"cc1.4xlarge", 1.600, 1690, 8, 33.5, 23},
		{"cg1.4xlarge", 2.100, 1690, 8, 33.5, 23},
	}
}

// PoolJob is one periodic production job of Lee thesis §4.2 for pool sizing.
type PoolJob struct {
	// Work is the job's work per period in work units, > 0 is usual; 0 is
	// allowed (nothing to do).
	Work float64
	// Rates[i] is the computing rate CR(i, j) of instance type i for this job
	// (§4.2, "job affinity"): work units one instance of type i processes per
	// hour. len(Rates) must equal len(PoolProblem.Types). A rate of 0 means
	// the job cannot run on that type (for example a GPU-only job).
	Rates []float64
}

// PoolProblem describes the core/accelerator pool decision of the Lee thesis
// §4.2 and §4.4.1: a core pool sized by storage that is billed for the whole
// period, and an accelerator pool of one instance type billed by the started
// hour only until the period's production work is done.
type PoolProblem struct {
	// Types are the instance types to choose from (Table 4.1).
	Types []InstanceType
	// StorageGB is the data the core pool must store, ≥ 0. The core type is
	// the type whose ceil(StorageGB/DiskGB)·PricePerHour is least (ties:
	// lower index); types with DiskGB = 0 cannot be the core type.
	StorageGB float64
	// MinCoreNodes is a floor on the core pool size, in [0, 2^20] (HDFS
	// needs at least a few nodes); the storage rule may ask for more.
	MinCoreNodes int
	// Jobs is the production work that arrives at the start of each period.
	Jobs []PoolJob
	// DeadlineHours is when, from the start of the period, all Jobs must be
	// done; in (0, PeriodHours].
	DeadlineHours float64
	// PeriodHours is the billing horizon of one round (4 h in §4.4.1), > 0.
	// Core nodes are billed for ceil(PeriodHours) hours.
	PeriodHours float64
	// MaxAccelerators bounds the accelerator count searched, ≥ 0; zero
	// means 64.
	MaxAccelerators int
	// MaxExtraCoreNodes bounds how many core nodes beyond the storage size
	// are searched as the core-only alternative ("9 m1" in §4.4.1), ≥ 0;
	// zero means 64.
	MaxExtraCoreNodes int
}

// PoolPlan is one cluster configuration and its cost for one period.
type PoolPlan struct {
	CoreType   int // index into PoolProblem.Types
	CoreNodes  int // core pool size
	AccelType  int // index into PoolProblem.Types; -1 when AccelNodes = 0
	AccelNodes int // accelerator pool size, 0 for none
	// FinishHours is the fluid completion time of all jobs on this cluster
	// (see PoolFinishHours); +Inf when some job can run nowhere.
	FinishHours float64
	// AccelBilledHours is ceil(FinishHours), the started hours the
	// accelerators are paid for; 0 without accelerators.
	AccelBilledHours int
	// Cost is CoreNodes·price·ceil(PeriodHours) + AccelNodes·price·AccelBilledHours,
	// in dollars; +Inf if that overflows float64 (never NaN).
	Cost float64
	// MeetsDeadline reports FinishHours ≤ DeadlineHours.
	MeetsDeadline bool
}

// String formats the plan like the thesis: "5 m1.large + 4 c1.medium: $8.84".
func (p PoolPlan) String(types []InstanceType) string {
	name := func(i int) string {
		if i >= 0 && i < len(types) {
			return types[i].Name
		}
		return fmt.Sprintf("type%d", i)
	}
	s := fmt.Sprintf("%d %s", p.CoreNodes, name(p.CoreType))
	if p.AccelNodes > 0 {
		s += fmt.Sprintf(" + %d %s", p.AccelNodes, name(p.AccelType))
	}
	return fmt.Sprintf("%s: $%.2f, done in %.2f h", s, p.Cost, p.FinishHours)
}

const defaultPoolSearch = 64

// Limits on the sizes a PoolProblem's caller controls, checked before any
// work. PlanPools evaluates C = MaxExtraCoreNodes + 1 +
// len(Types)·MaxAccelerators candidate clusters, each a bisection of about
// 45 steps over the jobs, so its time grows with C·len(Jobs); MaxPoolSearch
// bounds it.
const (
	// MaxPoolTypes bounds len(PoolProblem.Types) and the types given to
	// PoolFinishHours (Table 4.1 has 10).
	MaxPoolTypes = 1024
	// MaxPoolJobs bounds len(PoolProblem.Jobs) and the jobs given to
	// PoolFinishHours.
	MaxPoolJobs = 1 << 16
	// MaxPoolNodes bounds PoolProblem.MaxAccelerators and MaxExtraCoreNodes.
	MaxPoolNodes = 1 << 16
	// MaxCoreNodes bounds PoolProblem.MinCoreNodes, the core pool the
	// storage rule may ask for, and the node counts EvaluatePools takes.
	MaxCoreNodes = 1 << 20
	// MaxPoolSearch bounds PlanPools's work: C·(len(Jobs) + 8), with the
	// defaults of 64 applied to MaxAccelerators and MaxExtraCoreNodes, must
	// not exceed it (the 8 stands for a bisection step's fixed cost). With
	// 10 types, 100 jobs and MaxExtraCoreNodes 64, MaxAccelerators may be up
	// to 1,935; with one type and one job, both maxima may be 65,536. The
	// package doc gives the time at the limit.
	MaxPoolSearch = 1 << 21
)

func (p *PoolProblem) validate() error {
	if len(p.Types) == 0 || len(p.Types) > MaxPoolTypes {
		return &ValueError{Field: "len(PoolProblem.Types)", Value: len(p.Types), Reason: fmt.Sprintf("must be in [1, %d]", MaxPoolTypes)}
	}
	if len(p.Jobs) > MaxPoolJobs {
		return &ValueError{Field: "len(PoolProblem.Jobs)", Value: len(p.Jobs), Reason: fmt.Sprintf("must be at most %d", MaxPoolJobs)}
	}
	for i, t := range p.Types {
		if !(t.PricePerHour > 0) || math.IsInf(t.PricePerHour, 0) {
			return &ValueError{Field: fmt.Sprintf("Types[%d].PricePerHour", i), Value: t.PricePerHour, Reason: "must be finite and > 0"}
		}
		if !(t.DiskGB >= 0) || math.IsInf(t.DiskGB, 0) {
			return &ValueError{Field: fmt.Sprintf("Types[%d].DiskGB", i), Value: t.DiskGB, Reason: "must be finite and ≥ 0"}
		}
	}
	if !(p.StorageGB >= 0) || math.IsInf(p.StorageGB, 0) {
		return &ValueError{Field: "PoolProblem.StorageGB", Value: p.StorageGB, Reason: "must be finite and ≥ 0"}
	}
	if p.MinCoreNodes < 0 || p.MinCoreNodes > MaxCoreNodes {
		return &ValueError{Field: "PoolProblem.MinCoreNodes", Value: p.MinCoreNodes, Reason: "must be in [0, 2^20]"}
	}
	if p.MaxAccelerators < 0 || p.MaxAccelerators > MaxPoolNodes {
		return &ValueError{Field: "PoolProblem.MaxAccelerators", Value: p.MaxAccelerators, Reason: "must be in [0, 65536]"}
	}
	if p.MaxExtraCoreNodes < 0 || p.MaxExtraCoreNodes > MaxPoolNodes {
		return &ValueError{Field: "PoolProblem.MaxExtraCoreNodes", Value: p.MaxExtraCoreNodes, Reason: "must be in [0, 65536]"}
	}
	if !(p.PeriodHours > 0) || p.PeriodHours > 1e6 {
		return &ValueError{Field: "PoolProblem.PeriodHours", Value: p.PeriodHours, Reason: "must be in (0, 1e6]"}
	}
	if !(p.DeadlineHours > 0) || p.DeadlineHours > p.PeriodHours {
		return &ValueError{Field: "PoolProblem.DeadlineHours", Value: p.DeadlineHours, Reason: "must be in (0, PeriodHours]"}
	}
	return validatePoolJobs(p.Jobs, len(p.Types))
}

func validatePoolJobs(jobs []PoolJob, nTypes int) error {
	for j, job := range jobs {
		if !(job.Work >= 0) || math.IsInf(job.Work, 0) {
			return &ValueError{Field: fmt.Sprintf("Jobs[%d].Work", j), Value: job.Work, Reason: "must be finite and ≥ 0"}
		}
		if len(job.Rates) != nTypes {
			return &ValueError{Field: fmt.Sprintf("len(Jobs[%d].Rates)", j), Value: len(job.Rates), Reason: fmt.Sprintf("must equal len(Types) = %d", nTypes)}
		}
		for i, r := range job.Rates {
			if !(r >= 0) || math.IsInf(r, 0) {
				return &ValueError{Field: fmt.Sprintf("Jobs[%d].Rates[%d]", j, i), Value: r, Reason: "must be finite and ≥ 0"}
			}
		}
	}
	return nil
}

// CoreNodesForStorage returns the core type and count of Lee thesis §4.2:
// the number of core nodes "is determined primarily based on the required
// storage size". Among types with DiskGB > 0 it picks the one whose
// max(MinCoreNodes, ceil(StorageGB/DiskGB))·PricePerHour is least (ties: lower
// index). With StorageGB = 0 and MinCoreNodes = 0 it returns the cheapest type
// and 0 nodes. It returns an error if no type has disk.
func CoreNodesForStorage(p PoolProblem) (coreType, coreNodes int, err error) {
	if err := p.validate(); err != nil {
		return 0, 0, err
	}
	return coreForStorage(&p)
}

func coreForStorage(p *PoolProblem) (int, int, error) {
	best, bestN, bestCost := -1, 0, math.Inf(1)
	for i, t := range p.Types {
		if !(t.DiskGB > 0) {
			continue
		}
		need := math.Ceil(p.StorageGB / t.DiskGB)
		if need > MaxCoreNodes {
			continue
		}
		n := max(int(need), p.MinCoreNodes)
		if c := float64(n) * t.PricePerHour; c < bestCost {
			best, bestN, bestCost = i, n, c
		}
	}
	if best < 0 {
		return 0, 0, &ValueError{Field: "PoolProblem.Types", Value: len(p.Types), Reason: "no type has DiskGB > 0 (with a node count ≤ 2^20) to hold StorageGB"}
	}
	return best, bestN, nil
}

// PoolFinishHours returns the time, in hours, at which a cluster of coreNodes
// instances of coreType and accelNodes instances of accelType finishes jobs
// that all start at time 0, under the fluid model: tasks are small enough
// that every job's work can be split between the two pools in any proportion,
// and an instance of type i processes job j at Rates[i] work units per hour.
//
// The makespan is minimised exactly: for a candidate time T the accelerators
// (T·accelNodes instance-hours) take work in decreasing order of comparative
// advantage Rates[accel]/Rates[core] (a fractional knapsack, optimal for two
// machine groups), the core pool must absorb the rest in T·coreNodes; the
// least feasible T is found by bisection to a relative 1e-13. It returns 0
// when there is no work and +Inf when a job with work has rate 0 on every
// node present (or when the makespan overflows float64). Jobs with no work
// are ignored, whatever their rates. When accelNodes = 0, accelType is
// ignored.
func PoolFinishHours(types []InstanceType, jobs []PoolJob, coreType, coreNodes, accelType, accelNodes int) (float64, error) {
	if len(types) > MaxPoolTypes {
		return 0, &ValueError{Field: "len(types)", Value: len(types), Reason: fmt.Sprintf("must be at most %d", MaxPoolTypes)}
	}
	if len(jobs) > MaxPoolJobs {
		return 0, &ValueError{Field: "len(jobs)", Value: len(jobs), Reason: fmt.Sprintf("must be at most %d", MaxPoolJobs)}
	}
	if err := validatePoolConfig(len(types), coreType, coreNodes, accelType, accelNodes, math.MaxInt); err != nil {
		return 0, err
	}
	if err := validatePoolJobs(jobs, len(types)); err != nil {
		return 0, err
	}
	if accelNodes == 0 {
		accelType = coreType
	}
	order := poolOrder(jobs, coreType, accelType, accelNodes > 0, make([]int, 0, len(jobs)))
	return finishHours(jobs, coreType, coreNodes, accelType, accelNodes, order), nil
}

// validatePoolConfig checks one cluster configuration: type indices into
// nTypes types (the accelerator type only when accelNodes > 0) and node
// counts in [0, maxNodes].
func validatePoolConfig(nTypes, coreType, coreNodes, accelType, accelNodes, maxNodes int) error {
	for _, c := range [...]struct {
		field string
		n     int
	}{{"coreNodes", coreNodes}, {"accelNodes", accelNodes}} {
		if c.n < 0 || c.n > maxNodes {
			return &ValueError{Field: c.field, Value: c.n, Reason: fmt.Sprintf("must be in [0, %d]", maxNodes)}
		}
	}
	if coreType < 0 || coreType >= nTypes {
		return &ValueError{Field: "coreType", Value: coreType, Reason: fmt.Sprintf("must index Types (len %d)", nTypes)}
	}
	if accelNodes > 0 && (accelType < 0 || accelType >= nTypes) {
		return &ValueError{Field: "accelType", Value: accelType, Reason: fmt.Sprintf("must index Types (len %d)", nTypes)}
	}
	return nil
}

// poolOrder returns, in order[:0], the jobs with work in the order the
// accelerators take them: with accelerators (accel), decreasing comparative
// advantage Rates[at]/Rates[ct] (a job the core type cannot run first, +Inf;
// ties by job index); without, job index order. The order does not depend
// on the node counts, so PlanPools computes it once per accelerator type.
func poolOrder(jobs []PoolJob, ct, at int, accel bool, order []int) []int {
	// Only jobs with work enter the order: an idle job may have no rate
	// anywhere, and its ratio would be 0/0.
	order = order[:0]
	for j := range jobs {
		if jobs[j].Work != 0 {
			order = append(order, j)
		}
	}
	if !accel {
		return order
	}
	adv := func(j int) float64 {
		c := jobs[j].Rates[ct]
		if c == 0 {
			return math.Inf(1)
		}
		return jobs[j].Rates[at] / c
	}
	// c == 0 gives +Inf, c > 0 a finite ratio: no NaN, so this is a strict
	// weak order.
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(adv(b), adv(a)), cmp.Compare(a, b))
	})
	return order
}

// finishHours is PoolFinishHours on validated input, with order from
// poolOrder(jobs, ct, at, na > 0, …) (at = ct when na = 0).
func finishHours(jobs []PoolJob, ct, nc, at, na int, order []int) float64 {
	if na == 0 {
		at = ct
	}
	rc := func(j int) float64 { return jobs[j].Rates[ct] * float64(nc) }
	ra := func(j int) float64 {
		if na == 0 {
			return 0
		}
		return jobs[j].Rates[at] * float64(na)
	}
	// Upper bound: every job on whichever pool is faster for it, in turn,
	// summed in job index order.
	hi := 0.0
	for j := range jobs {
		w := jobs[j].Work
		if w == 0 {
			continue
		}
		r := max(rc(j), ra(j))
		if r == 0 {
			return math.Inf(1)
		}
		hi += w / r
	}
	if hi == 0 {
		return 0
	}
	feasible := func(T float64) bool {
		accel := T // accelerator pool time left, hours of the whole pool
		core := T
		for _, j := range order {
			w := jobs[j].Work
			if a := ra(j); a > 0 && accel > 0 {
				take := min(w, accel*a)
				accel -= take / a
				w -= take
			}
			if w > 0 {
				c := rc(j)
				if c == 0 {
					return false
				}
				core -= w / c
			}
		}
		return core >= 0
	}
	lo := 0.0
	for range 200 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if feasible(mid) {
			hi = mid
		} else {
			lo = mid
		}
		if hi-lo <= 1e-13*hi {
			break
		}
	}
	return hi
}

// EvaluatePools returns the plan for a given configuration: its fluid finish
// time, billed hours and cost for one period (Lee thesis §4.4.1; "5m1+4c1"
// is coreNodes 5 of m1.large, accelNodes 4 of c1.medium). coreNodes is taken
// as given (not from storage).
func EvaluatePools(p PoolProblem, coreType, coreNodes, accelType, accelNodes int) (PoolPlan, error) {
	if err := p.validate(); err != nil {
		return PoolPlan{}, err
	}
	if err := validatePoolConfig(len(p.Types), coreType, coreNodes, accelType, accelNodes, MaxCoreNodes); err != nil {
		return PoolPlan{}, err
	}
	at := accelType
	if accelNodes == 0 {
		at = coreType
	}
	order := poolOrder(p.Jobs, coreType, at, accelNodes > 0, make([]int, 0, len(p.Jobs)))
	return evaluatePools(&p, coreType, coreNodes, accelType, accelNodes, order), nil
}

// evaluatePools is EvaluatePools on validated input, with order from
// poolOrder for the configuration.
func evaluatePools(p *PoolProblem, ct, nc, at, na int, order []int) PoolPlan {
	if na == 0 {
		at = -1
	}
	plan := PoolPlan{CoreType: ct, CoreNodes: nc, AccelType: at, AccelNodes: na}
	plan.FinishHours = finishHours(p.Jobs, ct, nc, at, na, order)
	plan.MeetsDeadline = plan.FinishHours <= p.DeadlineHours
	plan.Cost = float64(nc) * p.Types[ct].PricePerHour * math.Ceil(p.PeriodHours)
	if na > 0 {
		billed := math.Ceil(plan.FinishHours)
		if math.IsInf(billed, 0) || billed > 1<<30 {
			billed = 1 << 30
		}
		plan.AccelBilledHours = int(billed)
		// billed first: with nothing to do (0 h) the term is 0 even when
		// na·price overflows, instead of Inf·0 = NaN.
		plan.Cost += billed * p.Types[at].PricePerHour * float64(na)
	}
	return plan
}

// PlanPools chooses the cheapest cluster for one period that finishes the
// production work by the deadline (Lee thesis §4.2): the core pool is sized
// by storage (CoreNodesForStorage); the candidates are the core pool alone,
// the core pool grown by up to MaxExtraCoreNodes nodes of the core type (the
// "9 m1" alternative of §4.4.1), and the core pool plus 1..MaxAccelerators
// accelerators of any one type, billed by the started hour until done.
//
// Ties in cost are broken by fewer nodes in all, then earlier finish, then
// lower accelerator type index. If no candidate meets the deadline, the
// returned plan is the fastest one searched, with MeetsDeadline false; that
// is a result, not an error. The only errors are for bad input, including a
// search larger than MaxPoolSearch.
//
// Cost: (MaxExtraCoreNodes + 1 + len(Types)·MaxAccelerators) candidates,
// each a bisection of about 45 steps over the jobs, so time grows with that
// count times len(Jobs), which MaxPoolSearch bounds (BenchmarkPlanPoolsAtLimit
// in the package doc gives the time at the bound); memory is one slice of len(Jobs) ints and one
// allocation, whatever the sizes.
func PlanPools(p PoolProblem) (PoolPlan, error) {
	if err := p.validate(); err != nil {
		return PoolPlan{}, err
	}
	maxAccel := cmp.Or(p.MaxAccelerators, defaultPoolSearch)
	maxExtra := cmp.Or(p.MaxExtraCoreNodes, defaultPoolSearch)
	// Each factor is bounded (65537 + 1024·65536 candidates, 65536 jobs), so
	// the product fits an int64.
	if work := (maxExtra + 1 + len(p.Types)*maxAccel) * (len(p.Jobs) + 8); work > MaxPoolSearch {
		return PoolPlan{}, &ValueError{
			Field:  "(MaxExtraCoreNodes+1+len(Types)·MaxAccelerators)·(len(Jobs)+8)",
			Value:  work,
			Reason: fmt.Sprintf("must be at most MaxPoolSearch = %d: lower MaxAccelerators, MaxExtraCoreNodes, the Types or the Jobs", MaxPoolSearch),
		}
	}
	ct, nc, err := coreForStorage(&p)
	if err != nil {
		return PoolPlan{}, err
	}
	order := poolOrder(p.Jobs, ct, ct, false, make([]int, 0, len(p.Jobs)))
	var best, fastest PoolPlan
	haveBest, haveFastest := false, false
	consider := func(plan PoolPlan) {
		if !haveFastest || plan.FinishHours < fastest.FinishHours {
			fastest, haveFastest = plan, true
		}
		if !plan.MeetsDeadline {
			return
		}
		if !haveBest || cmp.Or(
			cmp.Compare(plan.Cost, best.Cost),
			cmp.Compare(plan.CoreNodes+plan.AccelNodes, best.CoreNodes+best.AccelNodes),
			cmp.Compare(plan.FinishHours, best.FinishHours),
			cmp.Compare(plan.AccelType, best.AccelType),
		) < 0 {
			best, haveBest = plan, true
		}
	}
	for extra := 0; extra <= maxExtra; extra++ {
		consider(evaluatePools(&p, ct, nc+extra, -1, 0, order))
	}
	for at := range p.Types {
		order = poolOrder(p.Jobs, ct, at, true, order)
		for na := 1; na <= maxAccel; na++ {
			consider(evaluatePools(&p, ct, nc, at, na, order))
		}
	}
	if haveBest {
		return best, nil
	}
	return fastest, nil
}
