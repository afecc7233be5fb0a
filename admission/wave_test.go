package admission

import (
	"math"
	"testing"
)

// flat is a test model: the same task time on every slot.
type flat float64

func (m flat) TCT(float64) float64 { return float64(m) }

// slots returns n slots of residual capacity r, all free at freeAt.
func slots(n int, r, freeAt float64) []Slot {
	s := make([]Slot, n)
	for i := range s {
		s[i] = Slot{R: r, Busy: true, FreeAt: freeAt}
	}
	return s
}

// TestDecideWaveHandWorked: wave mode's plan worked out by hand (now = 0
// unless said otherwise), with what paper and strict mode say of the same
// arrival, so each case also shows where the modes part.
func TestDecideWaveHandWorked(t *testing.T) {
	tests := []struct {
		name    string
		queue   []Job
		newJob  Job
		cluster []Slot
		margin  float64
		admit   bool
		reason  Reason
		block   int64 // BlockingID, 0 when admitted
		checked []wantCheck
		spans   []float64 // Check.JCT, the planned span of each job
		paper   bool      // what ModePaper decides (JCT from Eq. 6 of Tasks)
		strict  bool      // what ModeStrict decides
	}{
		{
			// Whole waves: 26 tasks of 10 s on 40 free slots take one full
			// task time, 10 s > 8; Eq. 6 says 26·10/40 = 6.5 s ≤ 8.
			name:    "26 tasks on 40 slots take a whole wave",
			newJob:  Job{ID: 1, Deadline: 8, Tasks: 26, Model: flat(10)},
			cluster: slots(40, 1, 0),
			admit:   false, reason: ReasonNewJobLate, block: 1,
			checked: []wantCheck{{1, 10, -2, true}}, spans: []float64{10},
			paper: true, strict: true,
		},
		{
			// Running tasks hold their slots: both busy until 30, so two
			// 10 s tasks end at 40 > 35; Eq. 6 says 2·(10+10)/2² = 10 s.
			name:    "running tasks hold their slots",
			newJob:  Job{ID: 1, Deadline: 35, Tasks: 2, Model: flat(10)},
			cluster: slots(2, 1, 30),
			admit:   false, reason: ReasonNewJobLate, block: 1,
			checked: []wantCheck{{1, 40, -5, true}}, spans: []float64{10},
			paper: true, strict: true,
		},
		{
			// The margin: 3 tasks of 10 s on 3 free slots, deadline 12.
			// Margin 1 plans 10 s; margin 1.25 plans 12.5 s > 12.
			name:    "margin 1.25 makes a 10 s task 12.5 s",
			newJob:  Job{ID: 1, Deadline: 12, Tasks: 3, Model: flat(10)},
			cluster: slots(3, 1, 0), margin: 1.25,
			admit: false, reason: ReasonNewJobLate, block: 1,
			checked: []wantCheck{{1, 12.5, -0.5, true}}, spans: []float64{12.5},
			paper: true, strict: true,
		},
		{
			// Queued job 1 (4 tasks of 20 s, deadline 50) alone on 2 slots
			// completes at 40. New job 2 (deadline 45, 2 tasks of 15 s) goes
			// first in EDF order: it completes at 15, and job 1's waves move
			// to 15–35 and 35–55: 5 s late. Eq. 6: JCT 1 = 40, JCT 2 = 15;
			// paper checks 15 ≤ 45; strict finds 15 + 40 = 55 > 50 too.
			name:    "a queued job would be late by 5 s",
			queue:   []Job{{ID: 1, Deadline: 50, Tasks: 4, Model: flat(20)}},
			newJob:  Job{ID: 2, Deadline: 45, Tasks: 2, Model: flat(15)},
			cluster: slots(2, 1, 0),
			admit:   false, reason: ReasonQueuedJobHurt, block: 1,
			checked: []wantCheck{{2, 15, 30, true}, {1, 55, -5, true}}, spans: []float64{15, 40},
			paper: true, strict: false,
		},
		{
			// The same with job 1's deadline at 60: 55 ≤ 60, admitted.
			name:    "the queued job keeps 5 s of slack",
			queue:   []Job{{ID: 1, Deadline: 60, Tasks: 4, Model: flat(20)}},
			newJob:  Job{ID: 2, Deadline: 45, Tasks: 2, Model: flat(15)},
			cluster: slots(2, 1, 0),
			admit:   true, reason: ReasonFits,
			checked: []wantCheck{{2, 15, 30, true}, {1, 55, 5, true}}, spans: []float64{15, 40},
			paper: true, strict: true,
		},
		{
			// Heterogeneous slots: TCT(r) = 101 − 100r gives 1 s on the
			// dedicated slot, 100 s on the one at r = 0.01. One task goes to
			// the dedicated slot (it ends there first): done at 1 ≤ 10.
			// Eq. 6 averages the two: 1·(1 + 100)/2² = 25.25 > 10, so paper
			// and strict reject what the plan shows fits.
			name:    "a fast free slot: the plan admits what Eq. 6 rejects",
			newJob:  Job{ID: 1, Deadline: 10, Tasks: 1, Model: linear{A: 101, B: -100}},
			cluster: []Slot{{R: 1}, {R: 0.01}},
			admit:   true, reason: ReasonFits,
			checked: []wantCheck{{1, 1, 9, true}}, spans: []float64{1},
			paper: false, strict: false,
		},
		{
			// A queued job on time only if its tasks wait for the slots where
			// they end first is protected. examples/embedding's scenario with
			// its last slot at r = 0.25 (jobs 1–3, now = 5 there; times here
			// relative to it and rounded: pi's 10.0, 16.9, 26.9 s × margin
			// 1.13 become 11, 19, 30 s). Slots 0 and 1 (r = 1) free at 6, slot
			// 2 (r = 0.5) at 7, slot 3 (r = 0.25) at 8. Job 2 (deadline 35,
			// 4 tasks) alone, first free: slots 0 and 1 end at 17, slot 2 at
			// 26, slot 3 at 38 > 35, late. End first: 17, 17, then 26 on slot
			// 2 (not 28 on slot 0 or 38 on slot 3), then 28 on slot 0: done
			// at 28, on time, so job 2 is protected (first free alone took it
			// for already late and let job 3 in, and in the run job 2 then
			// ended 1.8 s late). New job 3 (deadline 20, 2 tasks) goes first
			// on slots 0 and 1, done at 17 (first free). Job 2 then ends at 38
			// in both placements (end first: slot 2 at 26, slots 0 and 1 at
			// 28, slot 3 at 38 rather than 39): 3 s late. Eq. 6 (JCT 8.875
			// and 17.75) admits under both rules.
			name: "a job on time in the end-first plan is protected",
			queue: []Job{
				{ID: 2, Deadline: 35, Tasks: 4, Model: classModel{11, 19, 30}, Running: 1, RunningUntil: 6},
				{ID: 1, Deadline: math.Inf(1), Tasks: 4, Model: flat(10), Running: 1, RunningUntil: 8},
			},
			newJob:  Job{ID: 3, Arrival: 5, Deadline: 20, Tasks: 2, Model: classModel{11, 19, 30}},
			cluster: []Slot{{R: 1, Busy: true, FreeAt: 6}, {R: 1, Busy: true, FreeAt: 6}, {R: 0.5, Busy: true, FreeAt: 7}, {R: 0.25, Busy: true, FreeAt: 8}},
			admit:   false, reason: ReasonQueuedJobHurt, block: 2,
			checked: []wantCheck{{3, 17, 3, true}, {2, 38, -3, true}}, spans: []float64{11, 31},
			paper: true, strict: true,
		},
		{
			// The end-first placement's tie-break, seen in a protected job's
			// Prefix. Slot 0 (r = 1) frees at 5, slot 1 (r = 0.5) now. New
			// job 3 has nothing left to run. Job 1 (deadline 15; 10 s on
			// r = 1, 15 s on r = 0.5) ends at 15 on either slot: first free
			// takes slot 1, end first the lower index, slot 0. Job 2
			// (deadline 16; 1 s on r = 1, 20 s on r = 0.5) then ends at 6
			// first free (slot 0) and at 16 end first (slot 0 after job 1,
			// rather than 20 on slot 1). On time in both, so its Prefix is the
			// later, 16; had the tie gone to slot 1 it would be 6.
			name: "end first: equal ends go to the lower slot index",
			queue: []Job{
				{ID: 1, Deadline: 15, Tasks: 1, Model: classModel{10, 15, 99}},
				{ID: 2, Deadline: 16, Tasks: 1, Model: classModel{1, 20, 99}},
			},
			newJob:  Job{ID: 3, Deadline: 1},
			cluster: []Slot{{R: 1, Busy: true, FreeAt: 5}, {R: 0.5}},
			admit:   true, reason: ReasonFits,
			checked: []wantCheck{{3, 0, 1, true}, {1, 15, 0, true}, {2, 16, 0, true}}, spans: []float64{0, 15, 1},
			paper: true, strict: true,
		},
		{
			// Jobs before the new one are planned first and not protected;
			// a job without deadline is never planned; a queued job late
			// without the new job (job 3: 20 + 20 = 40 > 30) is reported but
			// not protected. Slots: 0 free at 0, 1 busy until 10 (now 0).
			// Job 1 (deadline 20, 1 task of 20 s) → slot 0: 0–20. New job 2
			// (deadline 25, 1 task of 5 s) → slot 1: 10–15. Job 3 (deadline
			// 30, 2 tasks of 10 s, running until 12) → slot 1 15–25, slot 0
			// 20–30: 30 ≤ 30 with the new job; without it slot 1 10–20,
			// slot 0 20–30: 30 as well. On time: protected, still on time.
			name: "earlier jobs unprotected, no-deadline jobs skipped, RunningUntil counted",
			queue: []Job{
				{ID: 1, Deadline: 20, Tasks: 1, Model: flat(20)},
				{ID: 3, Deadline: 30, Tasks: 2, Model: flat(10), Running: 1, RunningUntil: 12},
				{ID: 9, Deadline: math.Inf(1), Tasks: 1000, Model: flat(1000)},
			},
			newJob:  Job{ID: 2, Deadline: 25, Tasks: 1, Model: flat(5)},
			cluster: []Slot{{R: 1}, {R: 1, Busy: true, FreeAt: 10}},
			admit:   true, reason: ReasonFits,
			checked: []wantCheck{{1, 20, 0, false}, {2, 15, 10, true}, {3, 30, 0, true}}, spans: []float64{20, 5, 15},
			paper: true, strict: true, // Eq. 7: 10, 12.5, 22.5 against 20, 25, 30
		},
		{
			// A queued job already late without the new job is not protected.
			// Job 1 (deadline 15, 2 tasks of 10 s on 1 slot) ends at 20
			// alone, 21 after the new job's 1 s task: reported, not blamed.
			name:    "a job already late is not protected",
			queue:   []Job{{ID: 1, Deadline: 15, Tasks: 2, Model: flat(10)}},
			newJob:  Job{ID: 2, Deadline: 5, Tasks: 1, Model: flat(1)},
			cluster: slots(1, 1, 0),
			admit:   true, reason: ReasonFits,
			checked: []wantCheck{{2, 1, 4, true}, {1, 21, -6, false}}, spans: []float64{1, 20},
			paper: true, strict: true,
		},
		{
			// Nothing left to run: a queued job with no pending task and its
			// running tasks ending at 7 completes at 7.
			name:    "no pending task: completion is RunningUntil",
			queue:   []Job{{ID: 1, Deadline: 6, Running: 1, RunningUntil: 7}},
			newJob:  Job{ID: 2, Deadline: 100},
			cluster: slots(1, 1, 0),
			admit:   true, reason: ReasonFits,
			checked: []wantCheck{{1, 7, -1, false}, {2, 0, 100, true}}, spans: []float64{0, 0},
			paper: true, strict: true,
		},
	}
	var c Workspace
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := c.Decide(tt.queue, tt.newJob, 0, Options{Cluster: tt.cluster, Margin: tt.margin})
			if err != nil {
				t.Fatal(err)
			}
			if d.Admit != tt.admit || d.Reason != tt.reason || d.BlockingID != tt.block || d.Mode != ModeWave {
				t.Fatalf("got admit=%v reason=%v blockingID=%d mode=%v, want %v %v %d", d.Admit, d.Reason, d.BlockingID, d.Mode, tt.admit, tt.reason, tt.block)
			}
			if len(d.Checked) != len(tt.checked) {
				t.Fatalf("Checked = %+v, want %d entries", d.Checked, len(tt.checked))
			}
			for i, w := range tt.checked {
				g := d.Checked[i]
				if g.ID != w.id || g.Prefix != w.prefix || g.Slack != w.slack || g.Protected != w.protected ||
					g.New != (w.id == tt.newJob.ID) || g.JCT != tt.spans[i] || g.PMeet != map[bool]float64{true: 1, false: 0}[w.slack >= 0] {
					t.Errorf("Checked[%d] = %+v, want %+v span %v", i, g, w, tt.spans[i])
				}
			}
			if !d.Admit && d.Checked[d.Blocking].ID != d.BlockingID {
				t.Errorf("Blocking %d is not BlockingID %d", d.Blocking, d.BlockingID)
			}
			// The same arrival under Eq. 6/7, JCT from the same pending tasks.
			eq6 := func(j Job) Job {
				var err error
				if j.HasDeadline() && j.Tasks > 0 {
					if j.JCT, err = JCT(j.Model, j.Tasks, tt.cluster); err != nil {
						t.Fatal(err)
					}
				}
				return j
			}
			var q []Job
			for _, j := range tt.queue {
				q = append(q, eq6(j))
			}
			for mode, want := range map[Mode]bool{ModePaper: tt.paper, ModeStrict: tt.strict} {
				d, err := c.Decide(q, eq6(tt.newJob), 0, Options{Mode: mode})
				if err != nil || d.Admit != want {
					t.Errorf("%v: admit %v, %v; want %v", mode, d.Admit, err, want)
				}
			}
		})
	}
}
