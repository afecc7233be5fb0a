package xencredit

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// State is the whole scheduler: PCPUs with their run queues, domains and
// VCPUs, and the accounting totals. Build it with New; change it only
// through the event methods (Wake, Block, Tick, Account, Schedule), each of
// which takes the current time. Time is a time.Duration since the state's
// origin (time 0), so every sum is exact integer nanoseconds and CPU time
// is conserved to the nanosecond.
//
// A State holds slices: copy it with Clone, not by assignment. Run queues
// are preallocated, so no event allocates. The zero State has no PCPUs and
// every event on it returns an error.
type State struct {
	cfg        Config
	credits    int // Config.CreditsPerTimeslice
	doms       []domain
	vcpus      []vcpu
	pcpus      []pcpu
	activeDoms []int32 // Xen's active_sdom list, in order
	weight     int64   // W: Σ domain weight over active VCPUs
	balance    int64   // credit_balance at the last accounting
	epoch      uint64  // runq-sort epoch, bumped at each accounting
	now        time.Duration
}

type domain struct {
	weight, cap int
	background  bool
	first, n    int      // its VCPUs are first .. first+n-1
	active      int      // active VCPU count
	onList      bool     //
	aff         []uint64 // affinity bitset over PCPUs; nil: each VCPU pinned to its PCPU
}

type vcpu struct {
	dom, pcpu  int
	credit     int
	pri        Priority
	active     bool
	parked     bool
	blocked    bool
	raised     bool
	state      Runstate
	since      time.Duration // when it entered state
	times      [NumRunstates]time.Duration
	startTime  time.Duration // burn_credits start_time: absolute while running, an offset otherwise
	raisedRan  time.Duration // running time since the raise, up to the last deschedule
	guardStart time.Duration // start of the current guard period
	guardRan   time.Duration // total running time at guardStart
}

type pcpu struct {
	curr        int // running VCPU, -1 for idle
	runq        []int
	sliceEnd    time.Duration
	idle        time.Duration // idle time up to idleSince
	idleSince   time.Duration
	busy        time.Duration // running time of VCPUs on it, up to their last deschedule
	epoch       uint64        // accounting epoch of the last runq sort
	resched     bool          // a reschedule of its own is pending (during Account)
	reschedIdle bool          // it was tickled as an idler (during Account)
	lastTickle  int           // Xen's per-CPU last_tickle_cpu: where the idler search resumes
}

// New validates cfg and doms and returns a State at time 0 with every VCPU
// blocked, UNDER, credit 0 and inactive (Xen's csched_alloc_vdata), or
// BACKGROUND for a background domain, and every PCPU idle. Errors match
// ErrBadInput and name the field, e.g. "Domains[2].PCPUs[1]"; at most
// maxErrors (100) problems are joined, then the rest is not checked.
//
// New preallocates every run queue for all the VCPUs that may queue there
// (so that no event allocates): 8 bytes per VCPU on its PCPU when pinned,
// on every PCPU of its domain's Affinity otherwise, at most MaxRunQueues
// entries (32 MiB) in all. It takes O(VCPUs + Σ len(Affinity)) time.
func New(cfg Config, doms []Domain) (State, error) {
	if err := cfg.Validate(); err != nil {
		return State{}, err
	}
	var errs []error
	bad := func(field string, v float64, reason string) {
		errs = append(errs, &ValueError{Field: field, Value: v, Reason: reason})
	}
	if len(doms) == 0 {
		bad("Domains", 0, "need at least one domain")
	}
	if len(doms) > MaxVCPUs {
		// Each domain has a VCPU: refuse before reading (or reporting on)
		// any of them.
		return State{}, &ValueError{Field: "Domains", Value: len(doms), Reason: "more domains than MaxVCPUs (4096)"}
	}
	total, queue := 0, 0
	seen := make([]uint64, (cfg.PCPUs+63)/64) // PCPUs in the domain's Affinity so far
	for i, d := range doms {
		if len(errs) >= maxErrors {
			bad("Domains", float64(len(doms)), fmt.Sprintf("more than %d problems: the domains from %d on are not checked", maxErrors, i))
			break
		}
		f := fmt.Sprintf("Domains[%d]", i)
		minW := 1
		if d.Background {
			minW = 0
		}
		if d.Weight < minW || d.Weight > MaxWeight {
			bad(f+".Weight", float64(d.Weight), fmt.Sprintf("must be in %d..65535", minW))
		}
		if d.Cap < 0 || d.Cap > 100*cfg.PCPUs || (d.Background && d.Cap != 0) {
			bad(f+".Cap", float64(d.Cap), "must be in 0..100×PCPUs, and 0 for a background domain")
		}
		if len(d.PCPUs) == 0 {
			bad(f+".PCPUs", 0, "need at least one VCPU")
		}
		total += len(d.PCPUs)
		if total > MaxVCPUs {
			bad(f+".PCPUs", float64(total), "more than MaxVCPUs (4096) VCPUs in total")
			break
		}
		if len(d.Affinity) > cfg.PCPUs {
			bad(f+".Affinity", float64(len(d.Affinity)), "lists more PCPUs than the host has")
			continue
		}
		clear(seen)
		for j, p := range d.Affinity {
			switch {
			case p < 0 || p >= cfg.PCPUs:
				bad(fmt.Sprintf("%s.Affinity[%d]", f, j), float64(p), "no such PCPU")
			case seen[p/64]&(1<<(p%64)) != 0:
				bad(fmt.Sprintf("%s.Affinity[%d]", f, j), float64(p), "listed twice")
			default:
				seen[p/64] |= 1 << (p % 64)
			}
		}
		for j, p := range d.PCPUs {
			if p < 0 || p >= cfg.PCPUs {
				bad(fmt.Sprintf("%s.PCPUs[%d]", f, j), float64(p), "no such PCPU")
			} else if len(d.Affinity) > 0 && seen[p/64]&(1<<(p%64)) == 0 {
				bad(fmt.Sprintf("%s.PCPUs[%d]", f, j), float64(p), "not in the domain's Affinity")
			}
		}
		// The run queues hold every VCPU that may queue there: a pinned
		// VCPU on its PCPU, a domain with Affinity on each of its PCPUs.
		queue += len(d.PCPUs) * max(1, len(d.Affinity))
		if queue > MaxRunQueues {
			bad(f+".Affinity", float64(queue), "the run queues would hold more than MaxRunQueues (2^22) entries: Σ VCPUs × len(Affinity)")
			break
		}
	}
	if len(errs) > 0 {
		return State{}, errors.Join(errs...)
	}
	s := State{
		cfg:        cfg,
		credits:    cfg.CreditsPerTimeslice(),
		doms:       make([]domain, len(doms)),
		vcpus:      make([]vcpu, 0, total),
		pcpus:      make([]pcpu, cfg.PCPUs),
		activeDoms: make([]int32, 0, len(doms)),
	}
	perPCPU := make([]int, cfg.PCPUs) // VCPUs that can be queued there: the run queue's capacity
	for i, d := range doms {
		s.doms[i] = domain{weight: d.Weight, cap: d.Cap, background: d.Background, first: len(s.vcpus), n: len(d.PCPUs)}
		if len(d.Affinity) > 0 {
			aff := make([]uint64, (cfg.PCPUs+63)/64)
			for _, p := range d.Affinity {
				aff[p/64] |= 1 << (p % 64)
				perPCPU[p] += len(d.PCPUs)
			}
			s.doms[i].aff = aff
		}
		for _, p := range d.PCPUs {
			pri := Under
			if d.Background {
				pri = Background
			}
			s.vcpus = append(s.vcpus, vcpu{dom: i, pcpu: p, pri: pri, blocked: true, state: Blocked})
			if len(d.Affinity) == 0 {
				perPCPU[p]++
			}
		}
	}
	for p := range s.pcpus {
		s.pcpus[p] = pcpu{curr: -1, runq: make([]int, 0, perPCPU[p]), sliceEnd: Never}
	}
	return s, nil
}

// Clone returns a deep copy of s: events on one do not change the other.
func (s *State) Clone() State {
	c := *s
	c.doms = slices.Clone(s.doms)
	for i := range c.doms {
		c.doms[i].aff = slices.Clone(s.doms[i].aff)
	}
	c.vcpus = slices.Clone(s.vcpus)
	c.activeDoms = slices.Clone(s.activeDoms)
	c.pcpus = slices.Clone(s.pcpus)
	for p := range c.pcpus {
		q := make([]int, len(s.pcpus[p].runq), cap(s.pcpus[p].runq))
		copy(q, s.pcpus[p].runq)
		c.pcpus[p].runq = q
	}
	return c
}

// Config returns the configuration s was built with.
func (s *State) Config() Config { return s.cfg }

// Now is the time of the last event (0 for a new State).
func (s *State) Now() time.Duration { return s.now }

// NumVCPUs is the number of VCPUs over all domains, numbered in domain
// order (domain 0's VCPU 0 is VCPU 0).
func (s *State) NumVCPUs() int { return len(s.vcpus) }

// NumPCPUs is the number of physical CPUs.
func (s *State) NumPCPUs() int { return len(s.pcpus) }

// TotalWeight is W, the domain weight summed over active VCPUs.
func (s *State) TotalWeight() int64 { return s.weight }

// A VCPU is a snapshot of one virtual CPU, as of Now.
type VCPU struct {
	Domain     int
	PCPU       int
	Credit     int      // credits; a background VCPU's stays 0
	Priority   Priority // Background for a background VCPU unless Raised
	Active     bool     // on its domain's active list (earning credit)
	Parked     bool     // paused by its domain's cap
	Blocked    bool     // its guest does not want the CPU
	Raised     bool     // in a starvation slice (background only)
	Background bool
	State      Runstate
	// Times[r] is the total time spent in runstate r up to Now.
	Times [NumRunstates]time.Duration
}

// VCPU returns a snapshot of VCPU v, or a *ValueError if v is out of range.
func (s *State) VCPU(v int) (VCPU, error) {
	if err := s.checkVCPU(v); err != nil {
		return VCPU{}, err
	}
	x := &s.vcpus[v]
	out := VCPU{
		Domain: x.dom, PCPU: x.pcpu, Credit: x.credit, Priority: x.pri,
		Active: x.active, Parked: x.parked, Blocked: x.blocked, Raised: x.raised,
		Background: s.doms[x.dom].background, State: x.state, Times: x.times,
	}
	out.Times[x.state] += s.now - x.since
	return out, nil
}

// A PCPU is a snapshot of one physical CPU, as of Now.
type PCPU struct {
	Running  int           // VCPU running, -1 when idle
	SliceEnd time.Duration // when the caller should call Schedule; Never when idle
	Queued   int           // run queue length (idle VCPU not counted)
	Idle     time.Duration // total idle time up to Now
	Busy     time.Duration // total time VCPUs ran on it up to Now; Busy + Idle = Now
}

// PCPU returns a snapshot of PCPU p, or a *ValueError if p is out of range.
func (s *State) PCPU(p int) (PCPU, error) {
	if err := s.checkPCPU(p); err != nil {
		return PCPU{}, err
	}
	x := &s.pcpus[p]
	out := PCPU{Running: x.curr, SliceEnd: x.sliceEnd, Queued: len(x.runq), Idle: x.idle, Busy: x.busy}
	if x.curr < 0 {
		out.Idle += s.now - x.idleSince
	} else {
		out.Busy += s.now - s.vcpus[x.curr].since
	}
	return out, nil
}

// RunQueue appends PCPU p's run queue, head first, to buf and returns it.
func (s *State) RunQueue(p int, buf []int) ([]int, error) {
	if err := s.checkPCPU(p); err != nil {
		return buf, err
	}
	return append(buf, s.pcpus[p].runq...), nil
}

func (s *State) checkVCPU(v int) error {
	if v < 0 || v >= len(s.vcpus) {
		return &ValueError{Field: "vcpu", Value: v, Reason: fmt.Sprintf("no such VCPU (have %d)", len(s.vcpus))}
	}
	return nil
}

func (s *State) checkPCPU(p int) error {
	if p < 0 || p >= len(s.pcpus) {
		return &ValueError{Field: "pcpu", Value: p, Reason: fmt.Sprintf("no such PCPU (have %d)", len(s.pcpus))}
	}
	return nil
}

// setState moves v to runstate r at now, closing the time spent in the old one.
func (s *State) setState(v int, r Runstate) {
	x := &s.vcpus[v]
	x.times[x.state] += s.now - x.since
	if x.state == Running {
		s.pcpus[x.pcpu].busy += s.now - x.since
	}
	x.state, x.since = r, s.now
}

// ranTotal is v's running time up to now.
func (s *State) ranTotal(v int) time.Duration {
	x := &s.vcpus[v]
	t := x.times[Running]
	if x.state == Running {
		t += s.now - x.since
	}
	return t
}

// allowed reports whether VCPU v may run on PCPU p.
func (s *State) allowed(v, p int) bool {
	x := &s.vcpus[v]
	aff := s.doms[x.dom].aff
	if aff == nil {
		return p == x.pcpu
	}
	return aff[p/64]&(1<<(p%64)) != 0
}
