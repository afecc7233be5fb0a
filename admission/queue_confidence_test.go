package admission

import (
	"math"
	"testing"

	"pgregory.net/rapid"
)

func TestPropQueueConfidence(t *testing.T) { rapid.Check(t, propQueueConfidence) }
func FuzzQueueConfidence(f *testing.F)     { f.Fuzz(rapid.MakeFuzz(propQueueConfidence)) }

// confSamples draws n samples, now and then one outside [0, MaxDuration].
func confSamples(t *rapid.T, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = rapid.Float64Range(0, 40).Draw(t, "sample")
	}
	if n > 0 && rapid.IntRange(0, 30).Draw(t, "badSample") == 0 {
		s[rapid.IntRange(0, n-1).Draw(t, "at")] = rapid.SampledFrom([]float64{-1, math.NaN(), math.Inf(1), 2 * MaxDuration}).Draw(t, "bad")
	}
	return s
}

// propQueueConfidence: Queue.Decide in confidence mode, which keeps the
// running sums and the checked samples between decisions, decides exactly
// as Workspace.Decide over q.Jobs() (what it passed the queue to before):
// over random queues built by Insert, InsertAll, Remove, SetJCT and Reset,
// with decisions at a few repeated times and sample counts, the same error
// (or none) and the same Decision, every Check of the evidence included.
func propQueueConfidence(t *rapid.T) {
	var q Queue
	q.conf.stride = rapid.IntRange(1, 5).Draw(t, "stride") // confStride's role, at the test's queue lengths
	var c Workspace
	ids := []int64{}
	n := rapid.IntRange(1, 6).Draw(t, "n")
	count := func(t *rapid.T) int {
		if rapid.IntRange(0, 15).Draw(t, "otherCount") == 0 {
			return rapid.IntRange(0, 7).Draw(t, "count")
		}
		return n
	}
	t.Repeat(map[string]func(*rapid.T){
		"insert": func(t *rapid.T) {
			id := int64(rapid.IntRange(0, 199).Draw(t, "id"))
			j := gridJob(t, id)
			j.Samples = confSamples(t, count(t))
			if err := q.Insert(j); err == nil {
				ids = append(ids, id)
			}
		},
		"insertAll": func(t *rapid.T) {
			if q.Len() > 0 {
				return
			}
			m := rapid.IntRange(0, 40).Draw(t, "m")
			js := make([]Job, m)
			for k := range js {
				js[k] = gridJob(t, int64(300+k))
				js[k].Samples = confSamples(t, count(t))
			}
			if err := q.InsertAll(js); err == nil {
				for _, j := range js {
					ids = append(ids, j.ID)
				}
			}
		},
		"remove": removeAction(&q, &ids),
		"setJCT": setJCTAction(&q, &ids),
		"reset": func(t *rapid.T) {
			if rapid.IntRange(0, 10).Draw(t, "doReset") == 0 {
				q.Reset()
				ids = ids[:0]
			}
		},
		"decide": func(t *rapid.T) {
			id := int64(1000 + rapid.IntRange(0, 1000).Draw(t, "newID"))
			if len(ids) > 0 && rapid.IntRange(0, 20).Draw(t, "dup") == 7 {
				id = ids[rapid.IntRange(0, len(ids)-1).Draw(t, "dupOf")]
			}
			job := gridJob(t, id)
			job.Samples = confSamples(t, count(t))
			now := rapid.SampledFrom([]float64{0, 0, 0, 5, -3.5, 1e300, -math.MaxFloat64}).Draw(t, "now")
			p := rapid.SampledFrom([]float64{0, 0.25, 0.5, 0.9, 1, 1.5}).Draw(t, "p")
			opt := Options{Mode: ModeConfidence, Confidence: p}
			want, werr := c.Decide(q.Jobs(), job, now, opt)
			got, gerr := q.Decide(job, now, opt)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Fatalf("errors: queue %v, pass %v", gerr, werr)
			}
			if werr != nil {
				return
			}
			if got.Admit != want.Admit || got.Reason != want.Reason || got.Mode != want.Mode || got.NewIndex != want.NewIndex ||
				got.Blocking != want.Blocking || got.BlockingID != want.BlockingID || got.Probability != want.Probability ||
				len(got.Checked) != len(want.Checked) {
				t.Fatalf("queue %+v, pass %+v", got, want)
			}
			for i := range want.Checked {
				if got.Checked[i] != want.Checked[i] {
					t.Fatalf("Checked[%d]: queue %+v, pass %+v", i, got.Checked[i], want.Checked[i])
				}
			}
		},
	})
}
