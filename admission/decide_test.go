package admission

import (
	"errors"
	"math"
	"testing"
)

// handQueue is the queue of the hand-worked cases: three deadline jobs and a
// job without a deadline. With now = 10 the prefix sums without a new job are
// 30, 80, 140 against relative deadlines 90, 190, 290.
func handQueue() []Job {
	return []Job{
		{ID: 1, Arrival: 0, Deadline: 100, JCT: 30},
		{ID: 2, Arrival: 0, Deadline: 200, JCT: 50},
		{ID: 3, Arrival: 0, Deadline: 300, JCT: 60},
		{ID: 9, Arrival: 0, Deadline: math.Inf(1), JCT: 1000},
	}
}

type wantCheck struct {
	id            int64
	prefix, slack float64
	protected     bool
}

func TestDecideHandWorked(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name     string
		queue    []Job
		newJob   Job
		mode     Mode
		admit    bool
		reason   Reason
		blocking int64 // ID, 0 when admitted
		newIndex int
		checked  []wantCheck
	}{
		{
			name:   "strict admits, new job second",
			queue:  handQueue(),
			newJob: Job{ID: 4, Arrival: 10, Deadline: 150, JCT: 40},
			mode:   ModeStrict, admit: true, reason: ReasonFits, newIndex: 1,
			// 30; 30+40=70 ≤ 140; 70+50=120 ≤ 190; 120+60=180 ≤ 290.
			checked: []wantCheck{{1, 30, 60, false}, {4, 70, 70, true}, {2, 120, 70, true}, {3, 180, 110, true}},
		},
		{
			name:   "paper lists only the jobs up to the new one",
			queue:  handQueue(),
			newJob: Job{ID: 4, Arrival: 10, Deadline: 150, JCT: 40},
			mode:   ModePaper, admit: true, reason: ReasonFits, newIndex: 1,
			checked: []wantCheck{{1, 30, 60, false}, {4, 70, 70, true}},
		},
		{
			name:   "paper rejects: 30+150 = 180 > 150-10",
			queue:  handQueue(),
			newJob: Job{ID: 4, Arrival: 10, Deadline: 150, JCT: 150},
			mode:   ModePaper, admit: false, reason: ReasonNewJobLate, blocking: 4, newIndex: 1,
			checked: []wantCheck{{1, 30, 60, false}, {4, 180, -40, true}},
		},
		{
			name:   "paper admits what hurts job 2: 30+115 = 145 ≤ 150",
			queue:  handQueue(),
			newJob: Job{ID: 4, Arrival: 10, Deadline: 160, JCT: 115},
			mode:   ModePaper, admit: true, reason: ReasonFits, newIndex: 1,
			checked: []wantCheck{{1, 30, 60, false}, {4, 145, 5, true}},
		},
		{
			name:   "strict rejects to protect job 2: 30+115+50 = 195 > 190",
			queue:  handQueue(),
			newJob: Job{ID: 4, Arrival: 10, Deadline: 160, JCT: 115},
			mode:   ModeStrict, admit: false, reason: ReasonQueuedJobHurt, blocking: 2, newIndex: 1,
			checked: []wantCheck{{1, 30, 60, false}, {4, 145, 5, true}, {2, 195, -5, true}, {3, 255, 35, true}},
		},
		{
			name:   "equality meets the deadline: 30+110 = 140, 140+50 = 190",
			queue:  handQueue(),
			newJob: Job{ID: 4, Arrival: 10, Deadline: 150, JCT: 110},
			mode:   ModeStrict, admit: true, reason: ReasonFits, newIndex: 1,
			checked: []wantCheck{{1, 30, 60, false}, {4, 140, 0, true}, {2, 190, 0, true}, {3, 250, 40, true}},
		},
		{
			name:   "latest deadline goes last, before jobs without deadline",
			queue:  handQueue(),
			newJob: Job{ID: 4, Arrival: 10, Deadline: 400, JCT: 100},
			mode:   ModeStrict, admit: true, reason: ReasonFits, newIndex: 3,
			checked: []wantCheck{{1, 30, 60, false}, {2, 80, 110, false}, {3, 140, 150, false}, {4, 240, 150, true}},
		},
		{
			name:   "no deadline: always admitted, no evidence",
			queue:  handQueue(),
			newJob: Job{ID: 4, Arrival: 10, Deadline: inf, JCT: 1e9},
			mode:   ModeStrict, admit: true, reason: ReasonNoDeadline, newIndex: -1,
		},
		{
			name: "a job already late is not protected",
			queue: []Job{
				{ID: 1, Deadline: 100, JCT: 30},
				{ID: 2, Deadline: 110, JCT: 90}, // 120 > 100 already
			},
			newJob: Job{ID: 4, Arrival: 10, Deadline: 105, JCT: 10},
			mode:   ModeStrict, admit: true, reason: ReasonFits, newIndex: 1,
			checked: []wantCheck{{1, 30, 60, false}, {4, 40, 55, true}, {2, 130, -30, false}},
		},
		{
			name:   "equal deadline: the earlier arrival goes first (145 > 140)",
			queue:  []Job{{ID: 1, Arrival: 0, Deadline: 150, JCT: 100}},
			newJob: Job{ID: 4, Arrival: 10, Deadline: 150, JCT: 45},
			mode:   ModePaper, admit: false, reason: ReasonNewJobLate, blocking: 4, newIndex: 1,
			checked: []wantCheck{{1, 100, 40, false}, {4, 145, -5, true}},
		},
		{
			name:   "empty queue, deadline in the past",
			queue:  nil,
			newJob: Job{ID: 4, Arrival: 10, Deadline: 5, JCT: 0},
			mode:   ModeStrict, admit: false, reason: ReasonNewJobLate, blocking: 4, newIndex: 0,
			checked: []wantCheck{{4, 0, -5, true}},
		},
	}
	var c Workspace
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := c.Decide(tt.queue, tt.newJob, 10, Options{Mode: tt.mode})
			if err != nil {
				t.Fatal(err)
			}
			if d.Admit != tt.admit || d.Reason != tt.reason || d.BlockingID != tt.blocking || d.NewIndex != tt.newIndex || d.Mode != tt.mode {
				t.Fatalf("got admit=%v reason=%v blockingID=%d newIndex=%d mode=%v, want %v %v %d %d %v",
					d.Admit, d.Reason, d.BlockingID, d.NewIndex, d.Mode, tt.admit, tt.reason, tt.blocking, tt.newIndex, tt.mode)
			}
			if wantP := map[bool]float64{true: 1, false: 0}[tt.admit]; d.Probability != wantP {
				t.Errorf("Probability = %v, want %v", d.Probability, wantP)
			}
			if len(d.Checked) != len(tt.checked) {
				t.Fatalf("Checked = %+v, want %d entries", d.Checked, len(tt.checked))
			}
			for i, w := range tt.checked {
				g := d.Checked[i]
				if g.ID != w.id || g.Prefix != w.prefix || g.Slack != w.slack || g.Protected != w.protected || g.New != (w.id == tt.newJob.ID) {
					t.Errorf("Checked[%d] = %+v, want %+v", i, g, w)
				}
				if wantP := map[bool]float64{true: 1, false: 0}[w.slack >= 0]; g.PMeet != wantP {
					t.Errorf("Checked[%d].PMeet = %v, want %v", i, g.PMeet, wantP)
				}
			}
			if !d.Admit && d.Checked[d.Blocking].ID != d.BlockingID {
				t.Errorf("Blocking %d does not point at BlockingID %d", d.Blocking, d.BlockingID)
			}
		})
	}
}

func TestDecideBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	good := Job{ID: 4, Arrival: 10, Deadline: 150, JCT: 40, Tasks: 2, Model: linear{A: 10}}
	with := func(f func(*Job)) Job { j := good; f(&j); return j }
	strict := Options{Mode: ModeStrict}
	two := []Slot{{R: 1}, {R: 0.5, Busy: true, FreeAt: 20}}
	wave := Options{Cluster: two}
	waveWith := func(f func(*Options)) Options { o := wave; f(&o); return o }
	var nilPtr *exp2
	tests := []struct {
		name   string
		queue  []Job
		newJob Job
		now    float64
		opt    Options
		field  string
	}{
		{"now NaN", handQueue(), good, nan, strict, "now"},
		{"now +Inf", handQueue(), good, inf, strict, "now"},
		{"unknown mode", handQueue(), good, 10, Options{Mode: 7}, "Options.Mode"},
		{"negative mode", handQueue(), good, 10, Options{Mode: -1}, "Options.Mode"},
		{"new arrival NaN", nil, with(func(j *Job) { j.Arrival = nan }), 10, strict, "NewJob.Arrival"},
		{"new arrival -Inf", nil, with(func(j *Job) { j.Arrival = -inf }), 10, strict, "NewJob.Arrival"},
		{"new deadline NaN", nil, with(func(j *Job) { j.Deadline = nan }), 10, strict, "NewJob.Deadline"},
		{"new deadline -Inf", nil, with(func(j *Job) { j.Deadline = -inf }), 10, strict, "NewJob.Deadline"},
		{"new deadline overflow", nil, with(func(j *Job) { j.Deadline = math.MaxFloat64 }), -math.MaxFloat64, strict, "NewJob.Deadline"},
		{"new JCT NaN", nil, with(func(j *Job) { j.JCT = nan }), 10, strict, "NewJob.JCT"},
		{"new JCT negative", nil, with(func(j *Job) { j.JCT = -1 }), 10, strict, "NewJob.JCT"},
		{"new JCT +Inf", nil, with(func(j *Job) { j.JCT = inf }), 10, strict, "NewJob.JCT"},
		{"queue out of order", []Job{{ID: 2, Deadline: 200}, {ID: 1, Deadline: 100}}, good, 10, strict, "Queue[1]"},
		{"queue no-deadline before deadline", []Job{{ID: 2, Deadline: inf}, {ID: 1, Deadline: 100}}, good, 10, strict, "Queue[1]"},
		{"queue equal keys", []Job{{ID: 1, Deadline: 100}, {ID: 1, Deadline: 100}}, good, 10, strict, "Queue[1]"},
		{"duplicate new ID", []Job{{ID: 4, Deadline: 100}}, good, 10, strict, "NewJob.ID"},
		{"duplicate new ID, no deadline", []Job{{ID: 4, Deadline: 100}}, with(func(j *Job) { j.Deadline = inf }), 10, strict, "NewJob.ID"},
		{"queued JCT NaN", []Job{{ID: 1, Deadline: 100, JCT: nan}}, good, 10, strict, "Queue[0].JCT"},
		{"queued JCT after new negative", []Job{{ID: 1, Deadline: 100}, {ID: 2, Deadline: 300, JCT: -2}}, good, 10, Options{Mode: ModePaper}, "Queue[1].JCT"},
		{"queued deadline NaN", []Job{{ID: 1, Deadline: nan}}, good, 10, strict, "Queue[0].Deadline"},
		{"queued arrival Inf", []Job{{ID: 1, Deadline: 1, Arrival: inf}}, good, 10, strict, "Queue[0].Arrival"},
		{"queued deadline overflow", []Job{{ID: 1, Deadline: math.MaxFloat64}}, with(func(j *Job) { j.Deadline = inf }), -math.MaxFloat64, strict, ""},
		{"confidence out of range", handQueue(), good, 10, Options{Mode: ModeConfidence, Confidence: 1.5}, "Options.Confidence"},
		// Issue 19, defect 6: JCTs whose sum overflowed gave Prefix +Inf and
		// Slack -Inf; every duration is now limited to MaxDuration.
		{"new JCT MaxFloat64", nil, with(func(j *Job) { j.JCT = math.MaxFloat64 }), 10, strict, "NewJob.JCT"},
		{"queued JCT beyond MaxDuration", []Job{{ID: 1, Deadline: 100, JCT: math.MaxFloat64 / 2}}, good, 10, Options{Mode: ModePaper}, "Queue[0].JCT"},
		{"new JCT just beyond MaxDuration", nil, with(func(j *Job) { j.JCT = math.Nextafter(MaxDuration, math.Inf(1)) }), 10, strict, "NewJob.JCT"},
		// Wave mode.
		{"wave margin NaN", nil, good, 10, waveWith(func(o *Options) { o.Margin = nan }), "Options.Margin"},
		{"wave margin negative", nil, good, 10, waveWith(func(o *Options) { o.Margin = -1 }), "Options.Margin"},
		{"wave margin above MaxMargin", nil, good, 10, waveWith(func(o *Options) { o.Margin = MaxMargin * 2 }), "Options.Margin"},
		{"wave no cluster", nil, good, 10, Options{}, "Options.Cluster"},
		{"wave no usable slot", nil, good, 10, Options{Cluster: []Slot{{R: 0}, {R: 0}}}, "Options.Cluster"},
		{"wave R NaN", nil, good, 10, Options{Cluster: []Slot{{R: 1}, {R: nan}}}, "Options.Cluster[1].R"},
		{"wave R above 1", nil, good, 10, Options{Cluster: []Slot{{R: 1.5}}}, "Options.Cluster[0].R"},
		{"wave FreeAt NaN", nil, good, 10, Options{Cluster: []Slot{{R: 1, Busy: true, FreeAt: nan}}}, "Options.Cluster[0].FreeAt"},
		{"wave FreeAt +Inf", nil, good, 10, Options{Cluster: []Slot{{R: 1}, {R: 1, Busy: true, FreeAt: inf}}}, "Options.Cluster[1].FreeAt"},
		{"wave FreeAt beyond MaxDuration", nil, good, 10, Options{Cluster: []Slot{{R: 1, Busy: true, FreeAt: 11 + MaxDuration}}}, "Options.Cluster[0].FreeAt"},
		{"wave cluster above MaxSlots", nil, good, 10, Options{Cluster: make([]Slot, MaxSlots+1)}, "Options.Cluster"},
		{"wave new Tasks negative", nil, with(func(j *Job) { j.Tasks = -1 }), 10, wave, "NewJob.Tasks"},
		{"wave new nil model", nil, with(func(j *Job) { j.Model = nil }), 10, wave, "NewJob.Model"},
		{"wave new nil pointer model", nil, with(func(j *Job) { j.Model = nilPtr }), 10, wave, "NewJob.Model"},
		{"wave new Running 1", nil, with(func(j *Job) { j.Running = 1; j.RunningUntil = 12 }), 10, wave, "NewJob.Running"},
		{"strict new Running 1", nil, with(func(j *Job) { j.Running = 1 }), 10, strict, "NewJob.Running"},
		{"strict new nil model with tasks", nil, with(func(j *Job) { j.Tasks, j.Model = 1, nil }), 10, strict, "NewJob.Model"},
		{"strict new Tasks negative", nil, with(func(j *Job) { j.Tasks = -1 }), 10, strict, "NewJob.Tasks"},
		{"confidence new JCT NaN", nil, with(func(j *Job) { j.JCT = nan }), 10, Options{Mode: ModeConfidence}, "NewJob.JCT"},
		{"wave new model NaN", nil, with(func(j *Job) { j.Model = linear{A: nan} }), 10, wave, "NewJob.Model.TCT(Options.Cluster[0].R)"},
		{"wave new model negative on the slow slot", nil, with(func(j *Job) { j.Tasks = 2; j.Model = linear{A: -1, B: 1.5} }), 10,
			Options{Cluster: []Slot{{R: 1}, {R: 0.5, Busy: true, FreeAt: 5}}}, "NewJob.Model.TCT(Options.Cluster[1].R)"},
		{"wave new model beyond MaxDuration", nil, with(func(j *Job) { j.Model = linear{A: 2 * MaxDuration} }), 10, wave, "NewJob.Model.TCT(Options.Cluster[0].R)"},
		{"wave new Tasks above MaxPlannedTasks", nil, with(func(j *Job) { j.Tasks = MaxPlannedTasks + 1 }), 10, wave, "NewJob.Tasks"},
		{"wave new Tasks MaxInt", nil, with(func(j *Job) { j.Tasks = math.MaxInt }), 10, wave, "NewJob.Tasks"},
		{"wave queued Tasks push past MaxPlannedTasks", []Job{{ID: 1, Deadline: 100, Tasks: MaxPlannedTasks - 1, Model: linear{A: 1}}}, good, 10, wave, "Queue[0].Tasks"},
		{"wave queued Tasks negative", []Job{{ID: 1, Deadline: 100, Tasks: -1}}, good, 10, wave, "Queue[0].Tasks"},
		{"wave queued Tasks negative, no deadline", []Job{{ID: 1, Deadline: inf, Tasks: -1}}, good, 10, wave, "Queue[0].Tasks"},
		{"wave queued nil model", []Job{{ID: 1, Deadline: 100, Tasks: 1}}, good, 10, wave, "Queue[0].Model"},
		{"wave queued RunningUntil NaN", []Job{{ID: 1, Deadline: 100, Running: 1, RunningUntil: nan}}, good, 10, wave, "Queue[0].RunningUntil"},
		{"wave queued RunningUntil beyond MaxDuration", []Job{{ID: 1, Deadline: 100, Running: 2, RunningUntil: 1e16}}, good, 10, wave, "Queue[0].RunningUntil"},
		{"wave queued Running negative", []Job{{ID: 1, Deadline: 100, Running: -1}}, good, 10, wave, "Queue[0].Running"},
		{"wave queued after new, model Inf", []Job{{ID: 1, Deadline: 100}, {ID: 2, Deadline: 300, Tasks: 1, Model: linear{A: inf}}}, good, 10, wave, "Queue[1].Model.TCT(Options.Cluster[0].R)"}, // every usable slot is a candidate
		{"wave queued out of order", []Job{{ID: 2, Deadline: 200}, {ID: 1, Deadline: 100}}, good, 10, wave, "Queue[1]"},
		{"wave no deadline, bad queue", []Job{{ID: 1, Deadline: 100, Tasks: -1}}, with(func(j *Job) { j.Deadline = inf }), 10, wave, "Queue[0].Tasks"},
		{"wave no deadline, bad cluster", nil, with(func(j *Job) { j.Deadline = inf }), 10, Options{Cluster: []Slot{{R: nan}}}, "Options.Cluster[0].R"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := decide(tt.queue, tt.newJob, tt.now, tt.opt)
			if tt.field == "" { // valid after all: a no-deadline job sums nothing
				if err != nil || !d.Admit {
					t.Fatalf("got %+v, %v; want admitted", d, err)
				}
				return
			}
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("err = %v, want ErrBadInput", err)
			}
			var ve *ValueError
			if !errors.As(err, &ve) || ve.Field != tt.field {
				t.Fatalf("err = %v, want field %q", err, tt.field)
			}
			if d.Admit || d.Checked != nil {
				t.Errorf("decision %+v returned with an error", d)
			}
		})
	}
}
