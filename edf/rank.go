package edf

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedkit/schedkit/internal/enumname"
)

// A Picker names the slot picker whose pick sequence Rank returns.
type Picker uint8

const (
	// PickerEDF is Queue.EDF (MIMP §5.2's EDF baseline).
	PickerEDF Picker = iota
	// PickerMP is Queue.MP with the IO check off (MPOptions{NoIOCheck:
	// true}) and no TCTError, on a queue with the zero Config (dedicated
	// capacity 1, margin 1): MIMP §5.2's Maximum Progress without its
	// data-node step.
	PickerMP
)

// String returns "edf", "mp", or "Picker(n)" for any other value.
func (p Picker) String() string { return enumname.Of(p, "Picker", pickerNames[:]) }

var pickerNames = [...]string{PickerEDF: "edf", PickerMP: "mp"}

// A Ranked is one job's place in Rank's order, with what the picker saw
// of it.
type Ranked struct {
	// Index is the job's index in Rank's jobs (and running).
	Index int
	// Reason is why the picker chooses the job: ReasonAtRisk or
	// ReasonBestFit (PickerMP), ReasonOrder (PickerEDF), or ReasonIdle for
	// a job the picker never chooses (no pending task; under PickerMP also
	// a model with no valid task time on the slot).
	Reason Reason
	class  uint8 // rankClass(Reason), the sort's first key
	// AtRisk is MP step 1's test with margin 1 (Queue.AtRisk on a zero
	// Config queue): Completable < Tasks + len(running), a job holding no
	// slot being at risk when it has a deadline and a task; never for a
	// job without deadline. Set under either picker.
	AtRisk bool
	// Completable is Eq. 3, CompletableTasks(Model, Deadline − now,
	// running): (Deadline − now) · Σ_k 1/TCT(running_k), 0 when the
	// deadline has passed or the job holds no slot, +Inf for a job
	// without deadline holding one.
	Completable float64
	// NormTCT is Eq. 2, TCT(r)/TCT(1), for a job PickerMP chooses; 0
	// otherwise.
	NormTCT float64

	deadline, arrival float64 // the EDF keys, beside the job for the sort
	id                int64
}

// Rank returns the order in which picker p gives jobs one free slot of
// residual capacity r after another at time now (seconds, the deadlines'
// clock), each chosen job leaving the queue and no task starting or ending
// in between, followed by the jobs the picker never chooses in EDF order:
// the answer of a Queue holding jobs (Queue.Add) with each job's running
// tasks started at their capacities (Queue.Start), asked p's pick, the
// chosen job removed (Queue.Remove), and asked again until idle. It is
// appended to dst[:0] and returned; with a dst of capacity len(jobs), Rank
// allocates nothing.
//
// jobs[i].Tasks counts the job's tasks not yet started; running[i] holds
// the residual capacity, in (0, 1], of the slot each of its running tasks
// was started on, in the order they were started (1 = a dedicated slot).
// running is nil when no job holds a slot, else of length len(jobs).
// Read90 is not read: Rank makes no IO check.
//
// Since no task starts during the ranking, each job's Eq. 3 test is fixed
// (MIMP §5.1):
//
//	CompletableTasks_j = (D_j − now) · Σ_k 1/TCT_j(running_jk)
//	at risk ⇔ CompletableTasks_j < Tasks_j + len(running_j)
//
// and the pick sequence is a sort. Under PickerMP (MIMP §5.2): first the
// jobs with a pending task that are at risk, in EDF order (deadline,
// arrival, ID: CompareEDF; step 1), then the other jobs with a pending
// task, by NormTCT_j(r) = TCT_j(r)/TCT_j(1) (Eq. 2), ties in EDF order
// (step 2; on dedicated slots, r = 1, every NormTCT is 1 and step 2 is EDF
// order), then the rest in EDF order. A job whose model gives no valid
// task time at r or at 1, or whose rate 1/TCT(r) would overflow its rate
// sum, is never chosen (MP never offers it the slot) and is among the
// rest. Under PickerEDF: the jobs with a pending task in EDF order, then
// the rest in EDF order. Jobs equal in every key (a duplicated ID, which a
// Queue refuses) keep their order in jobs.
//
// Errors (matching ErrBadInput), each naming the field and value: a job
// Queue.Add refuses ("jobs[i].Deadline", …; duplicated IDs are not
// checked), more than MaxJobs jobs, running neither nil nor of len(jobs),
// a running capacity outside (0, 1] ("running[i][k]"), a nil model with a
// running task ("jobs[i].Model", ErrNilModel), a model Queue.Start refuses
// on a running task's capacity ("jobs[i].Model.TCT(running[i][k])": no
// valid task time there or at 1, or a rate sum that would overflow), r
// outside [0, 1], now NaN or infinite, an unknown picker.
func Rank(dst []Ranked, jobs []Job, running [][]float64, r, now float64, p Picker) ([]Ranked, error) {
	if err := checkRank(jobs, running, r, now, p); err != nil {
		return dst[:0], err
	}
	dst = dst[:0]
	for i := range jobs {
		j := &jobs[i]
		var held []float64
		if running != nil {
			held = running[i]
		}
		rk, err := rankOne(j, held, i, r, now, p)
		if err != nil {
			return dst[:0], err
		}
		rk.class = rankClass(rk.Reason)
		dst = append(dst, rk)
	}
	slices.SortFunc(dst, compareRanked)
	return dst, nil
}

// checkRank validates Rank's arguments other than each job's.
func checkRank(jobs []Job, running [][]float64, r, now float64, p Picker) error {
	switch {
	case len(jobs) > MaxJobs:
		return &ValueError{Field: "len(jobs)", Value: len(jobs), Reason: "more than MaxJobs jobs"}
	case running != nil && len(running) != len(jobs):
		return &ValueError{Field: "len(running)", Value: len(running), Reason: fmt.Sprintf("must be 0 (nil) or len(jobs) = %d", len(jobs))}
	case !(r >= 0 && r <= 1):
		return checkFraction("r", r)
	case math.IsNaN(now) || math.IsInf(now, 0):
		return &ValueError{Field: "now", Value: now, Reason: "must be finite"}
	case p != PickerEDF && p != PickerMP:
		return &ValueError{Field: "p", Value: int(p), Reason: "unknown picker"}
	}
	return nil
}

// rankOne checks job j (index i, running tasks at the capacities held) as
// Queue.Add and Queue.Start would, and returns what picker p sees of it.
func rankOne(j *Job, held []float64, i int, r, now float64, p Picker) (Ranked, error) {
	if err := validateJob(j); err != nil {
		var ve *ValueError
		if errors.As(err, &ve) {
			ve.Field = fmt.Sprintf("jobs[%d].%s", i, strings.TrimPrefix(ve.Field, "Job."))
		}
		return Ranked{}, err
	}
	rk := Ranked{Index: i, Reason: ReasonIdle, deadline: j.Deadline, arrival: j.Arrival, id: j.ID}
	if len(held) == 0 && j.Tasks == 0 {
		return rk, nil // never at risk, never chosen
	}
	if nilModel(j.Model) {
		return Ranked{}, nilModelError(fmt.Sprintf("jobs[%d].Model", i))
	}
	// TCT(1), evaluated once (models are pure): ded as Queue.Add keeps it.
	t1 := j.Model.TCT(1)
	ded := math.NaN()
	if validTime(t1) {
		ded = t1
	}
	at := func(c float64) float64 {
		if c == 1 {
			return t1
		}
		return j.Model.TCT(c)
	}
	rate := 0.0
	for k, c := range held {
		if !(c > 0 && c <= 1) {
			return Ranked{}, &ValueError{Field: fmt.Sprintf("running[%d][%d]", i, k), Value: c, Reason: "a running task's residual capacity must be in (0, 1]"}
		}
		t, inv, _, fault := timeLoad(at(c), ded, rate)
		if fault != loadOK {
			return Ranked{}, loadError(fmt.Sprintf("jobs[%d].Model.TCT(running[%d][%d])", i, i, k), fault, t, ded)
		}
		rate += inv
	}
	remaining := float64(j.Tasks + len(held))
	if rate == 0 {
		rk.AtRisk = remaining > 0 && j.Deadline <= math.MaxFloat64
	} else {
		left := j.Deadline - now
		rk.AtRisk = left*rate < remaining
		if left > 0 {
			rk.Completable = left * rate
		}
	}
	if j.Tasks == 0 {
		return rk, nil
	}
	if p == PickerEDF {
		rk.Reason = ReasonOrder
		return rk, nil
	}
	if _, _, norm, fault := timeLoad(at(r), ded, rate); fault == loadOK {
		rk.Reason, rk.NormTCT = ReasonBestFit, norm
		if rk.AtRisk {
			rk.Reason = ReasonAtRisk
		}
	}
	return rk, nil
}

// rankClass is a Ranked's place by Reason: at-risk picks, then best-fit
// or order picks, then the jobs never chosen.
func rankClass(r Reason) uint8 {
	switch r {
	case ReasonAtRisk:
		return 0
	case ReasonIdle:
		return 2
	}
	return 1
}

// compareRanked is Rank's order: class, NormTCT among best-fit picks,
// then EDF order (deadline, arrival, ID; edfBefore's comparisons), then
// the index in jobs. No key is NaN (Rank validated the jobs; a NormTCT is
// a valid time).
func compareRanked(a, b Ranked) int {
	switch {
	case a.class != b.class:
		return less(a.class < b.class)
	case a.Reason == ReasonBestFit && a.NormTCT != b.NormTCT:
		return less(a.NormTCT < b.NormTCT)
	case a.deadline != b.deadline:
		return less(a.deadline < b.deadline)
	case a.arrival != b.arrival:
		return less(a.arrival < b.arrival)
	case a.id != b.id:
		return less(a.id < b.id)
	}
	return less(a.Index < b.Index) // never equal: one Ranked per index
}

// less is -1 for true, +1 for false.
func less(b bool) int {
	if b {
		return -1
	}
	return 1
}
