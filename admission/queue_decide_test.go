package admission

import (
	"errors"
	"math"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/testkit"
)

// grid draws a time on a binary grid (multiples of 1/8 up to hi), so every
// sum a decision forms is exact, plus the given extremes.
func grid(t *rapid.T, label string, lo, hi int, extremes ...float64) float64 {
	if len(extremes) > 0 && rapid.IntRange(0, 30).Draw(t, label+"Extreme") == 0 {
		return rapid.SampledFrom(extremes).Draw(t, label)
	}
	return float64(rapid.IntRange(lo*8, hi*8).Draw(t, label)) / 8
}

// gridJob draws a queued or new job, its times on the grid (its JCT half
// the time anywhere, so sums round); deadlines repeat so that ties fall to
// arrival and ID.
func gridJob(t *rapid.T, id int64) Job {
	j := Job{ID: id, Arrival: float64(rapid.IntRange(0, 4).Draw(t, "arrival")), Deadline: math.Inf(1),
		JCT: rapid.OneOf(rapid.Custom(func(t *rapid.T) float64 { return grid(t, "jct", 0, 60) }),
			rapid.Float64Range(0, 60)).Draw(t, "jct")}
	if rapid.IntRange(0, 5).Draw(t, "hasDeadline") > 0 {
		j.Deadline = grid(t, "deadline", 0, 3000, -math.MaxFloat64, math.MaxFloat64)
	}
	return j
}

func TestPropQueueDecide(t *testing.T) { rapid.Check(t, propQueueDecide) }
func FuzzQueueDecide(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propQueueDecide)) }

// propQueueDecide: Queue.Decide (the tree, O(log n)) decides exactly as
// Workspace.Decide's one pass over q.Jobs() does, for paper and strict mode,
// over random queues built by Insert, Remove and SetJCT: the same error (or
// none), Admit, Reason, BlockingID and Probability, and the new job's and the
// blocking job's Checks equal the pass's entries for them.
func propQueueDecide(t *rapid.T) {
	var q Queue
	var c Workspace
	ids := []int64{}
	t.Repeat(map[string]func(*rapid.T){
		"insert": func(t *rapid.T) {
			id := int64(rapid.IntRange(0, 999).Draw(t, "id"))
			j := gridJob(t, id)
			if j.HasDeadline() && rapid.Bool().Draw(t, "tight") {
				// Just after the queue's total work: a feasible queue with
				// little slack, where an arrival can hurt a job.
				total := 0.0
				for _, k := range q.Jobs() {
					if k.HasDeadline() {
						total += k.JCT
					}
				}
				j.Deadline = total + j.JCT + grid(t, "slack", -5, 40)
			}
			if err := q.Insert(j); err == nil {
				ids = append(ids, id)
			}
		},
		"remove": removeAction(&q, &ids),
		"setJCT": setJCTAction(&q, &ids),
		"decide": func(t *rapid.T) {
			id := int64(1000 + rapid.IntRange(0, 1000).Draw(t, "newID"))
			if len(ids) > 0 && rapid.IntRange(0, 20).Draw(t, "dup") == 7 {
				id = ids[rapid.IntRange(0, len(ids)-1).Draw(t, "dupOf")]
			}
			job := gridJob(t, id)
			if jobs := q.Jobs(); job.HasDeadline() && len(jobs) > 0 && rapid.Bool().Draw(t, "inside") {
				// Just before a queued job, with a small JCT: it may be
				// on time and push that job (or a later one) late.
				k := jobs[rapid.IntRange(0, len(jobs)-1).Draw(t, "before")]
				if k.HasDeadline() && math.Abs(k.Deadline) < 1e6 {
					job.Deadline, job.JCT = k.Deadline-grid(t, "ahead", 0, 10), grid(t, "smallJCT", 0, 20)
				}
			}
			now := grid(t, "now", -20, 20, -math.MaxFloat64, math.MaxFloat64)
			if rapid.IntRange(0, 4).Draw(t, "late") == 0 {
				now = grid(t, "nowLate", 100, 1500)
			}
			mode := rapid.SampledFrom([]Mode{ModeStrict, ModePaper}).Draw(t, "mode")
			sameDecision(t, &q, &c, job, now, mode)
		},
		"": func(t *rapid.T) {
			if q.Len() != len(q.ix.byID) {
				t.Fatalf("queue %d jobs, index %d", q.Len(), len(q.ix.byID))
			}
		},
	})
}

// removeAction removes a random queued job of ids from q.
func removeAction(q *Queue, ids *[]int64) func(*rapid.T) {
	return func(t *rapid.T) { *ids, _, _ = testkit.RemoveDrawn(t, *ids, q.Remove) }
}

// setJCTAction gives a random queued job of ids a new JCT.
func setJCTAction(q *Queue, ids *[]int64) func(*rapid.T) {
	return func(t *rapid.T) {
		if len(*ids) == 0 {
			return
		}
		if err := q.SetJCT((*ids)[rapid.IntRange(0, len(*ids)-1).Draw(t, "i")], grid(t, "newJCT", 0, 60)); err != nil {
			t.Fatal(err)
		}
	}
}

// sameDecision checks that Queue.Decide and Workspace.Decide's pass over
// q.Jobs() agree: the same error (or none), Admit, Reason, BlockingID and
// Probability, and the new job's and the blocking job's Checks equal the
// pass's entries for them.
func sameDecision(t *rapid.T, q *Queue, c *Workspace, job Job, now float64, mode Mode) {
	want, werr := c.Decide(q.Jobs(), job, now, Options{Mode: mode})
	got, gerr := q.Decide(job, now, Options{Mode: mode})
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("errors: tree %v, pass %v", gerr, werr)
	}
	if werr != nil {
		return
	}
	if got.Admit != want.Admit || got.Reason != want.Reason || got.BlockingID != want.BlockingID ||
		got.Probability != want.Probability || got.Mode != want.Mode {
		t.Fatalf("tree %+v, pass %+v", got, want)
	}
	if want.NewIndex < 0 {
		if got.NewIndex >= 0 || len(got.Checked) != 0 {
			t.Fatalf("no deadline: tree %+v", got)
		}
		return
	}
	if ahead, err := q.Ahead(job); err != nil || ahead != want.NewIndex {
		t.Fatalf("Ahead = %d, %v; the pass's NewIndex %d", ahead, err, want.NewIndex)
	}
	if got.Checked[got.NewIndex] != want.Checked[want.NewIndex] {
		t.Fatalf("new job: tree %+v, pass %+v", got.Checked[got.NewIndex], want.Checked[want.NewIndex])
	}
	if want.Blocking >= 0 && got.Checked[got.Blocking] != want.Checked[want.Blocking] {
		t.Fatalf("blocking job: tree %+v, pass %+v", got.Checked[got.Blocking], want.Checked[want.Blocking])
	}
}

func TestPropQueueDecideFeasible(t *testing.T) { rapid.Check(t, propQueueDecideFeasible) }

// propQueueDecideFeasible: the same on a feasible queue built to be tight
// (every deadline its Eq. 7 prefix plus 0–30 s, inserted in random order,
// some JCTs then changed) and a new job placed just before a queued one,
// so arrivals often hurt a queued job (about half the decisions reject).
func propQueueDecideFeasible(t *rapid.T) {
	n := rapid.IntRange(1, 60).Draw(t, "n")
	jobs := make([]Job, n)
	total := 0.0
	for k := range jobs {
		jct := grid(t, "jct", 0, 40)
		total += jct
		jobs[k] = Job{ID: int64(k), Arrival: float64(rapid.IntRange(0, 2).Draw(t, "arrival")), JCT: jct,
			Deadline: total + grid(t, "slack", 0, 30)}
	}
	var q Queue
	for _, j := range rapid.Permutation(jobs).Draw(t, "order") {
		if err := q.Insert(j); err != nil {
			t.Fatal(err)
		}
	}
	for range rapid.IntRange(0, 5).Draw(t, "changes") {
		if err := q.SetJCT(int64(rapid.IntRange(0, n-1).Draw(t, "which")), grid(t, "newJCT", 0, 40)); err != nil {
			t.Fatal(err)
		}
	}
	k := jobs[rapid.IntRange(0, n-1).Draw(t, "before")]
	job := Job{ID: int64(n), Arrival: 3, Deadline: k.Deadline - grid(t, "ahead", 0, 5), JCT: grid(t, "newJCT", 0, 20)}
	var c Workspace
	sameDecision(t, &q, &c, job, grid(t, "now", -5, 5), rapid.SampledFrom([]Mode{ModeStrict, ModePaper}).Draw(t, "mode"))
}

func TestPropQueueDecideExact(t *testing.T) { rapid.Check(t, propQueueDecideExact) }

// propQueueDecideExact: with arbitrary times the tree's sums round
// differently from the pass's, and Queue.Decide still decides as
// Workspace.Decide, bit for bit. The queue is built so that slacks sit on
// the boundaries where rounding decides: each deadline is the pass's own
// prefix sum, or that sum plus the new job's JCT, a few float64 steps
// either way, so a queued job's Eq. 7 sum with the new job is within
// rounding of its deadline.
func propQueueDecideExact(t *rapid.T) {
	n := rapid.IntRange(1, 40).Draw(t, "n")
	x := rapid.Float64Range(0, 500).Draw(t, "newJCT")
	var q Queue
	sum := 0.0
	for i := range n {
		jct := rapid.OneOf(rapid.Float64Range(0, 500), rapid.SampledFrom([]float64{0.1, 1. / 3, 0.7})).Draw(t, "jct")
		sum += jct
		d := sum
		if rapid.Bool().Draw(t, "plusNew") {
			d += x
		}
		for range rapid.IntRange(0, 3).Draw(t, "steps") {
			d = math.Nextafter(d, math.Inf(rapid.SampledFrom([]int{-1, 1}).Draw(t, "way")))
		}
		if rapid.IntRange(0, 4).Draw(t, "loose") == 0 {
			d += rapid.Float64Range(0, 1000).Draw(t, "slack")
		}
		if err := q.Insert(Job{ID: int64(i), Arrival: float64(i), Deadline: d, JCT: jct}); err != nil {
			t.Fatal(err)
		}
	}
	jobs := q.Jobs()
	k := jobs[rapid.IntRange(0, n-1).Draw(t, "before")]
	job := Job{ID: -1, Arrival: 0, Deadline: k.Deadline - rapid.Float64Range(0, 5).Draw(t, "ahead"), JCT: x}
	var c Workspace
	sameDecision(t, &q, &c, job, 0, rapid.SampledFrom([]Mode{ModeStrict, ModePaper}).Draw(t, "mode"))
}

// TestQueueDecideOtherModes: wave and confidence mode go to a Workspace with
// the queue's jobs, and an unknown mode is an error.
func TestQueueDecideOtherModes(t *testing.T) {
	var q Queue
	if err := q.Insert(Job{ID: 1, Deadline: 50, Tasks: 4, Model: flat(20)}); err != nil {
		t.Fatal(err)
	}
	job := Job{ID: 2, Deadline: 45, Tasks: 2, Model: flat(15)}
	opt := Options{Cluster: slots(2, 1, 0)}
	var c Workspace
	want, _ := c.Decide(q.Jobs(), job, 0, opt)
	got, err := q.Decide(job, 0, opt)
	if err != nil || got.Admit != want.Admit || got.BlockingID != want.BlockingID || len(got.Checked) != len(want.Checked) {
		t.Fatalf("wave: %+v, %v; want %+v", got, err, want)
	}
	if _, err := q.Decide(job, 0, Options{Mode: Mode(9)}); !errors.Is(err, ErrBadInput) {
		t.Fatalf("unknown mode: %v", err)
	}
}

// TestQueueDecideBadInput: each bad input is an error naming its field, as
// Workspace.Decide names it, and leaves no evidence.
func TestQueueDecideBadInput(t *testing.T) {
	var q Queue
	for _, j := range []Job{{ID: 1, Deadline: 10, JCT: 1}, {ID: 2, Deadline: math.MaxFloat64, JCT: 1}, {ID: 3, Deadline: math.Inf(1)}} {
		if err := q.Insert(j); err != nil {
			t.Fatal(err)
		}
	}
	good := Job{ID: 9, Deadline: 20, JCT: 1}
	with := func(f func(*Job)) Job { j := good; f(&j); return j }
	strict := Options{Mode: ModeStrict}
	for _, tt := range []struct {
		name  string
		job   Job
		now   float64
		opt   Options
		field string
	}{
		{"now NaN", good, math.NaN(), strict, "now"},
		{"now infinite", good, math.Inf(-1), strict, "now"},
		{"arrival infinite", with(func(j *Job) { j.Arrival = math.Inf(1) }), 0, strict, "NewJob.Arrival"},
		{"deadline NaN", with(func(j *Job) { j.Deadline = math.NaN() }), 0, strict, "NewJob.Deadline"},
		{"JCT negative", with(func(j *Job) { j.JCT = -1 }), 0, strict, "NewJob.JCT"},
		{"JCT beyond MaxDuration", with(func(j *Job) { j.JCT = 2 * MaxDuration }), 0, Options{Mode: ModePaper}, "NewJob.JCT"},
		{"duplicate ID", with(func(j *Job) { j.ID = 2 }), 0, strict, "NewJob.ID"},
		{"queued deadline − now overflows", good, -math.MaxFloat64, strict, "Queue[1].Deadline"},
		{"unknown mode", good, 0, Options{Mode: Mode(7)}, "Options.Mode"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := q.Ahead(tt.job); strings.HasPrefix(tt.field, "NewJob.A") || strings.HasPrefix(tt.field, "NewJob.D") {
				var ve *ValueError
				if !errors.As(err, &ve) || ve.Field != tt.field {
					t.Errorf("Ahead: err = %v, want field %q", err, tt.field)
				}
			}
			d, err := q.Decide(tt.job, tt.now, tt.opt)
			var ve *ValueError
			if !errors.Is(err, ErrBadInput) || !errors.As(err, &ve) || ve.Field != tt.field {
				t.Fatalf("err = %v, want field %q", err, tt.field)
			}
			if d.Admit || d.Checked != nil {
				t.Errorf("decision %+v returned with an error", d)
			}
			var c Workspace
			if _, err2 := c.Decide(q.Jobs(), tt.job, tt.now, tt.opt); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("Workspace.Decide: %v, Queue.Decide: %v", err2, err)
			}
		})
	}
}
