package preempt

import (
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/schedkit/schedkit/internal/extremes"
)

// checkDecision asserts what every decision promises: victims are distinct
// running tasks of unprotected jobs, the totals add up, and the exactness
// rule holds over the eligible slots.
func checkDecision(t *rapid.T, c Cluster, k int, d Decision, eligible []int) {
	seen := map[int]bool{}
	freed, lost := 0, 0.0
	for _, v := range d.Victims {
		if v.Task < 0 || v.Task >= len(c.Tasks) || seen[v.Task] {
			t.Fatalf("victim %+v is not a distinct running task", v)
		}
		seen[v.Task] = true
		tk := c.Tasks[v.Task]
		if v.ID != tk.ID || v.Job != tk.Job || v.Slots != tk.Slots || v.WorkLost != (c.Now-tk.Start)*float64(tk.Slots) {
			t.Fatalf("victim %+v does not describe task %+v", v, tk)
		}
		if c.Jobs[tk.Job].NoPreempt {
			t.Fatalf("victim %+v belongs to a NoPreempt job", v)
		}
		freed += v.Slots
		lost += v.WorkLost
	}
	if freed != d.Freed || math.Abs(lost-d.WorkLost) > 1e-9*(1+lost) {
		t.Fatalf("Freed %d WorkLost %v, victims sum to %d %v", d.Freed, d.WorkLost, freed, lost)
	}
	total, ones := 0, 0
	for _, i := range eligible {
		total += c.Tasks[i].Slots
		if c.Tasks[i].Slots == 1 {
			ones++
		}
	}
	switch {
	case total < k:
		if d.Freed != total {
			t.Fatalf("eligible slots %d < k %d but freed %d", total, k, d.Freed)
		}
	case ones >= k:
		if d.Freed != k {
			t.Fatalf("%d one-slot eligible tasks, k %d, freed %d: want exactly k", ones, k, d.Freed)
		}
	default:
		last := d.Victims[len(d.Victims)-1].Slots
		if d.Freed < k || (d.Freed > k && d.Freed-k >= last) {
			t.Fatalf("k %d freed %d (last victim %d slots)", k, d.Freed, last)
		}
	}
}

func TestPropBaseline(t *testing.T) { rapid.Check(t, propBaseline) }
func FuzzBaseline(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propBaseline)) }

func propBaseline(t *rapid.T) {
	c := genCluster(t, rapid.Bool().Draw(t, "oneSlot"))
	k := rapid.IntRange(0, 60).Draw(t, "k")
	d, err := Baseline(c, k)
	if err != nil {
		t.Fatalf("valid cluster: %v", err)
	}
	over := refOverflow(c)
	var cand []int
	for i := range c.Tasks {
		if over[i] && !c.Jobs[c.Tasks[i].Job].NoPreempt {
			cand = append(cand, i)
		}
	}
	want := []int(nil)
	if k > 0 {
		want, _ = refFill(c, cand, k, true)
	}
	if got := victimTasks(d); !slices.Equal(got, want) {
		t.Fatalf("victims %v, reference %v", got, want)
	}
	for _, v := range d.Victims {
		if v.Reason != ReasonOverflow {
			t.Fatalf("baseline victim with reason %v", v.Reason)
		}
	}
	checkDecision(t, c, k, d, cand)
	// A job at or under its share loses nothing; no job is pushed below it.
	held := heldBy(c)
	after := slices.Clone(held)
	for _, v := range d.Victims {
		after[v.Job] -= v.Slots
	}
	for j, job := range c.Jobs {
		if float64(held[j]) <= job.Share && after[j] != held[j] {
			t.Fatalf("job %d at or under its share (%d ≤ %v) lost tasks", j, held[j], job.Share)
		}
		if float64(after[j]) < min(float64(held[j]), math.Ceil(job.Share)) {
			t.Fatalf("job %d pushed below its share: %d → %d, share %v", j, held[j], after[j], job.Share)
		}
	}
}

func genOptions(t *rapid.T) GPOptions {
	return GPOptions{
		Busy:              rapid.Bool().Draw(t, "busy"),
		NTask:             float64(rapid.IntRange(0, 60).Draw(t, "nTask")),
		Timeout:           float64(rapid.IntRange(0, 300).Draw(t, "timeout")),
		KillFraction:      rapid.SampledFrom([]float64{0, 0.25, 0.5, 1}).Draw(t, "frac"),
		DominantFraction:  rapid.SampledFrom([]float64{0, 0.5, 0.9, 1}).Draw(t, "dom"),
		StarvationBeyondK: rapid.Bool().Draw(t, "beyondK"),
	}
}

// refGP is Algorithm 1 written out with full sorts.
func refGP(c Cluster, k int, o GPOptions) (victims []int, reasons []Reason, starving []int) {
	frac, dom := o.KillFraction, o.DominantFraction
	if frac == 0 {
		frac = 0.5
	}
	if dom == 0 {
		dom = 0.9
	}
	held := heldBy(c)
	over := refOverflow(c)
	need := k
	chosen := map[int]bool{}
	if o.Busy {
		var cand []int
		for j, job := range c.Jobs {
			if !job.Long || !(float64(held[j]) > job.Share) {
				continue
			}
			// Condition (3) and the 90% exception over the other jobs' queues.
			others, most := 0, 0
			for i, oj := range c.Jobs {
				if i != j {
					others += oj.Queued
					most = max(most, oj.Queued)
				}
			}
			if !(float64(others) > o.NTask) || float64(most) > dom*float64(others) {
				continue
			}
			starving = append(starving, j)
			if job.NoPreempt {
				continue
			}
			var mine []int
			for i := range c.Tasks {
				if c.Tasks[i].Job == j && over[i] {
					mine = append(mine, i)
				}
			}
			slices.SortFunc(mine, recencyCmp(c.Tasks))
			n := len(mine)
			if job.StarvingFor < o.Timeout {
				n = int(math.Ceil(frac * float64(n)))
			}
			cand = append(cand, mine[:n]...)
		}
		if o.StarvationBeyondK { // Algorithm 1 lines 4–7 as written
			slices.SortFunc(cand, recencyCmp(c.Tasks))
			for _, i := range cand {
				victims = append(victims, i)
				reasons = append(reasons, ReasonStarvingLongJob)
				chosen[i] = true
				need -= c.Tasks[i].Slots
			}
		} else if k > 0 {
			var got []int
			got, need = refFill(c, cand, need, false)
			for _, i := range got {
				victims = append(victims, i)
				reasons = append(reasons, ReasonStarvingLongJob)
				chosen[i] = true
			}
		}
	}
	if need > 0 {
		var cand []int
		for i, tk := range c.Tasks {
			if !chosen[i] && !c.Jobs[tk.Job].NoPreempt {
				cand = append(cand, i)
			}
		}
		got, _ := refFill(c, cand, need, true)
		for _, i := range got {
			victims = append(victims, i)
			reasons = append(reasons, ReasonMostRecent)
		}
	}
	return victims, reasons, starving
}

func TestPropGP(t *testing.T) { rapid.Check(t, propGP) }
func FuzzGP(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propGP)) }

func propGP(t *rapid.T) {
	c := genCluster(t, rapid.Bool().Draw(t, "oneSlot"))
	k := rapid.IntRange(0, 60).Draw(t, "k")
	o := genOptions(t)
	d, err := GP(c, k, o)
	if err != nil {
		t.Fatalf("valid cluster: %v", err)
	}
	wantV, wantR, wantS := refGP(c, k, o)
	var gotR []Reason
	for _, v := range d.Victims {
		gotR = append(gotR, v.Reason)
	}
	if got := victimTasks(d); !slices.Equal(got, wantV) || !slices.Equal(gotR, wantR) {
		t.Fatalf("victims %v %v, reference %v %v", got, gotR, wantV, wantR)
	}
	if !slices.Equal(d.Starving, wantS) {
		t.Fatalf("starving %v, reference %v", d.Starving, wantS)
	}
	var eligible []int
	for i, tk := range c.Tasks {
		if !c.Jobs[tk.Job].NoPreempt {
			eligible = append(eligible, i)
		}
	}
	starved := 0
	for _, v := range d.Victims {
		if v.Reason == ReasonStarvingLongJob {
			starved += v.Slots
		}
	}
	if o.StarvationBeyondK && starved >= k {
		// Lines 5–6: the starvation victims alone, even beyond k.
		if d.Freed != starved {
			t.Fatalf("starvation victims hold %d ≥ k %d, but Freed %d", starved, k, d.Freed)
		}
		checkDecision(t, c, d.Freed, d, eligible)
		return
	}
	checkDecision(t, c, k, d, eligible)
}

func TestPropGPNoWorseThanBaseline(t *testing.T) { rapid.Check(t, propGPNoWorseThanBaseline) }
func FuzzGPNoWorse(f *testing.F)                 { f.Fuzz(rapid.MakeFuzz(propGPNoWorseThanBaseline)) }

// With one-slot tasks and no starvation, GP loses no more work than the
// baseline freeing the same number of slots.
func propGPNoWorseThanBaseline(t *rapid.T) {
	c := genCluster(t, true)
	k := rapid.IntRange(0, 60).Draw(t, "k")
	b, err := Baseline(c, k)
	if err != nil {
		t.Fatal(err)
	}
	g, err := GP(c, b.Freed, GPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Freed != b.Freed {
		t.Fatalf("GP freed %d, baseline %d", g.Freed, b.Freed)
	}
	if g.WorkLost > b.WorkLost {
		t.Fatalf("GP lost %v > baseline %v", g.WorkLost, b.WorkLost)
	}
}

func TestPropBadCluster(t *testing.T) { rapid.Check(t, propBadCluster) }
func FuzzBadCluster(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propBadCluster)) }

// Any bad field gives ErrBadInput from both policies, never a panic.
func propBadCluster(t *rapid.T) {
	c := genCluster(t, false)
	k := rapid.IntRange(-2, 60).Draw(t, "k")
	badF := extremes.OrEdge(rapid.SampledFrom([]float64{-1, 2e15}), -MaxTime, MaxTime).Draw(t, "bad")
	badI := extremes.OrIntEdge(rapid.SampledFrom([]int{-1, 0}), 1, MaxSlots).Draw(t, "badInt")
	wantErr := k < 0
	switch rapid.IntRange(0, 6).Draw(t, "what") {
	case 0:
		c.Now = badF
		wantErr = wantErr || !(math.Abs(badF) <= MaxTime)
	case 1:
		if len(c.Tasks) > 0 {
			c.Tasks[0].Start = badF
			wantErr = wantErr || !(math.Abs(badF) <= MaxTime) || badF > c.Now
		}
	case 2:
		if len(c.Tasks) > 0 {
			c.Tasks[0].Slots = badI
			wantErr = wantErr || badI < 1 || badI > MaxSlots
		}
	case 3:
		if len(c.Tasks) > 0 {
			c.Tasks[0].Job = badI + len(c.Jobs)*rapid.IntRange(0, 1).Draw(t, "over")
			wantErr = wantErr || c.Tasks[0].Job < 0 || c.Tasks[0].Job >= len(c.Jobs)
		}
	case 4:
		c.Jobs[0].Share = badF
		wantErr = wantErr || !(badF >= 0) || math.IsInf(badF, 1)
	case 5:
		c.Jobs[0].Queued = min(badI, -1)
		wantErr = true
	case 6:
		c.Jobs[0].StarvingFor = badF
		wantErr = wantErr || !(badF >= 0) || math.IsInf(badF, 1)
	}
	o := genOptions(t)
	badOpt := rapid.Bool().Draw(t, "badOpt")
	if badOpt {
		o.NTask = math.NaN()
	}
	for p, run := range []func() (Decision, error){
		func() (Decision, error) { return Baseline(c, k) },
		func() (Decision, error) { return GP(c, k, o) },
	} {
		wantErr := wantErr || (p == 1 && badOpt)
		d, err := run()
		if err != nil && !errors.Is(err, ErrBadInput) {
			t.Fatalf("error %v does not match ErrBadInput", err)
		}
		if wantErr && err == nil {
			t.Fatalf("bad input accepted: decision %+v", d)
		}
		if err == nil && math.IsNaN(d.WorkLost) {
			t.Fatal("NaN work lost")
		}
	}
}

func TestPropOccupancy(t *testing.T)   { rapid.Check(t, propOccupancy) }
func FuzzOccupancyWindow(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propOccupancy)) }

func propOccupancy(t *rapid.T) {
	window := float64(rapid.IntRange(1, 50).Draw(t, "window"))
	p := rapid.SampledFrom([]float64{0, 0.5, 0.9, 1}).Draw(t, "p")
	w, err := NewOccupancyWindow(window, p)
	if err != nil {
		t.Fatal(err)
	}
	type sample struct {
		t    float64
		busy bool
	}
	var all []sample
	now := 0.0
	for range rapid.IntRange(0, 60).Draw(t, "n") {
		now += float64(rapid.IntRange(0, 10).Draw(t, "dt"))
		total := rapid.IntRange(0, 20).Draw(t, "total")
		occ := rapid.IntRange(0, total).Draw(t, "occ")
		if err := w.Add(now, occ, total); err != nil {
			t.Fatal(err)
		}
		all = append(all, sample{now, float64(occ) > p*float64(total)})
		n, b := 0, 0
		for _, s := range all {
			if s.t > now-window {
				n++
				if s.busy {
					b++
				}
			}
		}
		if w.Len() != n || w.BusyFraction() != float64(b)/float64(n) {
			t.Fatalf("window %d samples busy %v, brute force %d/%d", w.Len(), w.BusyFraction(), b, n)
		}
	}
	// Bad samples are refused and leave the window unchanged.
	n, f := w.Len(), w.BusyFraction()
	if len(all) > 0 {
		if err := w.Add(now-1, 0, 1); !errors.Is(err, ErrBadInput) {
			t.Fatalf("sample before the last accepted: %v", err)
		}
	}
	if err := w.Add(now, 2, 1); !errors.Is(err, ErrBadInput) {
		t.Fatalf("occupied > total accepted: %v", err)
	}
	if w.Len() != n || w.BusyFraction() != f {
		t.Fatal("a refused sample changed the window")
	}
}

// quantity draws ordinary values, the edges of the time range and of [0, 1]
// (fractions) and just beyond, and any float64 including NaN and ±Inf.
func quantity() *rapid.Generator[float64] {
	return rapid.OneOf(rapid.Float64Range(0, 1e3),
		rapid.SampledFrom(append(extremes.Edges(MinTime, MaxTime), extremes.Edges(0, 1)...)),
		extremes.AnyFloat())
}

func TestPropEvaluate(t *testing.T) { rapid.Check(t, propEvaluate) }
func FuzzEvaluate(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propEvaluate)) }

func propEvaluate(t *rapid.T) {
	n := rapid.IntRange(0, 20).Draw(t, "n")
	ideal := make([]float64, n)
	actual := make([]float64, n)
	valid := true
	for j := range n {
		ideal[j] = quantity().Draw(t, "ideal")
		actual[j] = quantity().Draw(t, "actual")
		valid = valid && ideal[j] >= MinTime && ideal[j] <= MaxTime && actual[j] >= MinTime && actual[j] <= MaxTime
	}
	m, err := Evaluate(ideal, actual)
	if !valid {
		if !errors.Is(err, ErrBadInput) {
			t.Fatalf("bad times accepted: %v", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		if m != (Metrics{}) {
			t.Fatalf("empty input: %+v", m)
		}
		return
	}
	tol := 1e-9
	for _, x := range []float64{m.SNP, m.MeanANP, m.L1, m.L2, m.Unfairness, m.AvgResponse} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			t.Fatalf("metric out of range: %+v", m)
		}
	}
	// Power-mean inequalities: GM ≤ AM of the ANPs; 1/GM ≤ l1 ≤ l2.
	if m.SNP > m.MeanANP*(1+tol) || 1/m.SNP > m.L1*(1+tol) || m.L1 > m.L2*(1+tol) {
		t.Fatalf("power means out of order: %+v", m)
	}
}

func TestPropEvaluateEqual(t *testing.T) { rapid.Check(t, propEvaluateEqual) }

// Equal ANPs: SNP equals that ANP, unfairness is 0, l1 = l2 = 1/ANP.
func propEvaluateEqual(t *rapid.T) {
	n := rapid.IntRange(1, 30).Draw(t, "n")
	a := rapid.Float64Range(0.01, 1).Draw(t, "anp")
	ideal, actual := make([]float64, n), make([]float64, n)
	for j := range n {
		ideal[j] = rapid.Float64Range(1, 1e4).Draw(t, "ideal")
		actual[j] = ideal[j] / a
	}
	m, err := Evaluate(ideal, actual)
	if err != nil {
		t.Fatal(err)
	}
	near := func(x, y float64) bool { return math.Abs(x-y) <= 1e-12*math.Max(1, math.Abs(y)) }
	if !near(m.SNP, a) || !near(m.MeanANP, a) || m.Unfairness > 1e-12 || !near(m.L1, 1/a) || !near(m.L2, 1/a) {
		t.Fatalf("equal ANP %v: %+v", a, m)
	}
}

func TestPropDeficiencyOrder(t *testing.T) { rapid.Check(t, propDeficiencyOrder) }
func FuzzDeficiencyOrder(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propDeficiencyOrder)) }

func propDeficiencyOrder(t *rapid.T) {
	n := rapid.IntRange(0, 12).Draw(t, "n")
	shares := make([]float64, n)
	running := make([]int, n)
	for j := range n {
		shares[j] = float64(rapid.IntRange(0, 8).Draw(t, "share"))
		running[j] = rapid.IntRange(0, 8).Draw(t, "running")
	}
	if rapid.IntRange(0, 4).Draw(t, "spoil") == 0 && n > 0 {
		shares[0] = quantity().Draw(t, "badShare")
	}
	order, err := DeficiencyOrder(shares, running, nil)
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatal(err)
		}
		return
	}
	if len(order) != n {
		t.Fatalf("order %v of %d jobs", order, n)
	}
	seen := make([]bool, n)
	for i, j := range order {
		if j < 0 || j >= n || seen[j] {
			t.Fatalf("order %v is not a permutation", order)
		}
		seen[j] = true
		if i > 0 {
			p := order[i-1]
			dp, dj := shares[p]-float64(running[p]), shares[j]-float64(running[j])
			if dp < dj || (dp == dj && p > j) {
				t.Fatalf("order %v: job %d (%v) before job %d (%v)", order, p, dp, j, dj)
			}
		}
	}
}

// count draws small counts and, on purpose, the extremes of int where a
// conversion through float64 can overflow, and the edges of [1, MaxSlots].
func count() *rapid.Generator[int] {
	return extremes.OrIntEdge(rapid.IntRange(-3, 1000), 1, MaxSlots)
}

func TestPropScalars(t *testing.T) { rapid.Check(t, propScalars) }
func FuzzScalars(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propScalars)) }

// The scalar rules: errors only as ErrBadInput, results in range.
func propScalars(t *rapid.T) {
	x, y, z := quantity().Draw(t, "x"), quantity().Draw(t, "y"), quantity().Draw(t, "z")
	n := count().Draw(t, "n")
	check := func(err error) bool {
		if err != nil && !errors.Is(err, ErrBadInput) {
			t.Fatalf("error %v does not match ErrBadInput", err)
		}
		return err == nil
	}
	if v, err := NTask(x, y); check(err) && !(v >= 0 && v <= x) {
		t.Fatalf("NTask(%v, %v) = %v", x, y, v)
	}
	if v, err := ExpectedANP(x, y); check(err) && !(v >= 0 && v <= 1) {
		t.Fatalf("ExpectedANP(%v, %v) = %v", x, y, v)
	}
	if v, err := GraduatedKill(n, x, y, z); check(err) && !(v >= 0 && v <= n && (v == n || x < y)) {
		t.Fatalf("GraduatedKill(%d, %v, %v, %v) = %d", n, x, y, z, v)
	}
	if v, err := RestartSooner(x, y, z); check(err) && v != (x > z*y) {
		t.Fatalf("RestartSooner(%v, %v, %v) = %v", x, y, z, v)
	}
	q := []int{n, rapid.IntRange(0, 100).Draw(t, "q1")}
	if v, err := QueueDominated(q, z); check(err) && v && !(float64(max(q[0], q[1])) > z*(float64(q[0])+float64(q[1]))) {
		t.Fatalf("QueueDominated(%v, %v) = true", q, z)
	}
	if v, err := Deficiency(x, n); check(err) && (v != x-float64(n) || math.IsNaN(v)) {
		t.Fatalf("Deficiency(%v, %d) = %v", x, n, v)
	}
	if v, err := ANP(x, y); check(err) && !(v > 0 && v == x/y) {
		t.Fatalf("ANP(%v, %v) = %v", x, y, v)
	}
	if v, err := WorkLost(x, Task{Start: y, Slots: n}); check(err) && !(v >= 0 && v == (x-y)*float64(n)) {
		t.Fatalf("WorkLost(%v, {Start %v, Slots %d}) = %v", x, y, n, v)
	}
	if Starves(n, x, true, n, y) && !(float64(n) > x && float64(n) > y) {
		t.Fatalf("Starves(%d, %v, true, %d, %v)", n, x, n, y)
	}
}

func TestPropOwnQueue(t *testing.T) { rapid.Check(t, propOwnQueue) }
func FuzzOwnQueue(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propOwnQueue)) }

// A job does not starve itself: with one long job, its own queued demand
// (any value up to math.MaxInt) changes nothing GP decides.
func propOwnQueue(t *rapid.T) {
	c := genCluster(t, rapid.Bool().Draw(t, "oneSlot"))
	long := rapid.IntRange(0, len(c.Jobs)-1).Draw(t, "long")
	for j := range c.Jobs {
		c.Jobs[j].Long = j == long
	}
	k := rapid.IntRange(0, 60).Draw(t, "k")
	o := genOptions(t)
	a, err := GP(c, k, o)
	if err != nil {
		t.Fatal(err)
	}
	c.Jobs[long].Queued = rapid.OneOf(rapid.IntRange(0, 100), rapid.Just(math.MaxInt)).Draw(t, "ownQueued")
	b, err := GP(c, k, o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Victims, b.Victims) || !slices.Equal(a.Starving, b.Starving) {
		t.Fatalf("the long job's own queue changed the decision: %v %v → %v %v", a.Victims, a.Starving, b.Victims, b.Starving)
	}
}

func TestPropClusterEdges(t *testing.T) { rapid.Check(t, propClusterEdges) }
func FuzzClusterEdges(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propClusterEdges)) }

// propClusterEdges draws every field of a cluster, k and the options at the
// edges of its documented range and beyond (MaxTime, MaxSlots, MaxInt,
// MaxFloat64, subnormals, NaN, ±Inf). Both policies accept exactly the
// inputs the docs call valid, name the field of the first bad one, and
// decide within the promises: distinct victims, totals that add up, finite
// work lost.
func propClusterEdges(t *rapid.T) {
	nj := rapid.IntRange(1, 4).Draw(t, "jobs")
	c := Cluster{Now: extremes.OrEdge(rapid.Float64Range(-10, 10), -MaxTime, MaxTime).Draw(t, "now")}
	valid := math.Abs(c.Now) <= MaxTime
	for range nj {
		j := Job{
			Share:       extremes.OrEdge(rapid.Float64Range(0, 5), 0, math.MaxFloat64).Draw(t, "share"),
			Queued:      extremes.OrIntEdge(rapid.IntRange(0, 5), 0, math.MaxInt).Draw(t, "queued"),
			Long:        rapid.Bool().Draw(t, "long"),
			NoPreempt:   rapid.IntRange(0, 4).Draw(t, "protect") == 0,
			StarvingFor: extremes.OrEdge(rapid.Float64Range(0, 5), 0, math.MaxFloat64).Draw(t, "starvingFor"),
		}
		valid = valid && j.Share >= 0 && j.Share <= math.MaxFloat64 && j.Queued >= 0 &&
			j.StarvingFor >= 0 && j.StarvingFor <= math.MaxFloat64
		c.Jobs = append(c.Jobs, j)
	}
	for range rapid.IntRange(0, 6).Draw(t, "tasks") {
		tk := Task{
			ID:    rapid.SampledFrom([]int64{0, 1, math.MinInt64, math.MaxInt64}).Draw(t, "id"),
			Job:   extremes.OrIntEdge(rapid.IntRange(0, nj-1), 0, nj-1).Draw(t, "job"),
			Start: extremes.OrEdge(rapid.Float64Range(-10, 10), -MaxTime, MaxTime).Draw(t, "start"),
			Slots: extremes.OrIntEdge(rapid.IntRange(1, 3), 1, MaxSlots).Draw(t, "slots"),
		}
		valid = valid && tk.Job >= 0 && tk.Job < nj && math.Abs(tk.Start) <= MaxTime &&
			tk.Start <= c.Now && tk.Slots >= 1 && tk.Slots <= MaxSlots
		c.Tasks = append(c.Tasks, tk)
	}
	k := extremes.OrIntEdge(rapid.IntRange(0, 10), 0, math.MaxInt).Draw(t, "k")
	valid = valid && k >= 0
	o := GPOptions{
		Busy:              rapid.Bool().Draw(t, "busy"),
		NTask:             extremes.OrEdge(rapid.Float64Range(0, 10), 0, math.MaxFloat64).Draw(t, "nTask"),
		Timeout:           extremes.OrEdge(rapid.Float64Range(0, 10), 0, math.MaxFloat64).Draw(t, "timeout"),
		KillFraction:      extremes.OrEdge(rapid.Float64Range(0, 1), 0, 1).Draw(t, "kill"),
		DominantFraction:  extremes.OrEdge(rapid.Float64Range(0, 1), 0, 1).Draw(t, "dominant"),
		StarvationBeyondK: rapid.Bool().Draw(t, "beyondK"),
	}
	validOpt := !math.IsNaN(o.NTask) && o.Timeout >= 0 && o.Timeout <= math.MaxFloat64 &&
		o.KillFraction >= 0 && o.KillFraction <= 1 && o.DominantFraction >= 0 && o.DominantFraction <= 1
	for p, run := range []func() (Decision, error){
		func() (Decision, error) { return Baseline(c, k) },
		func() (Decision, error) { return GP(c, k, o) },
	} {
		valid := valid && (p == 0 || validOpt)
		d, err := run()
		if err != nil {
			wantAnyField(t, err)
			if valid {
				t.Fatalf("valid input refused: %v", err)
			}
			continue
		}
		if !valid {
			t.Fatalf("invalid input accepted: decision %+v", d)
		}
		if math.IsNaN(d.WorkLost) || math.IsInf(d.WorkLost, 0) || d.WorkLost < 0 {
			t.Fatalf("work lost %v", d.WorkLost)
		}
		var eligible []int
		for i, tk := range c.Tasks {
			if !c.Jobs[tk.Job].NoPreempt && (p == 0 && refOverflow(c)[i] || p == 1) {
				eligible = append(eligible, i)
			}
		}
		if p == 1 && o.StarvationBeyondK && d.Freed > k {
			k = d.Freed // lines 5–6 as written may free more than k
		}
		checkDecision(t, c, k, d, eligible)
	}
}

func TestPropOccupancyEdges(t *testing.T) { rapid.Check(t, propOccupancyEdges) }
func FuzzOccupancyEdges(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propOccupancyEdges)) }

// propOccupancyEdges feeds a window extreme lengths, fractions, times and
// counts: bad ones are refused with a named field and leave the window
// unchanged; the window never holds more than MaxWindowSamples samples and
// its busy fraction stays in [0, 1].
func propOccupancyEdges(t *rapid.T) {
	window := extremes.OrEdge(rapid.Float64Range(1, 100), 0, math.MaxFloat64).Draw(t, "window")
	p := extremes.OrEdge(rapid.Float64Range(0, 1), 0, 1).Draw(t, "p")
	w, err := NewOccupancyWindow(window, p)
	if valid := window > 0 && window <= math.MaxFloat64 && p >= 0 && p <= 1; valid != (err == nil) {
		t.Fatalf("NewOccupancyWindow(%v, %v): %v", window, p, err)
	}
	if err != nil {
		if !errors.Is(err, ErrBadInput) {
			t.Fatal(err)
		}
		return
	}
	last := math.Inf(-1)
	for range rapid.IntRange(0, 20).Draw(t, "n") {
		tm := extremes.OrEdge(rapid.Float64Range(0, 100), -MaxTime, MaxTime).Draw(t, "t")
		total := extremes.OrIntEdge(rapid.IntRange(0, 10), 0, math.MaxInt).Draw(t, "total")
		occ := extremes.OrIntEdge(rapid.IntRange(0, 10), 0, total).Draw(t, "occupied")
		n, f := w.Len(), w.BusyFraction()
		err := w.Add(tm, occ, total)
		valid := math.Abs(tm) <= MaxTime && tm >= last && total >= 0 && occ >= 0 && occ <= total
		if valid != (err == nil) {
			t.Fatalf("Add(%v, %d, %d) after %v: %v", tm, occ, total, last, err)
		}
		if err != nil {
			if !errors.Is(err, ErrBadInput) || w.Len() != n || w.BusyFraction() != f {
				t.Fatalf("refused sample: %v, window %d→%d, %v→%v", err, n, w.Len(), f, w.BusyFraction())
			}
			continue
		}
		last = tm
		if w.Len() < 1 || w.Len() > MaxWindowSamples || !(w.BusyFraction() >= 0 && w.BusyFraction() <= 1) {
			t.Fatalf("window of %d samples, busy fraction %v", w.Len(), w.BusyFraction())
		}
	}
}
