package admission

import (
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// runEDF advances the sequential model of Eq. 7 by gap seconds: the deadline
// jobs at the head of q run one after another in EDF order, each JCT
// shrinking by the time it runs and the job leaving when it reaches 0.
func runEDF(t *rapid.T, q *Queue, gap float64) {
	for gap > 0 && q.Len() > 0 && q.Jobs()[0].HasDeadline() {
		j := q.Jobs()[0]
		if j.JCT <= gap {
			gap -= j.JCT
			q.Remove(j.ID)
			continue
		}
		if err := q.SetJCT(j.ID, j.JCT-gap); err != nil {
			t.Fatal(err)
		}
		gap = 0
	}
}

func TestPropStrictStream(t *testing.T) { rapid.Check(t, propStrictStream) }

// propStrictStream admits a stream of jobs in strict mode while the admitted
// jobs run in EDF order (integer times, so the arithmetic is exact) and
// checks after every arrival that the admitted set is EDF-feasible under
// Eq. 6, that the paper rule admits whatever strict mode admits, and that
// jobs without a deadline are always admitted.
func propStrictStream(t *rapid.T) {
	var q Queue
	var strict, paper Workspace
	now := 0.0
	steps := rapid.IntRange(1, 30).Draw(t, "steps")
	for id := 1; id <= steps; id++ {
		gap := float64(rapid.IntRange(0, 60).Draw(t, "gap"))
		runEDF(t, &q, gap)
		now += gap
		job := newDeadlineJob(t, now)
		job.ID = int64(id)
		if rapid.IntRange(0, 4).Draw(t, "nodeadline") == 0 {
			job.Deadline = math.Inf(1)
		}
		ds, err := strict.Decide(q.Jobs(), job, now, Options{Mode: ModeStrict})
		if err != nil {
			t.Fatal(err)
		}
		dp, err := paper.Decide(q.Jobs(), job, now, Options{Mode: ModePaper})
		if err != nil {
			t.Fatal(err)
		}
		if ds.Admit && !dp.Admit {
			t.Fatalf("strict admits job %+v but the paper rule does not", job)
		}
		if !job.HasDeadline() && !(ds.Admit && dp.Admit) {
			t.Fatalf("job without deadline rejected")
		}
		if !ds.Admit {
			continue
		}
		if err := q.Insert(job); err != nil {
			t.Fatal(err)
		}
		prefix := 0.0
		for _, j := range q.Jobs() {
			if !j.HasDeadline() {
				continue
			}
			prefix += j.JCT
			if !(prefix <= j.Deadline-now) {
				t.Fatalf("t=%v: admitted set infeasible at job %d: prefix %v > %v", now, j.ID, prefix, j.Deadline-now)
			}
		}
	}
}

func TestPropDecideEvidence(t *testing.T) { rapid.Check(t, propDecideEvidence) }

// propDecideEvidence checks one decision on a random valid queue in every
// deterministic mode: strict admission implies paper admission, the evidence
// is a correct EDF prefix sum, and the verdict follows from the protected
// jobs' slack.
func propDecideEvidence(t *rapid.T) {
	queue := validJobs(t, 12, "q")
	now := float64(rapid.IntRange(0, 50).Draw(t, "now"))
	job := newDeadlineJob(t, now)
	var c Workspace
	ds, err := c.Decide(queue, job, now, Options{Mode: ModeStrict})
	if err != nil {
		t.Fatal(err)
	}
	checkEvidence(t, queue, job, now, ds)
	strictAdmit := ds.Admit
	dp, err := c.Decide(queue, job, now, Options{Mode: ModePaper})
	if err != nil {
		t.Fatal(err)
	}
	checkEvidence(t, queue, job, now, dp)
	if strictAdmit && !dp.Admit {
		t.Fatalf("strict admits, paper rejects")
	}
	// Eq. 7 directly: Σ JCT of the jobs before the new one, plus its own.
	sum := 0.0
	for _, j := range queue {
		if j.HasDeadline() && CompareEDF(j, job) < 0 {
			sum += j.JCT
		}
	}
	if want := sum+job.JCT <= job.Deadline-now; dp.Admit != want {
		t.Fatalf("paper Admit = %v, Eq. 7 says %v", dp.Admit, want)
	}
}

// checkEvidence asserts what every deterministic decision's evidence must
// satisfy.
func checkEvidence(t *rapid.T, queue []Job, job Job, now float64, d Decision) {
	want := 1 // the new job
	for _, j := range queue {
		if j.HasDeadline() && (d.Mode == ModeStrict || CompareEDF(j, job) < 0) {
			want++
		}
	}
	if len(d.Checked) != want {
		t.Fatalf("%v: %d checks, want %d", d.Mode, len(d.Checked), want)
	}
	prefix, allMet := 0.0, true
	for i, c := range d.Checked {
		prefix += c.JCT
		if c.Prefix != prefix || c.Slack != c.Deadline-now-c.Prefix {
			t.Fatalf("Checked[%d] = %+v, want prefix %v", i, c, prefix)
		}
		if i > 0 && d.Checked[i-1].Deadline > c.Deadline {
			t.Fatalf("Checked not in deadline order at %d", i)
		}
		if c.New != (i == d.NewIndex) || (c.New && !c.Protected) || (i < d.NewIndex && c.Protected) {
			t.Fatalf("Checked[%d] = %+v with NewIndex %d", i, c, d.NewIndex)
		}
		if c.Protected && c.Slack < 0 {
			allMet = false
		}
	}
	if d.Admit != allMet || (d.Probability == 1) != d.Admit {
		t.Fatalf("Admit %v, Probability %v, every protected job met: %v", d.Admit, d.Probability, allMet)
	}
	if !d.Admit {
		b := d.Checked[d.Blocking]
		if !b.Protected || b.Slack >= 0 || b.ID != d.BlockingID {
			t.Fatalf("blocking %+v", b)
		}
		for _, c := range d.Checked[:d.Blocking] {
			if c.Protected && c.Slack < 0 {
				t.Fatalf("blocking job is not the first protected job that misses")
			}
		}
	}
}

func TestPropNoDeadlineAdmitted(t *testing.T) { rapid.Check(t, propNoDeadlineAdmitted) }

// propNoDeadlineAdmitted: a new job without a deadline is admitted in every
// mode, and queued jobs without one never change a deadline job's decision.
func propNoDeadlineAdmitted(t *rapid.T) {
	queue := validJobs(t, 10, "q")
	now := float64(rapid.IntRange(0, 50).Draw(t, "now"))
	free := Job{ID: 0, Arrival: now, Deadline: math.Inf(1), JCT: float64(rapid.IntRange(0, 1000).Draw(t, "jct"))}
	var c Workspace
	for _, opt := range []Options{{Mode: ModeStrict}, {Mode: ModePaper}, {Mode: ModeConfidence, Confidence: 1}} {
		d, err := c.Decide(queue, free, now, opt)
		if err != nil || !d.Admit || d.Reason != ReasonNoDeadline || len(d.Checked) != 0 {
			t.Fatalf("%v: %+v, %v", opt.Mode, d, err)
		}
	}
	job := newDeadlineJob(t, now)
	var deadlineOnly []Job
	for _, j := range queue {
		if j.HasDeadline() {
			deadlineOnly = append(deadlineOnly, j)
		}
	}
	for _, mode := range []Mode{ModeStrict, ModePaper} {
		a, err1 := c.Decide(queue, job, now, Options{Mode: mode})
		admitA := a.Admit
		b, err2 := c.Decide(deadlineOnly, job, now, Options{Mode: mode})
		if err1 != nil || err2 != nil || admitA != b.Admit {
			t.Fatalf("%v: jobs without deadline changed the decision", mode)
		}
	}
}

func TestPropConfidence(t *testing.T) { rapid.Check(t, propConfidence) }

// propConfidence: p = 0 admits every valid job; with constant samples equal
// to each JCT and p > 0 the decision equals strict mode's; Probability is in
// [0, 1], at most every protected job's marginal, and decides Admit.
func propConfidence(t *rapid.T) {
	queue := validJobs(t, 10, "q")
	now := float64(rapid.IntRange(0, 50).Draw(t, "now"))
	job := newDeadlineJob(t, now)
	all := append(slices.Clone(queue), job)
	n := rapid.IntRange(1, 8).Draw(t, "samples")
	constant := rapid.Bool().Draw(t, "constant")
	withSamples(t, all, n, constant)
	queue, job = all[:len(queue)], all[len(queue)]
	var c Workspace
	d0, err := c.Decide(queue, job, now, Options{Mode: ModeConfidence, Confidence: 0})
	if err != nil || !d0.Admit {
		t.Fatalf("p = 0: %+v, %v", d0, err)
	}
	p := rapid.SampledFrom([]float64{0.01, 0.25, 0.5, 0.75, 0.9, 1}).Draw(t, "p")
	d, err := c.Decide(queue, job, now, Options{Mode: ModeConfidence, Confidence: p})
	if err != nil {
		t.Fatal(err)
	}
	if !(d.Probability >= 0 && d.Probability <= 1) || d.Admit != (d.Probability >= p) {
		t.Fatalf("Probability %v, p %v, Admit %v", d.Probability, p, d.Admit)
	}
	for _, ch := range d.Checked {
		if ch.Protected && d.Probability > ch.PMeet {
			t.Fatalf("joint probability %v above marginal %+v", d.Probability, ch)
		}
	}
	if !d.Admit && (!d.Checked[d.Blocking].Protected || d.Checked[d.Blocking].ID != d.BlockingID) {
		t.Fatalf("blocking %d of %+v", d.Blocking, d.Checked)
	}
	if !constant {
		return
	}
	confAdmit, confChecked := d.Admit, slices.Clone(d.Checked)
	ds, err := c.Decide(queue, job, now, Options{Mode: ModeStrict})
	if err != nil {
		t.Fatal(err)
	}
	if confAdmit != ds.Admit || len(confChecked) != len(ds.Checked) {
		t.Fatalf("constant samples: confidence admit %v, strict %v", confAdmit, ds.Admit)
	}
	for i := range confChecked {
		if confChecked[i].Protected != ds.Checked[i].Protected || confChecked[i].PMeet != ds.Checked[i].PMeet {
			t.Fatalf("Checked[%d]: confidence %+v, strict %+v", i, confChecked[i], ds.Checked[i])
		}
	}
}

func TestPropQueueOrder(t *testing.T) { rapid.Check(t, propQueueOrder) }

// propQueueOrder: inserting jobs in any order gives the CompareEDF order, and
// removals keep it.
func propQueueOrder(t *rapid.T) {
	jobs := validJobs(t, 15, "q")
	perm := rapid.Permutation(jobs).Draw(t, "perm")
	var q Queue
	for _, j := range perm {
		if err := q.Insert(j); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.EqualFunc(q.Jobs(), jobs, func(a, b Job) bool { return a.ID == b.ID }) {
		t.Fatalf("queue %v, sorted %v", q.Jobs(), jobs)
	}
	for _, j := range perm[:len(perm)/2] {
		if !q.Remove(j.ID) {
			t.Fatalf("Remove(%d) failed", j.ID)
		}
	}
	if !slices.IsSortedFunc(q.Jobs(), CompareEDF) || q.Len() != len(jobs)-len(perm)/2 {
		t.Fatalf("after removals: %v", q.Jobs())
	}
}

// notFinite reports a NaN or ±Inf anywhere in a decision's numbers, or a
// probability outside [0, 1].
func notFinite(d Decision) bool {
	bad := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }
	if !(d.Probability >= 0 && d.Probability <= 1) {
		return true
	}
	for _, c := range d.Checked {
		if bad(c.Deadline) || bad(c.JCT) || bad(c.Prefix) || bad(c.Slack) || !(c.PMeet >= 0 && c.PMeet <= 1) {
			return true
		}
	}
	return false
}

func TestPropDecideAny(t *testing.T) { rapid.Check(t, propDecideAny) }
func FuzzDecide(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(propDecideAny)) }

// propDecideAny feeds Decide arbitrary, often invalid, data in every mode,
// extremes included (MaxFloat64, subnormals, durations at MaxDuration,
// task counts beyond MaxPlannedTasks, typed-nil models): it must return
// either an ErrBadInput error or a decision whose evidence is finite and
// whose verdict matches it.
func propDecideAny(t *rapid.T) {
	queue := anyJobs(t, 6, false)
	job := Job{
		ID: rapid.Int64Range(-2, 12).Draw(t, "newid"), Arrival: anyFloat().Draw(t, "newarr"),
		Deadline: anyFloat().Draw(t, "newdl"), JCT: anyFloat().Draw(t, "newjct"),
		Tasks: anyTasks().Draw(t, "newtasks"), Model: anyModel().Draw(t, "newmodel"), Running: rapid.SampledFrom([]int{0, 0, 0, 1, -1}).Draw(t, "newrunning"), RunningUntil: anyFloat().Draw(t, "newuntil"),
	}
	now := anyFloat().Draw(t, "now")
	opt := Options{Mode: Mode(rapid.IntRange(-1, 4).Draw(t, "mode")), Confidence: anyFloat().Draw(t, "p"),
		Cluster: anyCluster().Draw(t, "cluster"), Margin: rapid.OneOf(rapid.SampledFrom([]float64{0, 1, 1.5, MaxMargin}), anyFloat()).Draw(t, "margin")}
	var c Workspace
	d, err := c.Decide(queue, job, now, opt)
	if err != nil {
		if !errors.Is(err, ErrBadInput) || d.Admit {
			t.Fatalf("err %v with %+v", err, d)
		}
		return
	}
	if notFinite(d) {
		t.Fatalf("non-finite evidence in %+v", d)
	}
	if !job.HasDeadline() && !d.Admit {
		t.Fatalf("no-deadline job rejected")
	}
	if !d.Admit && (d.Blocking < 0 || d.Blocking >= len(d.Checked)) {
		t.Fatalf("bad Blocking %d", d.Blocking)
	}
	if d.Admit && d.Mode != ModeConfidence {
		for _, ch := range d.Checked {
			if ch.Protected && ch.Slack < 0 {
				t.Fatalf("admitted with protected job %+v late", ch)
			}
		}
	}
}

func TestPropDecideConfidenceAny(t *testing.T) { rapid.Check(t, propDecideConfidenceAny) }
func FuzzDecideConfidence(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(propDecideConfidenceAny)) }

// propDecideConfidenceAny feeds DecideConfidence arbitrary data.
func propDecideConfidenceAny(t *rapid.T) {
	queue := anyJobs(t, 5, true)
	job := Job{
		ID: rapid.Int64Range(-2, 10).Draw(t, "newid"), Arrival: anyFloat().Draw(t, "newarr"),
		Deadline: anyFloat().Draw(t, "newdl"), Samples: rapid.SliceOfN(anyFloat(), 0, 4).Draw(t, "newsamples"),
	}
	now := anyFloat().Draw(t, "now")
	p := anyFloat().Draw(t, "p")
	var c Workspace
	d, err := c.Decide(queue, job, now, Options{Mode: ModeConfidence, Confidence: p})
	if err != nil {
		if !errors.Is(err, ErrBadInput) || d.Admit {
			t.Fatalf("err %v with %+v", err, d)
		}
		return
	}
	if notFinite(d) || d.Admit != (d.Probability >= p) {
		t.Fatalf("decision %+v for p %v", d, p)
	}
}

func TestPropJCTAny(t *testing.T) { rapid.Check(t, propJCTAny) }
func FuzzJCT(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(propJCTAny)) }

// propJCTAny: JCT returns an ErrBadInput error or a finite value >= 0, and a
// valid model on a valid cluster gives nRemaining times the mean task time
// over the usable slots, divided by their number.
func propJCTAny(t *rapid.T) {
	m := linear{A: anyFloat().Draw(t, "a"), B: anyFloat().Draw(t, "b")}
	n := rapid.OneOf(rapid.IntRange(-3, 1000), rapid.SampledFrom([]int{math.MaxInt, math.MinInt})).Draw(t, "n")
	cluster := rs(rapid.SliceOfN(rapid.OneOf(rapid.Float64Range(0, 1), anyFloat()), 0, 8).Draw(t, "cluster")...)
	got, err := JCT(m, n, cluster)
	if err != nil {
		if !errors.Is(err, ErrBadInput) || got != 0 {
			t.Fatalf("got %v with err %v", got, err)
		}
		return
	}
	if !(got >= 0) || math.IsInf(got, 0) {
		t.Fatalf("JCT = %v", got)
	}
	if n == 0 && got != 0 {
		t.Fatalf("no tasks, JCT %v", got)
	}
}

func TestPropQueueAny(t *testing.T) { rapid.Check(t, propQueueAny) }
func FuzzQueue(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(propQueueAny)) }

// propQueueAny drives a Queue with arbitrary data against a model: the queue
// always stays in strict EDF order with unique IDs, and bad input leaves it
// unchanged.
func propQueueAny(t *rapid.T) {
	var q Queue
	model := map[int64]bool{}
	t.Repeat(map[string]func(*rapid.T){
		"insert": func(t *rapid.T) {
			j := Job{ID: rapid.Int64Range(0, 8).Draw(t, "id"), Arrival: anyFloat().Draw(t, "arr"),
				Deadline: anyFloat().Draw(t, "dl"), JCT: anyFloat().Draw(t, "jct")}
			before := q.Len()
			if err := q.Insert(j); err != nil {
				if !errors.Is(err, ErrBadInput) || q.Len() != before {
					t.Fatalf("Insert error %v changed the queue", err)
				}
				return
			}
			if model[j.ID] {
				t.Fatalf("duplicate ID %d inserted", j.ID)
			}
			model[j.ID] = true
		},
		"remove": func(t *rapid.T) {
			id := rapid.Int64Range(0, 8).Draw(t, "id")
			if q.Remove(id) != model[id] {
				t.Fatalf("Remove(%d) disagrees with the model", id)
			}
			delete(model, id)
		},
		"ahead": func(t *rapid.T) {
			j := Job{ID: rapid.Int64Range(0, 8).Draw(t, "id"), Arrival: anyFloat().Draw(t, "arr"), Deadline: anyFloat().Draw(t, "dl")}
			n, err := q.Ahead(j)
			valid := j.Arrival-j.Arrival == 0 && j.Deadline >= -math.MaxFloat64
			if (err == nil) != valid || err != nil && !errors.Is(err, ErrBadInput) || n < 0 || n > q.Len() {
				t.Fatalf("Ahead(%+v) = %d, %v", j, n, err)
			}
		},
		"setjct": func(t *rapid.T) {
			id := rapid.Int64Range(0, 8).Draw(t, "id")
			jct := anyFloat().Draw(t, "jct")
			err := q.SetJCT(id, jct)
			valid := model[id] && jct >= 0 && jct <= MaxDuration
			if (err == nil) != valid || (err != nil && !errors.Is(err, ErrBadInput)) {
				t.Fatalf("SetJCT(%d, %v) = %v", id, jct, err)
			}
		},
		"": func(t *rapid.T) {
			if q.Len() != len(model) {
				t.Fatalf("len %d, model %d", q.Len(), len(model))
			}
			for k := 1; k < q.Len(); k++ {
				if CompareEDF(q.Jobs()[k-1], q.Jobs()[k]) >= 0 {
					t.Fatalf("not in strict EDF order at %d", k)
				}
			}
		},
	})
}

func TestPropCompareEDF(t *testing.T) { rapid.Check(t, propCompareEDF) }
func FuzzCompareEDF(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propCompareEDF)) }

// propCompareEDF: CompareEDF is antisymmetric and orders by deadline first.
func propCompareEDF(t *rapid.T) {
	a := Job{ID: rapid.Int64().Draw(t, "ida"), Arrival: anyFloat().Draw(t, "arra"), Deadline: anyFloat().Draw(t, "dla")}
	b := Job{ID: rapid.Int64().Draw(t, "idb"), Arrival: anyFloat().Draw(t, "arrb"), Deadline: anyFloat().Draw(t, "dlb")}
	if CompareEDF(a, b) != -CompareEDF(b, a) {
		t.Fatalf("not antisymmetric: %+v %+v", a, b)
	}
	if a.Deadline < b.Deadline && CompareEDF(a, b) != -1 {
		t.Fatalf("earlier deadline not first: %+v %+v", a, b)
	}
	if CompareEDF(a, a) != 0 {
		t.Fatalf("not reflexive: %+v", a)
	}
}
