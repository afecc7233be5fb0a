package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/schedkit/schedkit/examples/internal/des"
	"github.com/schedkit/schedkit/xencredit"
)

// The host set-ups of MIMP Table 1 and Fig. 5.
const (
	Alone  = "alone"  // the interactive VM alone on the host
	Credit = "credit" // stock credit, batch VM at the minimum weight (1)
	MI     = "mi"     // MIMP's MI scheduler, batch VM in the background class
)

// How the VMs' VCPUs are pinned (Scenario.Pinning).
const (
	// PinVM gives every VCPU of a VM the shared cores as its affinity, as
	// "xl vcpu-pin DOM all 0-1" or a cpus="0-1" line does (MIMP §6.1 pins
	// each VM to the shared cores); Xen 4.2 moves the VCPUs between them.
	PinVM = "vm"
	// PinVCPU pins VCPU j of every VM to shared core j mod PCPUs: no VCPU
	// ever moves.
	PinVCPU = "vcpu"
)

// Limits on the work of one Simulate call: the expected events per
// simulated second (EventRate) and in the whole run. At about 100 ns of CPU
// per event, the larger is a few minutes of CPU.
const (
	MaxEventRate = 1e6 // events per simulated second
	MaxEvents    = 1e9 // events per run
)

// Scenario is the simulated host and workload. All times are exact
// time.Durations; the event queue carries them as float64 seconds, which
// round-trip exactly for runs far longer than a day.
type Scenario struct {
	PCPUs       int           // physical cores shared by the VMs (2)
	HostPCPUs   int           // physical cores of the host (4), all in Xen's credit pool: C = HostPCPUs×300
	VCPUs       int           // VCPUs per VM (2, as in MIMP §6.1), VCPU j placed on PCPU j mod PCPUs
	Pinning     string        // PinVM (default) or PinVCPU
	Interactive int           // interactive VMs (1); statistics are for the first
	Batch       int           // CPU-bound batch VMs (1; 0 under Alone)
	Duration    time.Duration // simulated time per run
	Bursts      int           // CPU bursts per request, with an IO wait between two
	BurstMean   time.Duration // mean CPU burst (exponential)
	IOMean      time.Duration // mean IO wait between bursts (exponential)
	Weight      int           // interactive VM weight (Xen default 256)
	BatchWeight int           // batch VM weight under Credit (1, the minimum)
	// BatchBurst is the mean CPU time a batch VCPU runs between IO waits
	// (exponential; counted only while it runs); 0 = it never blocks.
	BatchBurst time.Duration
	BatchIO    time.Duration // mean IO wait of a batch VCPU (exponential)
	// Clients > 0 makes arrivals a closed loop, like TPC-W's emulated
	// browsers: each client thinks for an exponential Think, sends a
	// request, waits for the response, and thinks again. The rate argument
	// of Simulate is then ignored and Result.Rate is the throughput.
	Clients     int
	Think       time.Duration
	GuardPeriod time.Duration // MI starvation guard p
	GuardExec   time.Duration // MI starvation guard e
	// Ratelimit is Xen's sched_ratelimit_us (4.2 default 1 ms; 0 turns it
	// off, as Xen master allows).
	Ratelimit time.Duration
	// RatelimitDelaysBackground: under MI, the ratelimit keeps a running
	// background VCPU that has run less than Ratelimit when a regular VCPU
	// wakes, as the MIMP prototype's Xen 4.2.1 code does (true, the
	// default). False exempts it, as MIMP §4.2's "always be able to
	// preempt a background VM" reads.
	RatelimitDelaysBackground bool
	// ActivateAtHead: a domain that becomes active joins the head of the
	// credit scheduler's active-domain list, as Xen's code does (true, the
	// default); false: the tail (xencredit's DefaultConfig). See
	// xencredit.Config.ActivateAtHead.
	ActivateAtHead bool
	// Dom0 is the number of Dom0 VCPUs (weight 256, Xen's default) pinned
	// one each to the host's cores beyond PCPUs, that never block: the
	// most Dom0 can weigh in the credit accounting (MIMP §6.1 gives Dom0
	// "the server's remaining cores"). 0 by default: Dom0 idle, absent
	// from the total weight, as if it had no work.
	Dom0 int
}

// DefaultScenario is MIMP Table 1's set-up: one TPC-W-like VM and one Word
// Count-like VM, 2 VCPUs each, pinned to 2 shared cores of a 4-core host,
// 600 closed-loop clients with TPC-W's 7 s mean think time, for 850 s
// (Table 1's 1700 VCPU-seconds over 2 VCPUs). A request needs 4 bursts of
// 2 ms of CPU with 5 ms IO waits between them: about 8 ms of CPU and 24 ms
// of response time alone, so 600 clients (85 requests/s) use 0.69 cores,
// as Table 1's 606 s running in 850 s does.
func DefaultScenario() Scenario {
	return Scenario{
		PCPUs: 2, HostPCPUs: 4, VCPUs: 2, Pinning: PinVM, Interactive: 1, Batch: 1,
		Ratelimit: time.Millisecond, RatelimitDelaysBackground: true, ActivateAtHead: true,
		Duration: 850 * time.Second,
		Clients:  600, Think: 7 * time.Second,
		Bursts: 4, BurstMean: 2 * time.Millisecond, IOMean: 5 * time.Millisecond,
		Weight: 256, BatchWeight: 1,
		GuardPeriod: time.Second, GuardExec: 10 * time.Millisecond,
	}
}

// Validate reports the first bad field.
func (sc Scenario) Validate() error {
	bad := func(f string, v any) error { return fmt.Errorf("scenario: %s = %v out of range", f, v) }
	switch {
	case sc.PCPUs < 1 || sc.PCPUs > 64:
		return bad("PCPUs", sc.PCPUs)
	case sc.HostPCPUs < sc.PCPUs || sc.HostPCPUs > 1024:
		return bad("HostPCPUs", sc.HostPCPUs)
	case sc.VCPUs < 1 || sc.VCPUs > 64:
		return bad("VCPUs", sc.VCPUs)
	case sc.Pinning != PinVM && sc.Pinning != PinVCPU:
		return fmt.Errorf("scenario: Pinning = %q, want %q or %q", sc.Pinning, PinVM, PinVCPU)
	case sc.Interactive < 1 || sc.Interactive > 64:
		return bad("Interactive", sc.Interactive)
	case sc.Batch < 0 || sc.Batch > 64:
		return bad("Batch", sc.Batch)
	case sc.Duration <= 0 || sc.Duration > 1000*time.Hour:
		return bad("Duration", sc.Duration)
	case sc.Bursts < 1 || sc.Bursts > 1000:
		return bad("Bursts", sc.Bursts)
	case sc.BurstMean <= 0 || sc.BurstMean > time.Hour:
		return bad("BurstMean", sc.BurstMean)
	case sc.IOMean < 0 || sc.IOMean > time.Hour:
		return bad("IOMean", sc.IOMean)
	case sc.Weight < 1 || sc.Weight > xencredit.MaxWeight:
		return bad("Weight", sc.Weight)
	case sc.BatchWeight < 1 || sc.BatchWeight > xencredit.MaxWeight:
		return bad("BatchWeight", sc.BatchWeight)
	case sc.Clients < 0 || sc.Clients > 1_000_000:
		return bad("Clients", sc.Clients)
	case sc.Clients > 0 && (sc.Think <= 0 || sc.Think > time.Hour):
		return bad("Think", sc.Think)
	case sc.BatchBurst < 0 || sc.BatchBurst > time.Hour:
		return bad("BatchBurst", sc.BatchBurst)
	case sc.BatchIO < 0 || sc.BatchIO > time.Hour:
		return bad("BatchIO", sc.BatchIO)
	case sc.Dom0 < 0 || sc.Dom0 > sc.HostPCPUs-sc.PCPUs:
		return bad("Dom0", sc.Dom0)
	}
	return nil
}

// EventRate estimates the events per simulated second of a run at rate
// open-loop requests per second per interactive VM (ignored with Clients):
// the ticks and accounting, about 4 per CPU burst of each request (burst
// end, IO end, Xen's wake and slice timers) and 3 per compute stretch of
// each batch VCPU. It is an estimate of the work, not a count: contention
// only lowers the request rate of a closed loop.
func (sc Scenario) EventRate(rate float64) float64 {
	tick := 1 / xencredit.DefaultConfig(1).TickPeriod().Seconds()
	r := float64(sc.PCPUs+sc.Dom0)*tick + 1/0.030
	if sc.Clients > 0 {
		cycle := sc.Think + time.Duration(sc.Bursts)*sc.BurstMean + time.Duration(sc.Bursts-1)*sc.IOMean
		rate = float64(sc.Clients) / cycle.Seconds()
	}
	r += float64(sc.Interactive) * rate * float64(1+4*sc.Bursts)
	if sc.BatchBurst > 0 {
		r += float64(sc.Batch*sc.VCPUs) * 3 / (sc.BatchBurst + sc.BatchIO).Seconds()
	}
	return r
}

// A WorkError reports a run whose expected work exceeds MaxEventRate or
// MaxEvents. Field names the Scenario field (or "rate") that drives it.
type WorkError struct {
	Field string  // "BatchBurst+BatchIO", "Clients/Think", "rate" or "Duration"
	Value string  // its value
	Rate  float64 // expected events per simulated second
	Total float64 // expected events in the run
}

func (e *WorkError) Error() string {
	if e.Field == "Duration" {
		return fmt.Sprintf("scenario: Duration = %s needs about %.3g events at %.3g per simulated second; at most %.0g per run", e.Value, e.Total, e.Rate, MaxEvents)
	}
	return fmt.Sprintf("scenario: %s = %s needs about %.3g events per simulated second; at most %.0g", e.Field, e.Value, e.Rate, MaxEventRate)
}

// checkWork bounds the work of one run (see MaxEventRate and MaxEvents)
// with a *WorkError naming the field that drives it.
func (sc Scenario) checkWork(rate float64) error {
	er := sc.EventRate(rate)
	if er > MaxEventRate {
		e := &WorkError{Field: "rate", Value: fmt.Sprint(rate), Rate: er}
		switch {
		case sc.BatchBurst > 0 && float64(sc.Batch*sc.VCPUs)*3/(sc.BatchBurst+sc.BatchIO).Seconds() > MaxEventRate/2:
			e.Field, e.Value = "BatchBurst+BatchIO", fmt.Sprint(sc.BatchBurst+sc.BatchIO)
		case sc.Clients > 0:
			e.Field, e.Value = "Clients/Think", fmt.Sprintf("%d/%v", sc.Clients, sc.Think)
		}
		return e
	}
	if n := er * sc.Duration.Seconds(); n > MaxEvents {
		return &WorkError{Field: "Duration", Value: sc.Duration.String(), Rate: er, Total: n}
	}
	return nil
}

// Result is one run: the first interactive VM's VCPU-seconds in each Xen
// runstate summed over its VCPUs (MIMP Table 1) and its mean response time.
type Result struct {
	Scheduler string  `json:"scheduler"`
	Rate      float64 `json:"rate"`    // requests per second completed (closed loop) or offered (open loop)
	Clients   int     `json:"clients"` // closed-loop clients; 0 for an open-loop rate
	Table1    bool    `json:"table1"`  // at the load this example calls Table 1's
	RunningS  float64 `json:"running_s"`
	RunnableS float64 `json:"runnable_s"`
	BlockedS  float64 `json:"blocked_s"`
	// MeanResponseMS is over the requests completed in the run.
	MeanResponseMS float64 `json:"mean_response_ms"`
	Requests       int     `json:"requests"` // completed
	// Unfinished requests at the end; Saturated when an open loop's
	// backlog exceeds one second of arrivals (it grows without bound and
	// the mean response time depends on the run's length).
	Unfinished int     `json:"unfinished"`
	Saturated  bool    `json:"saturated"`
	BatchS     float64 `json:"batch_s"` // the batch VMs' running VCPU-seconds
	// Wakes of the first interactive VM's VCPUs, the percentage of them
	// that were boosted, and of them that had to queue (did not run at
	// once).
	Wakes     int     `json:"wakes"`
	BoostPct  float64 `json:"boost_pct"`
	QueuedPct float64 `json:"queued_pct"`
	// SharedPct is the percentage of the run during which two VCPUs of the
	// first interactive VM were placed on the same PCPU.
	SharedPct float64 `json:"shared_pct"`
	Events    int     `json:"-"` // events simulated
}

// Event kinds on the des queue.
const (
	evTick      = iota // A = PCPU
	evAccount          //
	evSlice            // A = PCPU, B = version
	evArrival          // A = interactive VM
	evBurst            // A = VCPU, B = version: the running burst is done
	evIO               // A = request: its IO wait is over
	evBatchDone        // A = batch VCPU, B = version: its compute stretch is done
	evBatchWake        // A = batch VCPU: its IO wait is over
)

type request struct {
	vm      int
	serial  uint64 // arrival number: names its random draws
	arrival time.Duration
	left    int // bursts still to run, the ready or running one included
}

// guestVCPU is a VCPU as its guest sees it: an interactive VCPU running a
// request's burst, or a batch VCPU running a compute stretch.
type guestVCPU struct {
	vm       int
	req      int           // interactive: request whose burst it runs, -1 when idle (blocked in Xen)
	busy     bool          // batch: computing (not in an IO wait)
	left     time.Duration // CPU still needed by that burst or stretch
	runStart time.Duration // when it was last dispatched by Xen
	running  bool
	version  int
	pcpu     int // where Xen last dispatched it
}

type sim struct {
	sc                     Scenario
	rate                   float64
	rng                    *rand.Rand // arrivals
	batchRNG               *rand.Rand
	draw                   *rand.PCG // re-seeded per request burst or IO wait
	drawRNG                *rand.Rand
	seed                   uint64
	serial                 uint64
	q                      des.Queue
	s                      xencredit.State
	log                    []xencredit.Change
	vcpus                  []guestVCPU // interactive VCPUs (VM i has VCPUs i·VCPUs ..), then batch VCPUs
	nInter                 int         // interactive VCPUs
	ready                  []fifo      // per interactive VM: requests with a ready burst
	reqs                   []request
	free                   []int
	slice                  []time.Duration // time of the live slice-timer event per PCPU, Never if none
	sliceV                 []int
	respSum                time.Duration
	arrived, done          int
	events                 int
	wakes, boosted, queued int
	onPCPU                 []int // VCPUs of the first interactive VM placed on each PCPU
	collisions             int   // Σ max(0, onPCPU[p]−1)
	sharedSince, shared    time.Duration
}

// secs and fromSecs carry exact nanosecond times through the queue's
// float64 seconds: below 2⁵³ ns (104 days) the division and multiplication
// are each off by under a ulp, so rounding recovers the nanosecond.
func secs(d time.Duration) float64 { return float64(d) / 1e9 }

func fromSecs(t float64) time.Duration { return time.Duration(t*1e9 + 0.5) } // t ≥ 0

// Simulate runs one scheduler set-up at rate requests per second per
// interactive VM (with sc.Clients > 0, the closed loop sets the rate and
// rate is ignored). Equal inputs and seed give equal results. Errors name
// the field: a Scenario field out of range, a rate outside (0, 1e5], or a
// run whose expected events exceed MaxEventRate per simulated second or
// MaxEvents in all.
func Simulate(sc Scenario, scheduler string, rate float64, seed uint64) (Result, error) {
	if err := sc.Validate(); err != nil {
		return Result{}, err
	}
	if sc.Clients > 0 {
		rate = float64(sc.Clients) / sc.Think.Seconds() // only seeds the generator
	} else if !(rate > 0) || rate > 1e5 {
		return Result{}, fmt.Errorf("rate = %v out of range (0, 1e5]", rate)
	}
	if err := sc.checkWork(rate); err != nil {
		return Result{}, err
	}
	cfg := xencredit.DefaultConfig(sc.HostPCPUs)
	cfg.Ratelimit = sc.Ratelimit // New validates it
	cfg.RatelimitDelaysBackground = sc.RatelimitDelaysBackground
	cfg.ActivateAtHead = sc.ActivateAtHead
	var affinity []int // the shared cores, for PinVM
	if sc.Pinning == PinVM && sc.PCPUs > 1 {
		for p := range sc.PCPUs {
			affinity = append(affinity, p)
		}
	}
	place := func() []int {
		p := make([]int, sc.VCPUs)
		for j := range p {
			p[j] = j % sc.PCPUs
		}
		return p
	}
	doms := make([]xencredit.Domain, 0, sc.Interactive+sc.Batch+1)
	for range sc.Interactive {
		doms = append(doms, xencredit.Domain{Weight: sc.Weight, PCPUs: place(), Affinity: affinity})
	}
	batch := sc.Batch
	switch scheduler {
	case Alone:
		batch = 0
	case Credit:
	case MI:
		cfg.GuardPeriod, cfg.GuardExec = sc.GuardPeriod, sc.GuardExec
	default:
		return Result{}, fmt.Errorf("scheduler = %q, want %q, %q or %q", scheduler, Alone, Credit, MI)
	}
	for range batch {
		doms = append(doms, xencredit.Domain{Weight: sc.BatchWeight, Background: scheduler == MI, PCPUs: place(), Affinity: affinity})
	}
	if sc.Dom0 > 0 {
		p := make([]int, sc.Dom0)
		for j := range p {
			p[j] = sc.PCPUs + j
		}
		doms = append(doms, xencredit.Domain{Weight: 256, PCPUs: p})
	}
	s, err := xencredit.New(cfg, doms)
	if err != nil {
		return Result{}, err
	}
	m := &sim{
		sc: sc, rate: rate, s: s,
		rng:      rand.New(rand.NewPCG(seed, math.Float64bits(rate))),
		draw:     rand.NewPCG(0, 0),
		batchRNG: rand.New(rand.NewPCG(seed, 7)),
		seed:     seed,
		log:      make([]xencredit.Change, 0, 64),
		nInter:   sc.Interactive * sc.VCPUs,
		vcpus:    make([]guestVCPU, (sc.Interactive+batch)*sc.VCPUs),
		ready:    make([]fifo, sc.Interactive),
		slice:    make([]time.Duration, sc.HostPCPUs),
		sliceV:   make([]int, sc.HostPCPUs),
		onPCPU:   make([]int, sc.HostPCPUs),
	}
	m.drawRNG = rand.New(m.draw)
	for v := range m.vcpus {
		x, _ := s.VCPU(v)
		m.vcpus[v] = guestVCPU{vm: v / sc.VCPUs, req: -1, pcpu: x.PCPU}
		if v < sc.VCPUs {
			m.onPCPU[x.PCPU]++
		}
	}
	for _, n := range m.onPCPU {
		m.collisions += max(0, n-1)
	}
	for p := range m.slice {
		m.slice[p] = xencredit.Never
	}
	return m.run(scheduler)
}

func (m *sim) push(at time.Duration, kind, a, b int) {
	m.q.Push(des.Event{Time: secs(at), Kind: kind, A: a, B: b})
}

// exp draws an exponential time for draw number k of request r, from a
// stream of its own: every set-up sees the same request sizes (common
// random numbers), whatever order the scheduler serves them in.
func (m *sim) exp(r *request, k int, mean time.Duration) time.Duration {
	m.draw.Seed(m.seed^0x9e3779b97f4a7c15, r.serial<<20|uint64(k))
	return time.Duration(m.drawRNG.ExpFloat64() * float64(mean))
}

// burst is request r's next CPU burst.
func (m *sim) burst(r *request) time.Duration {
	return m.exp(r, 2*(m.sc.Bursts-r.left), m.sc.BurstMean)
}

func (m *sim) run(scheduler string) (Result, error) {
	sc := m.sc
	tick := m.s.Config().TickPeriod()
	// Every PCPU's ticker, and the accounting timer, in its own phase.
	busy := m.busyPCPUs()
	for p := range busy {
		m.push(tick+time.Duration(p)*tick/time.Duration(busy), evTick, p, 0)
	}
	m.push(m.s.Config().Timeslice+time.Millisecond, evAccount, 0, 0)
	for vm := range sc.Interactive {
		if sc.Clients == 0 {
			m.push(m.arrivalGap(), evArrival, vm, 0)
		}
		for range sc.Clients {
			m.push(m.thinkTime(), evArrival, vm, 0)
		}
	}
	// The batch VMs' VCPUs (and Dom0's) are runnable from the start; only
	// batch VCPUs with BatchBurst > 0 ever block.
	for v := m.nInter; v < m.s.NumVCPUs(); v++ {
		if v < len(m.vcpus) {
			g := &m.vcpus[v]
			g.busy, g.left = true, m.batchStretch()
		}
		if err := m.xen(m.s.Wake(0, v, m.log[:0])); err != nil {
			return Result{}, err
		}
	}
	for {
		e, ok := m.q.Pop()
		if !ok {
			break
		}
		now := fromSecs(e.Time)
		if now > sc.Duration {
			break
		}
		m.events++
		var err error
		switch e.Kind {
		case evTick:
			err = m.xen(m.s.Tick(now, e.A, m.log[:0]))
			m.push(now+tick, evTick, e.A, 0)
		case evAccount:
			err = m.xen(m.s.Account(now, m.log[:0]))
			m.push(now+m.s.Config().Timeslice, evAccount, 0, 0)
		case evSlice:
			if e.B == m.sliceV[e.A] { // the live timer
				m.slice[e.A] = xencredit.Never
				if pc, _ := m.s.PCPU(e.A); pc.SliceEnd <= now {
					err = m.xen(m.s.Schedule(now, e.A, m.log[:0]))
				} else {
					m.rearm() // the slice was extended
				}
			}
		case evArrival:
			err = m.arrive(now, e.A)
			if sc.Clients == 0 {
				m.push(now+m.arrivalGap(), evArrival, e.A, 0)
			}
		case evBurst:
			if e.B == m.vcpus[e.A].version {
				err = m.burstDone(now, e.A)
			}
		case evIO:
			err = m.readyBurst(now, e.A)
		case evBatchDone:
			if e.B == m.vcpus[e.A].version {
				g := &m.vcpus[e.A]
				g.busy, g.running = false, false
				m.push(now+m.batchExp(sc.BatchIO), evBatchWake, e.A, 0)
				err = m.xen(m.s.Block(now, e.A, m.log[:0]))
			}
		case evBatchWake:
			g := &m.vcpus[e.A]
			g.busy, g.left = true, m.batchStretch()
			err = m.xen(m.s.Wake(now, e.A, m.log[:0]))
		}
		if err != nil {
			return Result{}, err
		}
	}
	// Close the books at Duration (an Account there changes no runstate).
	if err := m.xen(m.s.Account(sc.Duration, m.log[:0])); err != nil {
		return Result{}, err
	}
	m.sharedUntil(sc.Duration)
	res := Result{Scheduler: scheduler, Rate: m.rate, Clients: sc.Clients, Requests: m.done, Events: m.events,
		Unfinished: m.arrived - m.done, Wakes: m.wakes,
		BoostPct: pct(m.boosted, m.wakes), QueuedPct: pct(m.queued, m.wakes),
		SharedPct: 100 * m.shared.Seconds() / sc.Duration.Seconds()}
	if sc.Clients > 0 {
		res.Rate = float64(m.done) / sc.Duration.Seconds() / float64(sc.Interactive)
	} else {
		res.Saturated = float64(res.Unfinished) > m.rate*float64(sc.Interactive)
	}
	for v := range sc.VCPUs { // the first interactive VM's VCPUs
		x, _ := m.s.VCPU(v)
		res.RunningS += x.Times[xencredit.Running].Seconds()
		res.RunnableS += x.Times[xencredit.Runnable].Seconds()
		res.BlockedS += x.Times[xencredit.Blocked].Seconds()
	}
	for v := m.nInter; v < len(m.vcpus); v++ {
		x, _ := m.s.VCPU(v)
		res.BatchS += x.Times[xencredit.Running].Seconds()
	}
	if m.done > 0 {
		res.MeanResponseMS = float64(m.respSum) / float64(m.done) / 1e6
	}
	return res, nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// batchExp draws from the batch VCPUs' own generator.
func (m *sim) batchExp(mean time.Duration) time.Duration {
	return time.Duration(m.batchRNG.ExpFloat64() * float64(mean))
}

// batchStretch is the CPU time of a batch VCPU's next compute stretch:
// exponential with mean BatchBurst, or for ever when BatchBurst is 0.
func (m *sim) batchStretch() time.Duration {
	if m.sc.BatchBurst == 0 {
		return time.Duration(math.MaxInt64)
	}
	return max(m.batchExp(m.sc.BatchBurst), 1)
}

func (m *sim) thinkTime() time.Duration {
	return time.Duration(m.rng.ExpFloat64() * float64(m.sc.Think))
}

func (m *sim) arrivalGap() time.Duration {
	return time.Duration(m.rng.ExpFloat64() / m.rate * 1e9)
}

// xen applies the changes of one scheduler event to the guests: a dispatched
// VCPU resumes its burst or compute stretch, a preempted one pauses it.
// Then it re-arms each PCPU's slice timer when its SliceEnd comes before
// the live timer event (a later SliceEnd is re-armed lazily when the timer
// fires, so the queue is not filled with stale timers).
func (m *sim) xen(log []xencredit.Change, err error) error {
	if err != nil {
		return err
	}
	m.log = log
	now := m.s.Now()

	for _, c := range log {
		if c.VCPU < 0 || c.VCPU >= len(m.vcpus) {
			continue
		}
		g := &m.vcpus[c.VCPU]
		switch c.Kind {
		case xencredit.Dispatch:
			g.running, g.runStart = true, now
			if c.VCPU < m.sc.VCPUs && g.pcpu != c.PCPU {
				m.move(now, g.pcpu, c.PCPU)
			}
			g.pcpu = c.PCPU
			switch {
			case c.VCPU < m.nInter && g.req >= 0:
				g.version++
				m.push(now+g.left, evBurst, c.VCPU, g.version)
			case c.VCPU >= m.nInter && g.busy && g.left < time.Duration(math.MaxInt64):
				g.version++
				m.push(now+g.left, evBatchDone, c.VCPU, g.version)
			}
		case xencredit.Preempt:
			g.running = false
			if (c.VCPU < m.nInter && g.req >= 0) || (c.VCPU >= m.nInter && g.left < time.Duration(math.MaxInt64)) {
				g.left -= now - g.runStart
				g.version++
			}
		}
	}
	m.rearm()
	return nil
}

// move records a VCPU of the first interactive VM moving from PCPU a to b.
func (m *sim) move(now time.Duration, a, b int) {
	m.sharedUntil(now)
	m.collisions -= max(0, m.onPCPU[a]-1) + max(0, m.onPCPU[b]-1)
	m.onPCPU[a]--
	m.onPCPU[b]++
	m.collisions += max(0, m.onPCPU[a]-1) + max(0, m.onPCPU[b]-1)
}

// sharedUntil adds the time since the last call to shared if two VCPUs of
// the first interactive VM were on one PCPU.
func (m *sim) sharedUntil(now time.Duration) {
	if m.collisions > 0 {
		m.shared += now - m.sharedSince
	}
	m.sharedSince = now
}

// busyPCPUs is the number of PCPUs with VCPUs: the shared ones, then
// Dom0's. The host's other PCPUs have none.
func (m *sim) busyPCPUs() int { return m.sc.PCPUs + m.sc.Dom0 }

// rearm pushes a slice-timer event for every busy PCPU whose SliceEnd
// comes before its live timer.
func (m *sim) rearm() {
	for p := range m.busyPCPUs() {
		pc, _ := m.s.PCPU(p)
		if pc.SliceEnd < m.slice[p] {
			m.slice[p] = pc.SliceEnd
			m.sliceV[p]++
			m.push(pc.SliceEnd, evSlice, p, m.sliceV[p])
		}
	}
}

func (m *sim) arrive(now time.Duration, vm int) error {
	r := request{vm: vm, serial: m.serial, arrival: now, left: m.sc.Bursts}
	m.serial++
	m.arrived++
	id := len(m.reqs)
	if n := len(m.free); n > 0 {
		id = m.free[n-1]
		m.free = m.free[:n-1]
		m.reqs[id] = r
	} else {
		m.reqs = append(m.reqs, r)
	}
	return m.readyBurst(now, id)
}

// readyBurst hands request id's next burst to an idle VCPU of its VM (the
// lowest-numbered, woken in Xen) or queues it in the guest.
func (m *sim) readyBurst(now time.Duration, id int) error {
	vm := m.reqs[id].vm
	for v := vm * m.sc.VCPUs; v < (vm+1)*m.sc.VCPUs; v++ {
		if g := &m.vcpus[v]; g.req < 0 {
			g.req, g.left = id, m.burst(&m.reqs[id])
			err := m.xen(m.s.Wake(now, v, m.log[:0]))
			if vm == 0 {
				x, _ := m.s.VCPU(v)
				m.wakes++
				if x.Priority == xencredit.Boost {
					m.boosted++
				}
				if x.State != xencredit.Running {
					m.queued++
				}
			}
			return err
		}
	}
	m.ready[vm].push(id)
	return nil
}

// burstDone: VCPU v finished its burst. The request goes to IO or is done;
// v takes the guest's next ready burst or blocks.
func (m *sim) burstDone(now time.Duration, v int) error {
	g := &m.vcpus[v]
	r := &m.reqs[g.req]
	r.left--
	if r.left > 0 {
		m.push(now+m.exp(r, 2*(m.sc.Bursts-r.left)-1, m.sc.IOMean), evIO, g.req, 0)
	} else {
		m.respSum += now - r.arrival
		m.done++
		m.free = append(m.free, g.req)
		if m.sc.Clients > 0 { // the client thinks, then sends its next request
			m.push(now+m.thinkTime(), evArrival, r.vm, 0)
		}
	}
	g.req = -1
	if id, ok := m.ready[g.vm].pop(); ok {
		g.req, g.left = id, m.burst(&m.reqs[id])
		g.runStart = now
		g.version++
		m.push(now+g.left, evBurst, v, g.version)
		return nil
	}
	g.running = false
	return m.xen(m.s.Block(now, v, m.log[:0]))
}

// fifo is a queue of request ids; pop is O(1) amortised however long a
// backlog grows.
type fifo struct {
	q    []int
	head int
}

func (f *fifo) push(id int) {
	if f.head > 0 && f.head == len(f.q) {
		f.q, f.head = f.q[:0], 0
	}
	f.q = append(f.q, id)
}

func (f *fifo) pop() (int, bool) {
	if f.head == len(f.q) {
		return 0, false
	}
	id := f.q[f.head]
	f.head++
	if f.head > 1024 && 2*f.head > len(f.q) { // drop the consumed half
		f.q, f.head = f.q[:copy(f.q, f.q[f.head:])], 0
	}
	return id, true
}
