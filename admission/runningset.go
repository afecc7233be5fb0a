package admission

import (
	"math"
	"slices"
	"time"
)

// NotStarted is the End of a running job none of whose work has started
// yet: at every now it has its whole Estimate left.
const NotStarted = math.MaxInt64

// A RunningJob is an admitted deadline job whose work runs, described by
// when that work is estimated to end rather than by what is left of it, so
// that the description stays valid while the clock moves. Its Eq. 6 JCT
// at a time now (MIMP §5.3) is what is left of its estimate (Remaining).
//
// ID, Arrival and Deadline are a Job's (seconds, the EDF keys, the package
// doc's "Jobs"). Estimate and End are integer nanoseconds on the clock of
// the decisions' now (second s of Arrival's clock is nanosecond s·10⁹), so
// that the time left is exact: float64 seconds since the Unix epoch are
// 2^−22 s (0.24 µs) apart, nanoseconds are exact to 292 years.
type RunningJob struct {
	ID       int64
	Arrival  float64
	Deadline float64 // finite, or NoDeadline() (never summed)
	// Estimate is the job's whole run time, its Eq. 6 JCT when it started,
	// in nanoseconds, >= 0.
	Estimate int64
	// End is when the estimate runs out, in nanoseconds: the job's start
	// plus Estimate, or NotStarted.
	End int64
}

// Remaining is j's time left at now, in nanoseconds: End − now, but never
// below 0 (a job past its estimate still runs, with nothing predicted
// left) nor above Estimate (a start after now, a clock ahead of the
// caller's, counts as a start at now); Estimate when End is NotStarted. For
// a job that started at s ≤ End − Estimate it is max(0, Estimate − (now −
// min(s, now))), with no rounding.
func (j RunningJob) Remaining(now int64) int64 {
	if j.End == NotStarted {
		return j.Estimate
	}
	if j.End <= now {
		return 0
	}
	if left := uint64(j.End) - uint64(now); left < uint64(j.Estimate) {
		return int64(left)
	}
	return j.Estimate
}

// A RunningSet holds the running deadline jobs of a scheduler that admits
// new jobs against them with MIMP Eq. 7 (ModeStrict or ModePaper) while
// their remaining times fall with the clock. The caller tells it what
// happens (Set when a job starts running or its description changes,
// Remove when it ends) and decides with Decide at any now: the decision
// Workspace.Decide makes over the jobs in EDF order, each with its
// Remaining at now as its JCT, bit for bit, without the caller rebuilding,
// converting or sorting that queue per decision.
//
// The jobs are kept in EDF order (CompareEDF) in a slice of Jobs ready for
// the decision: Set and Remove find the place by binary search, O(log n),
// and move the jobs after it, O(n) moves of one Job. A decision writes
// each job's JCT at now (one conversion from nanoseconds to seconds,
// time.Duration.Seconds) and runs Workspace.Decide's pass: O(n) for n
// jobs, with no sort and no allocation once the buffers have grown.
// Eq. 7's sums are float64 additions one after another in EDF order, and
// every JCT changes with now, so no sum formed at one time serves another:
// the pass is the decision's own cost, and a faster decision would not be
// Workspace.Decide's to the bit. BenchmarkRunningSet (2 cores, -cpu 1,
// load average 25, go test -run '^$' -bench RunningSet -benchtime 2000x
// -cpu 1 ./admission): at 100 / 1,000 / 10,000 jobs a decision took 58 µs
// / 0.21 ms / 2.2 ms against 157 µs / 3.0 ms / 28 ms for rebuilding and
// sorting the queue and deciding, 0 allocations; a Remove and a Set 11
// µs / 43 µs / 0.24 ms (runningset_bench_test.go).
//
// The zero value is empty and ready to use. A RunningSet is not safe for
// concurrent use; the Decision's Checked aliases its buffer until the next
// Decide.
type RunningSet struct {
	queue []Job // EDF order; JCT is written by each decision
	jobs  []RunningJob
	byID  map[int64]RunningJob
	ws    Workspace
}

// Len returns the number of jobs held.
func (s *RunningSet) Len() int { return len(s.jobs) }

// Has reports whether a job with that ID is held.
func (s *RunningSet) Has(id int64) bool {
	_, ok := s.byID[id]
	return ok
}

// Set holds j, replacing the job with its ID if one is held. Errors match
// ErrBadInput and name the field: "RunningJob.Arrival" not finite,
// "RunningJob.Deadline" NaN or −Inf, "RunningJob.Estimate" negative, and
// "RunningSet.Len" when MaxJobs jobs are held and j.ID is not one of
// them. On an error the set is unchanged.
func (s *RunningSet) Set(j RunningJob) error {
	switch {
	case math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0):
		return &ValueError{Field: "RunningJob.Arrival", Value: j.Arrival, Reason: "must be finite"}
	case math.IsNaN(j.Deadline) || math.IsInf(j.Deadline, -1):
		return &ValueError{Field: "RunningJob.Deadline", Value: j.Deadline, Reason: "must be finite, or NoDeadline() (+Inf)"}
	case j.Estimate < 0:
		return &ValueError{Field: "RunningJob.Estimate", Value: j.Estimate, Reason: "must be >= 0 (nanoseconds)"}
	}
	old, held := s.byID[j.ID]
	if !held && len(s.jobs) >= MaxJobs {
		return &ValueError{Field: "RunningSet.Len", Value: len(s.jobs), Reason: "MaxJobs = 2^18 jobs held already"}
	}
	if s.byID == nil {
		s.byID = map[int64]RunningJob{}
	}
	s.byID[j.ID] = j
	if held {
		i := s.find(old)
		if old.Arrival == j.Arrival && old.Deadline == j.Deadline {
			// The same EDF place (±0 compare equal: the keys are written
			// as given).
			s.jobs[i] = j
			s.queue[i] = Job{ID: j.ID, Arrival: j.Arrival, Deadline: j.Deadline}
			return nil
		}
		s.delete(i)
	}
	k := Job{ID: j.ID, Arrival: j.Arrival, Deadline: j.Deadline}
	i, _ := s.search(&k)
	s.queue = slices.Insert(s.queue, i, k)
	s.jobs = slices.Insert(s.jobs, i, j)
	return nil
}

// Remove forgets the job with that ID and reports whether it was held.
func (s *RunningSet) Remove(id int64) bool {
	j, held := s.byID[id]
	if !held {
		return false
	}
	delete(s.byID, id)
	s.delete(s.find(j))
	return true
}

// find returns the index of held job j.
func (s *RunningSet) find(j RunningJob) int {
	k := Job{ID: j.ID, Arrival: j.Arrival, Deadline: j.Deadline}
	i, found := s.search(&k)
	if !found {
		panic("admission: RunningSet lost a job") // a broken internal invariant
	}
	return i
}

// search returns the place of k in EDF order and whether a job with its
// keys is there.
func (s *RunningSet) search(k *Job) (int, bool) {
	lo, hi := 0, len(s.queue)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if compareEDF(&s.queue[m], k) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(s.queue) && compareEDF(&s.queue[lo], k) == 0
}

func (s *RunningSet) delete(i int) {
	s.queue = slices.Delete(s.queue, i, i+1)
	s.jobs = slices.Delete(s.jobs, i, i+1)
}

// Queue appends to dst the held jobs at now in EDF order, each with its
// Remaining at now in seconds as its JCT (time.Duration.Seconds), and
// returns the extended slice: the queue Decide decides on.
func (s *RunningSet) Queue(now int64, dst []Job) []Job {
	s.at(now)
	return append(dst, s.queue...)
}

// at writes each job's JCT at now.
func (s *RunningSet) at(now int64) {
	for i := range s.jobs {
		s.queue[i].JCT = time.Duration(s.jobs[i].Remaining(now)).Seconds()
	}
}

// Decide decides whether to admit newJob at now (nanoseconds) against the
// held jobs: Workspace.Decide(s.Queue(now, nil), newJob, Seconds(now),
// opt), bit for bit, errors included. opt.Mode must be ModeStrict or
// ModePaper (the modes that read Job.JCT); another mode is an error naming
// "Options.Mode". Its other errors are Workspace.Decide's, with
// "Queue[k]" the k-th held job in EDF order (a held job's deadline − now
// that overflows; newJob's ID held already).
func (s *RunningSet) Decide(newJob Job, now int64, opt Options) (Decision, error) {
	if opt.Mode != ModeStrict && opt.Mode != ModePaper {
		return Decision{}, &ValueError{Field: "Options.Mode", Value: opt.Mode, Reason: "a RunningSet decides in ModeStrict or ModePaper"}
	}
	s.at(now)
	return s.ws.Decide(s.queue, newJob, Seconds(now), opt)
}

// Seconds converts nanoseconds on the caller's clock to the seconds of
// Arrival, Deadline and a decision's now: the whole seconds plus the
// fraction, float64(t.Unix()) + float64(t.Nanosecond())/1e9 for t =
// time.Unix(0, ns) (whole seconds rounded down, so the fraction is in [0,
// 1) before the origin too).
func Seconds(ns int64) float64 {
	sec, frac := ns/1e9, ns%1e9
	if frac < 0 {
		sec, frac = sec-1, frac+1e9
	}
	return float64(sec) + float64(frac)/1e9
}
