package main

import (
	"fmt"
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
