package xencredit

import (
	"errors"
	"time"
)

// Limits on Config and Domain values. They follow Xen 4.2 where Xen has a
// limit (weight 1..65535, timeslice 1 ms..1 s, ratelimit 100 µs..500 ms) and
// keep the model's integer arithmetic far from overflow elsewhere.
const (
	MaxPCPUs      = 4096
	MaxVCPUs      = 4096 // in total, over all domains
	MaxWeight     = 65535
	MinTimeslice  = time.Millisecond
	MaxTimeslice  = time.Second
	MinRatelimit  = 100 * time.Microsecond
	MaxRatelimit  = 500 * time.Millisecond
	MaxCreditsPMs = 1000
	// MinTimer is Xen's CSCHED_MIN_TIMER (100 µs), the floor of a
	// remainder ratelimit slice (Config.RatelimitRemainder).
	MinTimer = 100 * time.Microsecond
)

// MaxRunQueues bounds the entries New preallocates in the run queues, Σ over
// domains of len(PCPUs) × max(1, len(Affinity)): 2²², 32 MiB. With
// MaxVCPUs floating VCPUs it allows an Affinity of 1,024 PCPUs.
const MaxRunQueues = 1 << 22

// maxErrors bounds the problems New joins into its error.
const maxErrors = 100

// MaxTime is the latest time an event may carry (about 146 years), so that
// slice ends never overflow.
const MaxTime = time.Duration(1 << 62)

// Never is the SliceEnd of an idle PCPU: the idle VCPU's slice is infinite.
const Never = time.Duration(1<<63 - 1)

// Config holds the scheduler's constants. DefaultConfig returns Xen 4.2's
// values; every field may be overridden and Validate checks them. The zero
// Config is not valid (it has no PCPUs).
type Config struct {
	// PCPUs is the number of physical CPUs, 1..MaxPCPUs. Each has its own
	// run queue. They are the PCPUs of one cpupool (Xen keeps a credit
	// scheduler instance per cpupool): the credit pool C that Account
	// shares out is PCPUs × CreditsPerTimeslice, whether or not a PCPU has
	// VCPUs pinned to it, so a host whose VMs are pinned to some of its
	// cores still counts all of them (MIMP §6.1 pins; examples/xen).
	PCPUs int

	// Timeslice is both the slice a dispatched VCPU gets and the
	// accounting period (CSCHED_DEFAULT_TSLICE_MS, 30 ms), 1 ms..1 s.
	Timeslice time.Duration

	// TicksPerTimeslice is CSCHED_TICKS_PER_TSLICE (3), 1..100; the tick
	// period is Timeslice/TicksPerTimeslice (see TickPeriod). The package
	// does not keep timers: the caller calls Tick at that period.
	TicksPerTimeslice int

	// CreditsPerMsec is CSCHED_CREDITS_PER_MSEC (10), 1..MaxCreditsPMs, and
	// must divide 1 000 000 so one credit is a whole number of nanoseconds.
	// A timeslice is worth CreditsPerTimeslice credits (300), which is also
	// the bound on credit checked at accounting.
	CreditsPerMsec int

	// Ratelimit is sched_ratelimit_us (1000 µs): a running VCPU that has run
	// less than this keeps the PCPU when a reschedule is asked for. Zero
	// disables it (Xen master's meaning; 4.2 cannot disable it); otherwise
	// MinRatelimit..MaxRatelimit and not above Timeslice.
	Ratelimit time.Duration

	// RatelimitRemainder selects Xen master's ratelimit slice
	// (Ratelimit minus the time already run, at least MinTimer) instead of
	// 4.2's full Ratelimit. False (4.2) by default.
	RatelimitRemainder bool

	// RatelimitDelaysBackground lets the ratelimit keep a running
	// BACKGROUND VCPU on the PCPU when a non-background VCPU is waiting,
	// as the MIMP prototype's code does. False by default: MIMP §4.2 says a
	// waking regular VM "will always be able to preempt a background VM",
	// so a background VCPU is preempted at once.
	RatelimitDelaysBackground bool

	// ActivateAtHead puts a domain that becomes active (a Tick finds one
	// of its VCPUs running while off the active list) at the head of the
	// active-domain list, as Xen's __csched_vcpu_acct_start does
	// (list_add, in 4.2 and master). False puts it at the tail, the order
	// DefaultConfig keeps.
	// Account visits domains in list order and hands the credit a domain
	// cannot use to those after it, so the order decides whether a
	// low-weight domain visited after a busy one gets that surplus: with
	// the head, an interactive domain that has just become active again
	// is visited first and the low-weight domain after it earns its full
	// peak (examples/xen shows what this does to MIMP Table 1).
	ActivateAtHead bool

	// GuardPeriod is the starvation guard's period p (MIMP §4.2). Zero
	// disables the guard. Otherwise 1 ms..1 hour, and the guard is checked
	// at every Account call.
	GuardPeriod time.Duration

	// GuardExec is the guard's execution time e, in (0, GuardPeriod]. A
	// runnable background VCPU that ran less than e in its last guard
	// period is raised for a starvation slice of e of running time.
	GuardExec time.Duration

	// GuardRaiseToUnder raises a starving background VCPU to UNDER, as the
	// MIMP prototype (gwcloudlab/xen-interference) does, instead of the
	// OVER of MIMP §4.2. False (OVER) by default.
	GuardRaiseToUnder bool
}

// DefaultConfig returns Xen 4.2's credit scheduler constants for pcpus
// physical CPUs: 30 ms timeslice, 3 ticks per slice (10 ms), 10 credits per
// ms (300 per slice), 1 ms ratelimit, and the starvation guard off.
func DefaultConfig(pcpus int) Config {
	return Config{
		PCPUs:             pcpus,
		Timeslice:         30 * time.Millisecond,
		TicksPerTimeslice: 3,
		CreditsPerMsec:    10,
		Ratelimit:         time.Millisecond,
	}
}

// TickPeriod is the period at which the caller should call Tick on each
// PCPU: Timeslice/TicksPerTimeslice, or Timeslice itself when Timeslice is
// under 3 ms (Xen's csched_init rule). It returns 0 for an invalid Config.
func (c Config) TickPeriod() time.Duration {
	if c.TicksPerTimeslice < 1 || c.Timeslice <= 0 {
		return 0
	}
	if c.Timeslice < 3*time.Millisecond {
		return c.Timeslice
	}
	return c.Timeslice / time.Duration(c.TicksPerTimeslice)
}

// CreditsPerTimeslice is CreditsPerMsec × Timeslice in ms (300 by default):
// what one VCPU earns at most per accounting and the ± bound on credit. It
// returns 0 when CreditsPerMsec or Timeslice is out of its valid range
// (the product could otherwise overflow or be negative).
func (c Config) CreditsPerTimeslice() int {
	if c.CreditsPerMsec < 1 || c.CreditsPerMsec > MaxCreditsPMs || c.Timeslice < MinTimeslice || c.Timeslice > MaxTimeslice {
		return 0
	}
	return c.CreditsPerMsec * int(c.Timeslice/time.Millisecond)
}

// Validate checks every field and returns all problems joined; each matches
// ErrBadInput and is a *ValueError naming the field.
func (c Config) Validate() error {
	var errs []error
	bad := func(field string, v float64, reason string) {
		errs = append(errs, &ValueError{Field: field, Value: v, Reason: reason})
	}
	if c.PCPUs < 1 || c.PCPUs > MaxPCPUs {
		bad("Config.PCPUs", float64(c.PCPUs), "must be in 1..4096")
	}
	if c.Timeslice < MinTimeslice || c.Timeslice > MaxTimeslice || c.Timeslice%time.Millisecond != 0 {
		bad("Config.Timeslice", c.Timeslice.Seconds(), "must be a whole number of ms in 1 ms..1 s")
	}
	if c.TicksPerTimeslice < 1 || c.TicksPerTimeslice > 100 {
		bad("Config.TicksPerTimeslice", float64(c.TicksPerTimeslice), "must be in 1..100")
	}
	if c.CreditsPerMsec < 1 || c.CreditsPerMsec > MaxCreditsPMs || int(time.Millisecond)%c.CreditsPerMsec != 0 {
		bad("Config.CreditsPerMsec", float64(c.CreditsPerMsec), "must be in 1..1000 and divide 1000000")
	}
	if c.Ratelimit != 0 && (c.Ratelimit < MinRatelimit || c.Ratelimit > MaxRatelimit || c.Ratelimit > c.Timeslice) {
		bad("Config.Ratelimit", c.Ratelimit.Seconds(), "must be 0 or in 100 µs..500 ms and not above Timeslice")
	}
	if c.GuardPeriod != 0 {
		if c.GuardPeriod < time.Millisecond || c.GuardPeriod > time.Hour {
			bad("Config.GuardPeriod", c.GuardPeriod.Seconds(), "must be 0 or in 1 ms..1 h")
		}
		if c.GuardExec <= 0 || c.GuardExec > c.GuardPeriod {
			bad("Config.GuardExec", c.GuardExec.Seconds(), "must be in (0, GuardPeriod]")
		}
	} else if c.GuardExec != 0 {
		bad("Config.GuardExec", c.GuardExec.Seconds(), "must be 0 when GuardPeriod is 0")
	}
	return errors.Join(errs...)
}

// A Domain is a virtual machine: its VCPUs share its weight and cap.
type Domain struct {
	// Weight is the domain's share weight, 1..MaxWeight (Xen default 256).
	// A background domain's weight is unused and may also be 0 (the MIMP
	// prototype's "xl sched-credit -w 0").
	Weight int

	// Cap limits the domain to Cap percent of one PCPU (100 = one PCPU);
	// 0 means no cap. 0..100×PCPUs. Must be 0 for a background domain,
	// which earns no credits.
	Cap int

	// Background puts the domain's VCPUs in MIMP's BACKGROUND class
	// (MIMP §4.2): queued after every other class, never boosted, never
	// credited, preempted by any waking non-background VCPU.
	Background bool

	// PCPUs[j] is the PCPU of the domain's VCPU j: the one it is pinned
	// to, or, with Affinity, the one it starts on. Its length is the VCPU
	// count, ≥ 1.
	PCPUs []int

	// Affinity is the set of PCPUs every VCPU of the domain may run on
	// (Xen's cpu_affinity, as a "cpus=" line or "xl vcpu-pin DOM all"
	// gives a whole VM); each PCPUs[j] must be in it. Empty: each VCPU is
	// pinned to its PCPUs[j] and never moves. With Affinity, VCPUs move
	// between those PCPUs by Xen 4.2's rules (see the package doc,
	// "Migration"): a PCPU whose best queued VCPU is OVER, BACKGROUND or
	// idle steals a higher-priority VCPU queued on a busy peer, and a wake
	// on a busy PCPU also tickles one idle PCPU of the affinity.
	Affinity []int
}
